"""One value for each board of a match, keyed by the board's number (#28).

A Tandem match has boards 1 and 2, an individual match board 1 alone (`EventFormat.boards`).
What a match keeps per board (its live cubes, its clocks, the players' names) is a `ByBoard`
keyed by the boards it has, never a pair of fields `board1`/`board2` or a position `[0]`/`[1]`
that an individual match would read wrongly. A board the value does not have is refused by
number (`KeyError`), never read as another board.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")
U = TypeVar("U")


@dataclass(frozen=True, slots=True)
class ByBoard(Mapping[int, T], Generic[T]):
    """An immutable, hashable mapping board → value, in board order."""

    pairs: tuple[tuple[int, T], ...] = ()

    def __post_init__(self) -> None:
        boards = [board for board, _ in self.pairs]
        if boards != sorted(set(boards)):
            raise ValueError(f"boards must be distinct and in order, not {boards}")

    @classmethod
    def of(cls, values: Mapping[int, T]) -> ByBoard[T]:
        return cls(tuple(sorted(values.items(), key=lambda item: item[0])))

    @classmethod
    def each(cls, boards: Iterable[int], make: Callable[[int], T]) -> ByBoard[T]:
        """`make(board)` for each of `boards`."""
        return cls.of({board: make(board) for board in boards})

    def __getitem__(self, board: int) -> T:
        for number, value in self.pairs:
            if number == board:
                return value
        raise KeyError(board)

    def __iter__(self) -> Iterator[int]:
        return (board for board, _ in self.pairs)

    def __len__(self) -> int:
        return len(self.pairs)

    @property
    def boards(self) -> tuple[int, ...]:
        return tuple(board for board, _ in self.pairs)

    def replaced(self, board: int, value: T) -> ByBoard[T]:
        """These values with `board`'s replaced; a board they do not have is a KeyError."""
        if board not in self.boards:
            raise KeyError(board)
        return ByBoard(tuple((b, value if b == board else v) for b, v in self.pairs))

    def map(self, change: Callable[[T], U]) -> ByBoard[U]:
        return ByBoard(tuple((board, change(value)) for board, value in self.pairs))
