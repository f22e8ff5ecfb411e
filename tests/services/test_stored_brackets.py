"""Stored brackets (#29, RULES §11): each match knows its bracket, its round there and its
slot apart from its table; the event keeps its plan; a match is played to its bracket round's
length; changing the plan changes only matches not yet started, warned and audited."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from sqlalchemy import select

from director.domain.brackets.plan import Bracket, BracketPlan, plan_to_json, ready_made
from director.domain.errors import UserError
from director.domain.rules import End, Level, PairingSystem, Side
from director.domain.scoring import Game
from director.services import games, rounds
from director.services.audit import entries
from director.services.brackets import event_plan, set_plan
from director.services.events import get_event, update_event
from director.store import models
from director.store.engine import EventDatabase
from tests.services.test_rounds import add_teams


def _knockout(db: EventDatabase, teams: int) -> list[int]:
    with db.Session() as s, s.begin():
        options = get_event(s).options
        update_event(s, options=replace(options, pairing_system=PairingSystem.KNOCKOUT))
    return add_teams(db, teams)


def _placed(db: EventDatabase) -> list[tuple[int, int, str | None, int | None, int | None, int]]:
    with db.Session() as s:
        rows = s.execute(
            select(
                models.Round.number, models.Match.table_no, models.Match.bracket,
                models.Match.bracket_round, models.Match.slot, models.Match.match_length,
            ).join(models.Round).order_by(models.Round.number, models.Match.table_no)
        )  # fmt: skip
        return [tuple(r) for r in rows]  # type: ignore[misc]


def test_each_knockout_match_keeps_its_bracket_round_slot_and_planned_length(
    db: EventDatabase,
) -> None:
    """8 teams, main 7/9/11 and consolation 5/7: round 2 holds main round 2 at tables 1-2 and
    the consolation's round 1 at tables 3-4, each to its own bracket round's length."""
    _knockout(db, 8)
    plan = BracketPlan(
        "club night",
        (
            Bracket("main", (7, 9, 11)),
            replace(ready_made("consolation").brackets[1], lengths=(5, 7)),
        ),
    )
    with db.Session() as s, s.begin():
        set_plan(s, plan)
        rounds.pair_next_round(s)
    with db.Session() as s, s.begin():  # every team B does not show
        for m in rounds.get_round(s, 1).matches:
            games.set_forfeit(s, m.id, Side.B, "did not show")
        rounds.pair_next_round(s)
    assert _placed(db) == [
        *((1, t, "main", 1, t, 7) for t in (1, 2, 3, 4)),
        (2, 1, "main", 2, 1, 9),
        (2, 2, "main", 2, 2, 9),
        (2, 3, "consolation", 1, 1, 5),
        (2, 4, "consolation", 1, 2, 5),
    ]
    with db.Session() as s:
        assert event_plan(s) == plan


def test_a_match_to_one_point_is_said_in_the_singular(db: EventDatabase) -> None:
    _knockout(db, 4)
    with db.Session() as s, s.begin():
        set_plan(s, ready_made("single"))
        first = rounds.pair_next_round(s).value
        games.record_game(
            s, first.matches[0].id, Game(0, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE)
        )
    with db.Session() as s, s.begin():
        sprint = set_plan(s, BracketPlan("sprint", (Bracket("main", (1, 3)),))).value
    assert sprint.warnings == (
        "main round 1 match 2 (table 2) is now to 1 point",  # was "to 1 points"
        "main round 1 match 1 (table 1) has started: it stays at 7 points",
    )
    with db.Session() as s, s.begin():  # match 2, now to 1 point, starts: it stays at 1
        games.record_game(
            s, first.matches[1].id, Game(0, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE)
        )
    with db.Session() as s, s.begin():
        back = set_plan(s, ready_made("single")).value
    assert "main round 1 match 2 (table 2) has started: it stays at 1 point" in back.warnings


def test_changing_the_plan_changes_only_matches_not_started_warned_and_audited(
    db: EventDatabase,
) -> None:
    _knockout(db, 4)
    with db.Session() as s, s.begin():
        set_plan(s, ready_made("single"))
        first = rounds.pair_next_round(s).value
        started = first.matches[0].id
        games.record_game(s, started, Game(0, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))
    longer = BracketPlan("longer", (Bracket("main", (9, 13)),))
    with db.Session() as s, s.begin():
        change = set_plan(s, longer, "the club asked for longer matches").value
        log = entries(s)
    assert change.warnings == (
        "main round 1 match 2 (table 2) is now to 9 points",
        "main round 1 match 1 (table 1) has started: it stays at 7 points",
    )
    assert [row[5] for row in _placed(db)] == [7, 9]
    last = log[-1] if log[-1].action == "bracket plan" else log[0]
    assert last.action == "bracket plan"
    assert json.loads(str(last.after)) == plan_to_json(longer)
    assert "has started" in last.reason and "the club asked" in last.reason


def test_the_brackets_cannot_change_once_a_round_is_paired(db: EventDatabase) -> None:
    _knockout(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    with db.Session() as s, pytest.raises(UserError, match="only their match lengths"):
        set_plan(s, ready_made("consolation"))


def test_an_event_without_a_plan_reads_as_the_old_knockout(db: EventDatabase) -> None:
    """Every knockout before revision 0010: one bracket (+ consolation) at the event's length."""
    _knockout(db, 4)
    with db.Session() as s:
        plan = event_plan(s)
        length = get_event(s).options.match.match_length
    assert plan.name == "single"
    assert [(b.name, b.lengths) for b in plan.brackets] == [("main", (length,))]


def test_a_plan_for_another_pairing_system_is_refused(db: EventDatabase) -> None:
    with db.Session() as s, pytest.raises(UserError, match="only a knockout"):
        set_plan(s, ready_made("single"))


def test_the_consolation_option_follows_a_stored_plan(db: EventDatabase) -> None:
    """The plan decides the brackets: the old consolation switch cannot contradict it."""
    _knockout(db, 4)
    with db.Session() as s, s.begin():
        set_plan(s, ready_made("consolation"))
        assert get_event(s).options.consolation
    with db.Session() as s, pytest.raises(UserError, match="plan says whether"):
        options = get_event(s).options
        update_event(s, options=replace(options, consolation=False))
