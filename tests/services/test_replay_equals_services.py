"""Property: a random valid record scored by `replay` equals the same games entered one by one
through the services and read back from the event's standings (RULES §2–§6, §8; FORMATS).

The records come from the simulator under every scoring, rule 4 and 4′, both thresholds, the
no-cube-at-1-away option, rule 5′ on and off; `replay` is the CLI's JSON (a real subprocess
would cost a second per example, so the same `replay_data` function is called in-process).
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from director.domain.match import Result
from director.domain.records import MatchRecord, RecordTeam, parse_record, record_json, replay_data
from director.domain.rules import EventOptions, MatchRules, Scoring, Side
from director.domain.simulation import simulate_match
from director.services import matches
from director.services.events import create_event
from director.services.games import record_game
from director.services.rounds import pair_next_round
from director.services.standings import standings
from director.services.teams import add_team
from director.store.engine import create_database, open_database

RULES = st.builds(
    MatchRules,
    match_length=st.integers(1, 9),
    scoring=st.sampled_from(list(Scoring)),
    winner_required=st.booleans(),
    one_cube_threshold=st.sampled_from((1, 2)),
    no_cube_at_one_away=st.booleans(),
    agreed_lower_forfeit=st.booleans(),
)
TEAMS = {Side.A: RecordTeam("Blue", ("Ana", "Ben")), Side.B: RecordTeam("Red", ("Cleo", "Dev"))}


@pytest.fixture(scope="module")
def no_event_yet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An event file at the current schema and with no event in it, migrated once: each
    example copies it and creates its own event under its own rules."""
    path = tmp_path_factory.mktemp("schema") / "empty.tandem"
    create_database(str(path)).close()
    return path


@settings(
    max_examples=20,  # each example fills an event file: about 2 s apiece
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(rules=RULES, seed=st.integers(0, 2**32), strength=st.floats(0.2, 0.8))
def test_replay_equals_the_games_entered_through_the_services(
    tmp_path: Path, no_event_yet: Path, rules: MatchRules, seed: int, strength: float
) -> None:
    games = simulate_match(rules, random.Random(seed), strength)
    # the record format has no rule 5′ field: replay applies it wherever a record gives it
    record = parse_record(record_json(MatchRecord(rules, TEAMS, tuple(games))))
    replayed = replay_data(record.outcome())

    folder = tmp_path / f"e{seed}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    # a schema without its event row is this test's template, never a file the app writes, so
    # the opening check that an event file holds exactly one event (store/values.py) is off
    copied = shutil.copy(no_event_yet, folder / "event.tandem")
    db = open_database(str(copied), check_values=False)
    with db.Session() as s, s.begin():
        create_event(s, "Property", EventOptions(match=rules))
        blue = add_team(s, "Blue", ("Ana", "Ben")).value.id
        red = add_team(s, "Red", ("Cleo", "Dev")).value.id
        [match] = matches.list_matches(s, pair_next_round(s).value.number)
    side = {Side.A: blue, Side.B: red}
    flip = match.team_a.id != blue  # the pairing may seat Red as side A
    for game in record.games:
        winner = game.winner.other if flip else game.winner
        with db.Session() as s, s.begin():
            record_game(s, match.id, game.__class__(**{**vars(game), "winner": winner}))
    db.close()

    db = open_database(str(folder / "event.tandem"))  # read back from the file
    with db.Session() as s:
        rows = {line.row.team_id: line.row for line in standings(s).lines}
        stored = matches.get_match(s, match.id)
    db.close()
    final = replayed["final"]
    assert isinstance(final, dict)
    assert rows[side[Side.A]].points_for == final["A"]
    assert rows[side[Side.A]].points_against == final["B"]
    assert rows[side[Side.B]].points_for == final["B"]
    result = Result(replayed["result"])
    won = {Result.A: side[Side.A], Result.B: side[Side.B]}.get(result)
    for team_id, row in rows.items():
        assert (row.wins, row.draws, row.losses) == (
            (1, 0, 0) if team_id == won else (0, 1, 0) if result is Result.DRAW else (0, 0, 1)
        )
    counted = [g for g in replayed["games"] if g["counted"]]  # type: ignore[union-attr]
    assert [line.points for line in stored.outcome.lines] == [g["points"] for g in counted]
    assert [line.pip_points for line in stored.outcome.lines] == [g["pip_points"] for g in counted]
