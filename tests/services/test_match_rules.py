"""Each match keeps the rules it was paired with (#28): its length, scoring, format, cube
options and clock, stored with the match, not re-read from the event's current options."""

from __future__ import annotations

import json
from dataclasses import replace

from sqlalchemy import update

from director.domain.records import parse_record
from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Format,
    Level,
    MatchRules,
    Side,
    TimeControl,
)
from director.domain.score import Score
from director.domain.scoring import Game
from director.services.events import get_event, update_event
from director.services.games import correct_game, record_game, undo_last_game
from director.services.matches import create_match, get_match, list_matches
from director.services.records import export_match
from director.services.teams import add_player
from director.store import convert, models
from director.store.engine import EventDatabase

A, B = Side.A, Side.B


def _time_control(db: EventDatabase, match_id: int) -> TimeControl:
    with db.Session() as s:
        row = s.get(models.Match, match_id)
        assert row is not None
        return convert.match_time_control(row)


def test_a_match_is_scored_by_the_rules_it_was_paired_with(
    db: EventDatabase, match_id: int
) -> None:
    """The event's options change under a paired match (as a later round's length will): the
    match keeps its length 5 and its Tandem format; it read the event's 7 before."""
    with db.Session() as s, s.begin():
        s.execute(update(models.Event).values(match_length=7, format="individual"))
    with db.Session() as s:
        match = get_match(s, match_id)
        (listed,) = list_matches(s)
    assert match.rules == MatchRules() and listed.rules == MatchRules()
    assert match.rules.format is Format.TANDEM


def test_a_match_not_started_takes_the_options_the_director_sets(
    db: EventDatabase, match_id: int
) -> None:
    """Paired, nothing played: changing the options changes the rules it will be played by,
    clock included, as before matches kept their rules."""
    clock = TimeControl(300, 12, ClockMode.DELAY)
    with db.Session() as s, s.begin():
        options = get_event(s).options
        update_event(
            s, options=replace(options, match=MatchRules(match_length=9), time_control=clock)
        )
    with db.Session() as s:
        assert get_match(s, match_id).rules.match_length == 9
    assert _time_control(db, match_id) == clock


def test_a_started_match_keeps_its_clock_when_the_event_changes_it(
    db: EventDatabase, match_id: int
) -> None:
    """A game is recorded (no clock running): the event's time control may change for the
    matches to come; this match's clock log is still replayed with the clock it was played by."""
    with db.Session() as s, s.begin():
        record_game(s, match_id, Game(1, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))
        before = get_event(s).options
        update_event(s, options=replace(before, time_control=TimeControl(300, 12)))
    assert _time_control(db, match_id) == before.time_control


def test_an_individual_match_is_paired_with_its_reserve_and_the_crawford_rule(
    db: EventDatabase,
) -> None:
    """RULES §10: the event's base is per match point; the match keeps the reserve of its
    length (7 points × 2 minutes) and scores game after game on board 1."""
    options = EventOptions(
        match=MatchRules(match_length=7, format=Format.INDIVIDUAL),
        time_control=TimeControl(120, 12, ClockMode.DELAY),
    )
    with db.Session() as s, s.begin():
        update_event(s, options=options)
        a = add_player(s, "Ana").value.id  # an individual event registers players (#28)
        b = add_player(s, "Ben").value.id
        match_id = create_match(s, a, b, table=1).value.id
        for _ in range(6):
            record_game(s, match_id, Game(get_match(s, match_id).outcome.current_pair, 1, Side.A,
                                          End.BEAR_OFF, level=Level.SINGLE))  # fmt: skip
        match = get_match(s, match_id)
    assert _time_control(db, match_id) == TimeControl(14 * 60, 12, ClockMode.DELAY)
    assert match.rules.format is Format.INDIVIDUAL and match.outcome.score == Score(6, 0)
    assert match.pair_state.may_double(1) == (False, "Crawford game: Ana is 1-away")
    with db.Session() as s:
        text = export_match(s, match_id)  # FORMATS: the individual match record
    data = json.loads(text)
    assert data["format"] == "backgammon-match" and data["players"]["A"] == {"name": "Ana"}
    assert len(data["games"]) == 6 and "pair" not in data["games"][0]
    assert parse_record(text).outcome().score == Score(6, 0)


def test_undo_and_correction_at_the_desk_re_derive_the_crawford_game(db: EventDatabase) -> None:
    """RULES §10 through the services: 4–2 makes the Crawford game; undoing the game that
    reached 4 gives it back to 3–2 (no Crawford game), and correcting its winner to the
    trailer makes 3–3."""
    options = EventOptions(match=MatchRules(match_length=5, format=Format.INDIVIDUAL),
                           time_control=TimeControl(120, 12, ClockMode.DELAY))  # fmt: skip
    with db.Session() as s, s.begin():
        update_event(s, options=options)
        a = add_player(s, "Ana").value.id  # an individual event registers players (#28)
        b = add_player(s, "Ben").value.id
        match_id = create_match(s, a, b, table=1).value.id
        for winner in (A, B, A, B, A, A):
            number = get_match(s, match_id).outcome.current_pair
            record_game(s, match_id, Game(number, 1, winner, End.BEAR_OFF, level=Level.SINGLE))
        crawford = get_match(s, match_id)
        undone = undo_last_game(s, match_id).value
        record_game(s, match_id, Game(6, 1, A, End.BEAR_OFF, level=Level.SINGLE))
        last_id = get_match(s, match_id).game_ids[-1]
        corrected = correct_game(s, last_id, Game(6, 1, B, End.BEAR_OFF, level=Level.SINGLE),
                                 "wrong winner").value  # fmt: skip
    assert crawford.outcome.score == Score(4, 2) and crawford.outcome.cube_rule.crawford
    assert undone.outcome.score == Score(3, 2) and not undone.outcome.cube_rule.crawford
    assert undone.pair_state.may_double(1).allowed
    assert corrected.outcome.score == Score(3, 3) and not corrected.outcome.cube_rule.crawford
