"""RULES §2 doubling: offer, take, pass, ownership, up to 64."""

from __future__ import annotations

import pytest

from director.domain.boards import ByBoard
from director.domain.cube import Cube, CubeError, LiveCubes
from director.domain.rules import Format, Side

A, B = Side.A, Side.B


def test_rules_2_anyone_may_offer_a_centred_cube() -> None:
    assert Cube().may_offer(A) and Cube().may_offer(B)


def test_rules_2_take_doubles_and_gives_ownership_to_the_taker() -> None:
    cube = Cube().offer(A).take()
    assert cube == Cube(2, B)
    assert not cube.may_offer(A)
    assert cube.may_offer(B)
    assert cube.offer(B).take() == Cube(4, A)


def test_rules_2_pass_gives_the_doubler_the_value_before_the_offer() -> None:
    assert Cube(4, A).offer(A).passed() == (A, 4)


def test_rules_2_only_the_owner_may_redouble() -> None:
    with pytest.raises(CubeError, match="owns the cube"):
        Cube(2, B).offer(A)


def test_rules_2_cube_stops_at_64() -> None:
    cube = Cube(64, A)
    assert not cube.may_offer(A)
    with pytest.raises(CubeError, match="64"):
        cube.offer(A)


def test_take_or_pass_without_an_offer_is_refused() -> None:
    with pytest.raises(CubeError):
        Cube().take()
    with pytest.raises(CubeError):
        Cube().passed()


def test_a_second_offer_while_one_is_pending_is_refused() -> None:
    with pytest.raises(CubeError, match="already on offer"):
        Cube().offer(A).offer(A)


def test_withdraw_a_mistaken_offer() -> None:
    assert Cube(2, A).offer(A).withdraw() == Cube(2, A)


def test_live_cubes_are_read_and_replaced_by_board() -> None:
    """#28: the live cubes are indexed by board; a board no format has is refused by name
    (`of(3)` read board 2's cube)."""
    cubes = LiveCubes().with_board(2, Cube(2, A))
    assert cubes.of(2) == Cube(2, A) and cubes.of(1) == Cube()
    assert cubes == LiveCubes.at({2: Cube(2, A)})
    for board in (0, 3):
        with pytest.raises(CubeError, match=f"there is no board {board}"):
            cubes.of(board)
        with pytest.raises(CubeError, match=f"there is no board {board}"):
            cubes.with_board(board, Cube())


def test_the_live_cubes_of_a_one_board_match_have_its_board_alone() -> None:
    """#28: an individual match's cubes are keyed by its one board; board 2 is no board."""
    one = LiveCubes(ByBoard.each(Format.INDIVIDUAL.record.boards, lambda _: Cube()))
    assert one.with_board(1, Cube(2, A)).of(1) == Cube(2, A)
    with pytest.raises(CubeError, match="there is no board 2"):
        one.of(2)
