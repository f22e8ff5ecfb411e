"""#28: what a match keeps per board is keyed by the boards it has."""

from __future__ import annotations

import pytest

from director.domain.boards import ByBoard
from director.domain.rules import Format


def test_values_are_read_by_board_and_a_missing_board_is_refused() -> None:
    tandem = ByBoard.each(Format.TANDEM.record.boards, lambda board: f"board {board}")
    assert tandem[1] == "board 1" and tandem[2] == "board 2"
    assert tandem.boards == (1, 2) and list(tandem.values()) == ["board 1", "board 2"]
    one = ByBoard.each(Format.INDIVIDUAL.record.boards, str)
    assert one.boards == (1,) and one.get(2) is None
    with pytest.raises(KeyError):
        one[2]  # never read as another board
    with pytest.raises(KeyError):
        one.replaced(2, "x")


def test_equal_and_hashable_whatever_order_they_are_given_in() -> None:
    a, b = ByBoard.of({2: "B", 1: "A"}), ByBoard.of({1: "A", 2: "B"})
    assert a == b and hash(a) == hash(b) and a.pairs == ((1, "A"), (2, "B"))
    assert a.replaced(2, "C") == ByBoard.of({1: "A", 2: "C"}) and a[2] == "B"
    assert a.map(str.lower) == ByBoard.of({1: "a", 2: "b"})
    with pytest.raises(ValueError, match="distinct"):
        ByBoard(((1, "A"), (1, "B")))
