"""Numbers as people type them and files bring them: the digits 0 to 9 only. "²" and "٣" are
digits to `str.isdigit` and `\\d`; `int("²")` then fails, and `int("٣")` reads 3 where a
scoresheet, an id or a cube never says so."""

from __future__ import annotations

import re

ASCII_NUMBER = re.compile(r"[0-9]{1,9}")


def typed_number(text: str) -> int | None:
    """A whole number typed as 0-9 digits (spaces around it allowed), else None."""
    text = text.strip()
    return int(text) if ASCII_NUMBER.fullmatch(text) else None
