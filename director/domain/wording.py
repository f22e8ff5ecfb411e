"""Words for counts: "1 round", "3 rounds", never "3 round(s)"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str = "") -> str:
    """`count` and the noun in the number it needs; `plural` when it is not noun + "s"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
