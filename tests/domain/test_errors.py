"""The one kind of error a person can act on, and its conflict case."""

from __future__ import annotations

import pytest

from director.domain.errors import ConflictError, UserError


def test_a_conflict_is_shown_wherever_a_refusal_is() -> None:
    """Every place that shows a `UserError` shows a lost race too (teams and results alike)."""
    with pytest.raises(UserError, match="changed on another station"):
        raise ConflictError("Blue Bar was changed on another station: the view is refreshed")


def test_a_user_error_is_a_value_error_not_a_bug() -> None:
    """Code that validates input with ValueError catches it; the text is shown unchanged."""
    error = UserError("--rounds must be at least 1")
    assert isinstance(error, ValueError)
    assert str(error) == "--rounds must be at least 1"
