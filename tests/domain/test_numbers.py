"""A number people type is 0-9 digits: "²" and "٣" are digits to str.isdigit, never to us."""

from __future__ import annotations

import pytest

from director.domain.numbers import typed_number


@pytest.mark.parametrize(("text", "number"), [("7", 7), (" 12 ", 12), ("007", 7), ("0", 0)])
def test_digits_0_to_9_are_a_number(text: str, number: int) -> None:
    assert typed_number(text) == number


@pytest.mark.parametrize("text", ["", " ", "²", "٣", "5²", "-1", "1.5", "1 2", "1234567890"])
def test_anything_else_is_not(text: str) -> None:
    assert typed_number(text) is None
