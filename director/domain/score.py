"""A match's scoreline and its result: the values every part of a match speaks in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from director.domain.rules import Side


@dataclass(frozen=True)
class Score:
    a: int = 0
    b: int = 0

    def __getitem__(self, side: Side) -> int:
        return self.a if side is Side.A else self.b

    def plus(self, side: Side, n: int) -> Score:
        return Score(self.a + n, self.b) if side is Side.A else Score(self.a, self.b + n)

    def as_dict(self) -> dict[str, int]:
        return {"A": self.a, "B": self.b}

    def __str__(self) -> str:
        return f"{self.a}–{self.b}"


class Result(StrEnum):
    A = "A"
    B = "B"
    DRAW = "draw"
    UNFINISHED = "unfinished"


@dataclass(frozen=True)
class Problem:
    """A rule a game (or the record) breaks; pair and board name the game when there is one,
    and `place` names it in its format's words ('game 3' in a one-board match)."""

    text: str
    pair: int | None = None
    board: int | None = None
    place: str = ""

    def __str__(self) -> str:
        if self.pair is None:
            return self.text
        return f"{self.place or f'pair {self.pair}, board {self.board}'}: {self.text}"
