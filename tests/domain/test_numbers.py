"""A number people type is 0-9 digits: "²" and "٣" are digits to str.isdigit, never to us."""

from __future__ import annotations

import pytest

from director.domain.numbers import typed_decimal, typed_number


@pytest.mark.parametrize(("text", "number"), [("7", 7), (" 12 ", 12), ("007", 7), ("0", 0)])
def test_digits_0_to_9_are_a_number(text: str, number: int) -> None:
    assert typed_number(text) == number


@pytest.mark.parametrize("text", ["", " ", "²", "٣", "5²", "-1", "1.5", "1 2", "1234567890"])
def test_anything_else_is_not(text: str) -> None:
    assert typed_number(text) is None


@pytest.mark.parametrize(
    ("text", "number"), [("0.28", 0.28), (" .5 ", 0.5), ("1", 1.0), ("0.", 0.0), ("007.50", 7.5)]
)
def test_a_decimal_is_0_to_9_digits_and_one_point(text: str, number: float) -> None:
    assert typed_decimal(text) == number


@pytest.mark.parametrize(
    "text", ["", ".", "٠.٣", "0.²", "-0.1", "+1", "1e-1", "nan", "inf", "0_1", "1,5", "1.2.3"]
)
def test_a_decimal_in_other_digits_or_signs_is_not(text: str) -> None:
    """float() reads "٠.٣" as 0.3, "0_1" as 1 and "nan" as a number none of ours is."""
    assert typed_decimal(text) is None


@pytest.mark.parametrize(("text", "number"), [("-12", -12), (" -0 ", 0), ("1650", 1650)])
def test_a_signed_number_may_have_a_minus(text: str, number: int) -> None:
    assert typed_number(text, signed=True) == number


@pytest.mark.parametrize("text", ["-", "--1", "- 1", "+1", "-٣", "-1234567890", "9" * 25])
def test_a_signed_number_is_still_0_to_9_digits_nine_at_most(text: str) -> None:
    assert typed_number(text, signed=True) is None
