"""Pairing a knockout match by match (#29, RULES §11): a bracket's next match is paired as
soon as both matches that feed it are finished, byes to the top seeds, a withdrawn feeder
leaves a bye; every plan, last chance and progressive consolation included."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from director.domain.brackets.checker import DrawnMatch, check_draw
from director.domain.brackets.plan import Bracket, BracketPlan, ready_made
from director.domain.errors import UserError
from director.domain.pairing.model import Pairing
from director.domain.rules import End, Level, PairingSystem, Side
from director.domain.scoring import Game
from director.services import games, rounds
from director.services.audit import entries
from director.services.bracket_pairing import draw_state
from director.services.brackets import set_plan
from director.services.events import get_event, update_event
from director.services.matches import get_match
from director.services.teams import list_teams, withdraw_team
from director.store import models
from director.store.engine import EventDatabase
from tests.services.test_rounds import add_teams

Placed = tuple[int, int, str | None, int | None, int | None, int, int, int | None, str]


def knockout(db: EventDatabase, teams: int, plan: BracketPlan | None = None) -> list[int]:
    with db.Session() as s, s.begin():
        options = get_event(s).options
        update_event(s, options=replace(options, pairing_system=PairingSystem.KNOCKOUT))
    ids = add_teams(db, teams)
    if plan is not None:
        with db.Session() as s, s.begin():
            set_plan(s, plan)
    return ids


def placed(db: EventDatabase) -> list[Placed]:
    """(event round, table, bracket, round in it, slot, length, team A, team B, result)."""
    with db.Session() as s:
        rows = s.execute(
            select(
                models.Round.number, models.Match.table_no, models.Match.bracket,
                models.Match.bracket_round, models.Match.slot, models.Match.match_length,
                models.Match.team_a_id, models.Match.team_b_id, models.Match.result,
            ).join(models.Round).order_by(models.Round.number, models.Match.table_no)
        )  # fmt: skip
        return [tuple(r) for r in rows]  # type: ignore[misc]


def win(db: EventDatabase, match_id: int, side: Side = Side.A) -> None:
    """`side` wins the match: the other side did not show (a forfeit is a win, RULES §11)."""
    with db.Session() as s, s.begin():
        games.set_forfeit(s, match_id, side.other, "did not show")


def match_at(db: EventDatabase, bracket: str, rnd: int, slot: int) -> int:
    with db.Session() as s:
        found = s.scalar(
            select(models.Match.id).where(
                models.Match.bracket == bracket,
                models.Match.bracket_round == rnd,
                models.Match.slot == slot,
            )
        )
    assert found is not None, (bracket, rnd, slot)
    return found


def games_left(s: Session, match_id: int) -> bool:
    return get_match(s, match_id).pair_state.match_live


def pair(db: EventDatabase) -> rounds.RoundInfo:
    with db.Session() as s, s.begin():
        return rounds.pair_next_round(s).value


def test_a_match_is_paired_as_soon_as_both_its_feeders_are_finished(db: EventDatabase) -> None:
    """8 players, main + consolation + last chance: once main round 1's matches 1 and 2 are
    finished, main round 2 match 1 and consolation round 1 match 1 are paired, while matches 3
    and 4 are still played; the new matches take the free tables 1 and 2."""
    plan = BracketPlan("night", (
        Bracket("main", (7, 9, 11)),
        Bracket("consolation", (5, 7), ready_made("consolation").brackets[1].feeds),
        Bracket("last-chance", (5,), ready_made("consolation-last-chance").brackets[2].feeds),
    ))  # fmt: skip
    ids = knockout(db, 8, plan)
    first = pair(db)
    assert [(m.bracket, m.bracket_round, m.slot, m.table) for m in first.matches] == [
        ("main", 1, j, j) for j in (1, 2, 3, 4)
    ]
    # standard bracket order: 1 v 8, 4 v 5, 2 v 7, 3 v 6
    assert [(m.team_a.id, m.team_b.id if m.team_b else None) for m in first.matches] == [
        (ids[0], ids[7]), (ids[3], ids[4]), (ids[1], ids[6]), (ids[2], ids[5]),
    ]  # fmt: skip
    with db.Session() as s, pytest.raises(UserError, match="no match is ready"):
        rounds.preview_next_round(s)
    win(db, first.matches[0].id)
    with db.Session() as s, pytest.raises(UserError, match="table 2"):
        rounds.preview_next_round(s)  # it names what it waits for
    win(db, first.matches[1].id, Side.B)
    second = pair(db)
    assert second.number == 2
    assert [
        (m.bracket, m.bracket_round, m.slot, m.table, m.rules.match_length,
         m.team_a.id, m.team_b.id if m.team_b else None)
        for m in second.matches
    ] == [
        ("main", 2, 1, 1, 9, ids[0], ids[4]),
        ("consolation", 1, 1, 2, 5, ids[7], ids[3]),
    ]  # fmt: skip


def test_byes_go_to_the_top_seeds(db: EventDatabase) -> None:
    """5 players in a bracket of 8: seeds 1, 2 and 3 have byes, and seeds 2 and 3, whose
    round-1 slots are both byes, meet in main round 2 at once (both feeders are finished)."""
    ids = knockout(db, 5, ready_made("single"))
    first = pair(db)
    byes = [m.team_a.id for m in first.matches if m.is_bye]
    assert byes == [ids[0], ids[1], ids[2]]
    played = [(m.bracket_round, m.slot, m.team_a.id, m.team_b.id)
              for m in first.matches if m.team_b is not None]  # fmt: skip
    assert played == [(1, 2, ids[3], ids[4]), (2, 2, ids[1], ids[2])]
    assert [m.table for m in first.matches if m.team_b is not None] == [1, 2]


def test_a_withdrawn_feeder_leaves_a_bye(db: EventDatabase) -> None:
    """4 players: the winner of match 1 withdraws, so the winner of match 2 goes through to
    win the final on a bye."""
    ids = knockout(db, 4, ready_made("single"))
    first = pair(db)
    win(db, first.matches[0].id)
    with db.Session() as s, s.begin():
        withdraw_team(s, ids[0])
    win(db, first.matches[1].id)
    final = pair(db)
    assert [(m.bracket, m.bracket_round, m.team_a.id, m.is_bye) for m in final.matches] == [
        ("main", 2, ids[1], True)
    ]
    with db.Session() as s:
        state = draw_state(s)
        assert state.progress.places("main").winner == ids[1]
        assert state.progress.complete


def test_a_paired_match_whose_player_withdraws_becomes_a_bye(db: EventDatabase) -> None:
    """A match paired but not started whose player withdraws becomes a bye when the next
    matches are paired, and that is audited."""
    ids = knockout(db, 8, ready_made("single"))
    first = pair(db)
    win(db, first.matches[0].id)
    win(db, first.matches[1].id)
    semi = pair(db).matches[0]
    assert (semi.team_a.id, semi.team_b and semi.team_b.id) == (ids[0], ids[3])
    with db.Session() as s, s.begin():
        withdraw_team(s, ids[3])
    win(db, first.matches[2].id)
    win(db, first.matches[3].id)
    pair(db)
    with db.Session() as s:
        row = s.get(models.Match, semi.id)
        assert row is not None and (row.team_a_id, row.team_b_id, row.result) == (
            ids[0], None, "bye",
        )  # fmt: skip
        assert any(e.action == "withdrawn: bye" for e in entries(s))
        final = draw_state(s).progress.of(draw_state(s).draw.nodes[-1].key)
    assert final[1][0] == ids[0]  # the semi-final's bye took them to the final


def test_the_last_chance_and_the_progressive_plans_are_paired(db: EventDatabase) -> None:
    """No plan is refused any more: a whole progressive night is paired and played, and the
    independent checker agrees with what was stored."""
    plan = BracketPlan("both", (
        *ready_made("progressive-consolation").brackets,
        Bracket("last-chance", (5,), ready_made("consolation-last-chance").brackets[2].feeds),
    ))  # fmt: skip
    knockout(db, 13, plan)
    rng = random.Random(4)
    while True:
        try:
            info = pair(db)
        except UserError as over:
            assert "every bracket" in str(over)
            break
        for m in info.matches:
            if m.team_b is not None:
                win(db, m.id, rng.choice([Side.A, Side.B]))
    with db.Session() as s:
        state = draw_state(s)
        assert state.progress.complete
        stored = s.scalars(select(models.Match).where(models.Match.team_b_id.is_not(None))).all()
        drawn = [
            DrawnMatch(str(m.bracket), int(m.bracket_round or 0), int(m.slot or 0), m.team_a_id,
                       int(m.team_b_id or 0), m.match_length,
                       m.team_a_id if m.result == "A" else m.team_b_id)
            for m in stored
        ]  # fmt: skip
        assert check_draw(plan, state.draw.field, drawn) == []
        brackets = {m.bracket for m in stored}
        entrants = {t.id for t in list_teams(s)}
    assert brackets == {"main", "consolation", "last-chance"}
    assert {p for m in drawn for p in (m.player_a, m.player_b)} == entrants


def test_a_bracket_is_not_paired_by_hand(db: EventDatabase) -> None:
    ids = knockout(db, 4, ready_made("single"))
    pair(db)
    with db.Session() as s, pytest.raises(UserError, match="paired by its plan"):
        rounds.set_round_pairings(
            s, 1, (Pairing(1, ids[0], ids[1]), Pairing(2, ids[2], ids[3])), "friends"
        )


def test_a_knockout_without_a_stored_plan_keeps_one_from_its_first_pairing(
    db: EventDatabase,
) -> None:
    """A new knockout with no plan chosen is paired as its options read (single, or single +
    consolation) and keeps that plan from then on."""
    knockout(db, 4)
    pair(db)
    with db.Session() as s:
        event = s.scalars(select(models.Event)).one()
        assert event.bracket_plan and '"single"' in event.bracket_plan


def test_the_last_chance_plan_is_accepted(db: EventDatabase) -> None:
    knockout(db, 8, ready_made("consolation-last-chance"))
    first = pair(db)
    for m in first.matches:
        win(db, m.id)
    second = pair(db)
    assert {(m.bracket, m.bracket_round) for m in second.matches} == {
        ("main", 2),
        ("consolation", 1),
    }
    for m in second.matches:
        win(db, m.id)
    third = pair(db)
    assert {(m.bracket, m.bracket_round) for m in third.matches} == {
        ("main", 3),
        ("consolation", 2),
        ("last-chance", 1),
    }


def test_games_decide_a_knockout_match_too(db: EventDatabase) -> None:
    """A match won over the board (not a forfeit) feeds its winner and its loser on."""
    ids = knockout(db, 4, ready_made("consolation"))
    first = pair(db)
    for m in first.matches:
        with db.Session() as s, s.begin():
            board = 1
            while games_left(s, m.id):
                game = Game(0, board, Side.B, End.BEAR_OFF, level=Level.BACKGAMMON)
                games.record_game(s, m.id, game)
                board = 3 - board
    second = pair(db)
    assert [(m.bracket, m.team_a.id, m.team_b and m.team_b.id) for m in second.matches] == [
        ("main", ids[3], ids[2]), ("consolation", ids[0], ids[1]),
    ]  # fmt: skip


def play_out(db: EventDatabase, seed: int = 4) -> None:
    rng = random.Random(seed)
    while True:
        try:
            info = pair(db)
        except UserError:
            return
        for m in info.matches:
            if m.team_b is not None:
                win(db, m.id, rng.choice([Side.A, Side.B]))


def test_check_pairings_runs_the_independent_bracket_checker(db: EventDatabase) -> None:
    """A played-out main + consolation + last chance night checks clean; a match moved by
    hand to another slot or played to another length is named, with its event round."""
    knockout(db, 11, ready_made("consolation-last-chance"))
    play_out(db)
    with db.Session() as s:
        assert rounds.check_pairings(s) == []
    moved = match_at(db, "consolation", 1, 1)
    longer = match_at(db, "main", 2, 1)
    with db.Session() as s, s.begin():
        row = s.get(models.Match, moved)
        assert row is not None
        row.slot = 9
        other = s.get(models.Match, longer)
        assert other is not None
        other.match_length = 9
        numbers = {m: s.scalar(select(models.Round.number).join(models.Match)
                               .where(models.Match.id == m)) for m in (moved, longer)}  # fmt: skip
    with db.Session() as s:
        found = rounds.check_pairings(s)
    texts = [(v.round, v.rule, v.text) for v in found]
    assert (
        numbers[longer],
        "bracket",
        "main round 2 match 1: played to 9, the plan says 7",
    ) in texts
    assert any(r == numbers[moved] and "consolation round 1 match 9" in t for r, _, t in texts)
