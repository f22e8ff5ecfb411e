"""Rounds through the services: pair, refuse, override with warnings, undo, standings."""

from __future__ import annotations

from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.domain.pairing.model import Pairing
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, manual_pairing, rounds, standings
from director.services.audit import entries
from director.services.manual_pairing import Edit
from director.services.teams import add_team, withdraw_team
from director.store.engine import EventDatabase, open_database


def add_teams(db: EventDatabase, n: int) -> list[int]:
    with db.Session() as s, s.begin():
        return [add_team(s, f"Team {i}", (f"P{i}a", f"P{i}b")).value.id for i in range(1, n + 1)]


def finish_round(db: EventDatabase, number: int) -> None:
    """Team A wins every match of the round 6-0 (two backgammons on the first pair)."""
    with db.Session() as s, s.begin():
        for m in rounds.get_round(s, number).matches:
            if m.team_b is None:
                continue
            for board in (1, 2):
                game = Game(0, board, Side.A, End.BEAR_OFF, level=Level.BACKGAMMON)
                games.record_game(s, m.id, game)


def test_pair_first_round_by_seed_and_a_bye_when_odd(db: EventDatabase) -> None:
    ids = add_teams(db, 5)
    with db.Session() as s, s.begin():
        info = rounds.pair_next_round(s).value
    assert info.number == 1
    assert sum(1 for m in info.matches if m.is_bye) == 1
    paired = {m.team_a.id for m in info.matches} | {m.team_b.id for m in info.matches if m.team_b}
    assert paired == set(ids)


def test_next_round_waits_for_results(db: EventDatabase) -> None:
    add_teams(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    with db.Session() as s, pytest.raises(UserError, match="round 1 is not finished yet"):
        rounds.preview_next_round(s)
    finish_round(db, 1)
    with db.Session() as s, s.begin():
        second = rounds.pair_next_round(s).value
        first = rounds.get_round(s, 1)
    met = {frozenset((m.team_a.id, m.team_b.id)) for m in first.matches if m.team_b}
    assert all(frozenset((m.team_a.id, m.team_b.id)) not in met for m in second.matches if m.team_b)
    assert first.status is rounds.RoundStatus.FINISHED


def test_manual_pairing_warns_and_is_audited(db: EventDatabase, event_path: Path) -> None:
    a, b, c, d = add_teams(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    finish_round(db, 1)
    with db.Session() as s:
        first = rounds.get_round(s, 1)
    pair1 = first.matches[0]
    rematch = (Pairing(1, pair1.team_a.id, pair1.team_b.id if pair1.team_b else None),)
    others = [t for t in (a, b, c, d) if t not in rematch[0].teams]
    manual = (*rematch, Pairing(2, others[0], others[1]))
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s, manual, reason="players asked")
    again = open_database(str(event_path))
    with again.Session() as s:
        [line] = [e for e in entries(s) if e.action == "pair by hand"]
    again.close()
    assert "players asked" in line.reason and "rematch" in line.reason.lower()


def test_swap_with_warnings_then_undo(db: EventDatabase) -> None:
    a, b, c, d = add_teams(db, 4)
    with db.Session() as s, s.begin():
        info = rounds.pair_next_round(s).value
    m1, m2 = info.matches
    with db.Session() as s, s.begin():
        warnings = manual_pairing.edit_round(
            s, 1, Edit.SWAP, m1.team_a.id, m2.team_a.id, "late arrival"
        ).value
        swapped = rounds.get_round(s, 1)
    assert warnings == []
    assert swapped.matches[0].team_a.id == m2.team_a.id
    with db.Session() as s, s.begin():
        assert rounds.undo_last_round(s).value == 1
        assert rounds.list_rounds(s) == []


def test_a_round_with_results_cannot_be_undone_or_repaired(db: EventDatabase) -> None:
    add_teams(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    finish_round(db, 1)
    with db.Session() as s, s.begin():
        with pytest.raises(UserError, match="has results"):
            rounds.undo_last_round(s)
        with pytest.raises(UserError, match="has results"):
            rounds.repair_round(s, 1)


def test_withdrawn_team_is_not_paired_from_the_next_round(db: EventDatabase) -> None:
    ids = add_teams(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    finish_round(db, 1)
    with db.Session() as s, s.begin():
        withdraw_team(s, ids[0])
        info = rounds.pair_next_round(s).value
    in_round = {m.team_a.id for m in info.matches} | {m.team_b.id for m in info.matches if m.team_b}
    assert ids[0] not in in_round and len(in_round) == 3


def test_standings_after_a_round(db: EventDatabase) -> None:
    add_teams(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    finish_round(db, 1)
    with db.Session() as s:
        view = standings.standings(s)
        boards = standings.board_statistics(s)
    top = view.lines[0].row
    assert top.match_points == 2 and top.points_for == 6 and top.points_against == 0
    assert [line.row.rank for line in view.lines] == [1, 2, 3, 4]
    assert "buchholz" in view.definitions
    winners = [b for b in boards if b.won == 1]
    assert len(winners) == 4 and all(b.points_for == 3 for b in winners)


def test_checker_runs_clean_on_engine_pairings(db: EventDatabase) -> None:
    add_teams(db, 6)
    for number in (1, 2, 3):
        with db.Session() as s, s.begin():
            rounds.pair_next_round(s)
        finish_round(db, number)
    with db.Session() as s:
        assert rounds.check_pairings(s) == []
