"""Numbers as people type them and files bring them: the digits 0 to 9 only. "²" and "٣" are
digits to `str.isdigit` and `\\d`; `int("²")` then fails, and `int("٣")` reads 3 where a
scoresheet, an id or a cube never says so (as `float("٠.٣")` reads 0.3, and `int("1_0")` 10)."""

from __future__ import annotations

import re

ASCII_NUMBER = re.compile(r"[0-9]{1,9}")
ASCII_DIGITS = re.compile(r"[0-9]+")  # any length: the caller says "too large" itself
ASCII_DECIMAL = re.compile(r"[0-9]{1,9}(?:\.[0-9]{0,9})?|\.[0-9]{1,9}")


def typed_number(text: str, *, signed: bool = False) -> int | None:
    """A whole number typed as 0-9 digits (spaces around it allowed; a "-" before them when
    `signed`, as a rating may have), else None. Nine digits at most: what every back end
    stores (25 nines were taken by int() and refused by SQLite, an OverflowError)."""
    text = text.strip()
    digits = text.removeprefix("-") if signed else text
    return int(text) if ASCII_NUMBER.fullmatch(digits) else None


def typed_decimal(text: str) -> float | None:
    """A number typed as 0-9 digits with a decimal point or not ("0.28", ".5", "1"; spaces
    around it allowed), else None: no sign, exponent, "nan", "inf" or "_"."""
    text = text.strip()
    return float(text) if ASCII_DECIMAL.fullmatch(text) else None
