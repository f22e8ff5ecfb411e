"""Words around names and counts: "1 round", "3 rounds" (never "3 round(s)"), and names kept
apart from the words around them when they run right to left."""

from __future__ import annotations

import re
import unicodedata

_TEAM = re.compile(r"\b([Tt])eam(s?)\b")


def entrant_words(text: str, entrant: str = "team") -> str:
    """`text` written of teams, said of the event's entrants ("player" in an individual event,
    RULES §10): team, teams, team's and Team each become the entrant's word."""
    if entrant == "team":
        return text

    def word(m: re.Match[str]) -> str:
        said = entrant.capitalize() if m.group(1) == "T" else entrant
        return said + m.group(2)

    return _TEAM.sub(word, text)


def counted(count: int, noun: str, plural: str = "") -> str:
    """`count` and the noun in the number it needs; `plural` when it is not noun + "s"."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


_RTL = frozenset(("R", "AL"))


def right_to_left(name: str) -> bool:
    """A name with right-to-left letters (Hebrew, Arabic): shown aligned right on its own."""
    return any(unicodedata.bidirectional(ch) in _RTL for ch in name)


def isolated(name: str) -> str:
    """A name set inside other words ("Table 3: A v B · 3–2"), kept apart from them for the
    Unicode bidirectional algorithm: without the isolates, the " · 3–2" after a right-to-left
    name is read into it and shown on its left. Left-to-right names are returned as they are."""
    if not right_to_left(name):
        return name
    return f"\u2068{name}\u2069"  # FIRST STRONG ISOLATE ... POP DIRECTIONAL ISOLATE


# a knockout's sides that no entrant holds (`brackets.draw.Vacant`), as the draws show them
BYE_WORD = "bye"  # nobody comes: the other entrant goes through
NOT_KNOWN_WORD = "…"  # the match that decides it is not finished yet


QUOTED = 40  # characters of a value a message names: enough to find it, never a 30 MB name


def cut(text: str, limit: int = QUOTED) -> str:
    """`text`, or its first `limit` characters and "…" with the length it has: a message that
    names a value from a file or a person stays one short line (a record's 30 MB team name
    was echoed whole into the error)."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}… ({len(text):,} characters)"


def quoted(value: object, limit: int = QUOTED) -> str:
    """A value a message names, in quotes as `repr` writes it, cut as `cut` does."""
    if not isinstance(value, str):
        return cut(repr(value), limit)
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}… ({len(value):,} characters)"
