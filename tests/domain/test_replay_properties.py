"""Hypothesis: replay invariants over random valid match records (FORMATS, RULES §3)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from director.domain.match import Result, score_match
from director.domain.records import MatchRecord, RecordTeam, parse_record, record_json, replay_data
from director.domain.rules import MatchRules, Scoring, Side
from director.domain.simulation import simulate_game, simulate_match

rules_strategy = st.builds(
    MatchRules,
    match_length=st.integers(1, 15),
    scoring=st.sampled_from(list(Scoring)),
    winner_required=st.booleans(),
    one_cube_threshold=st.sampled_from([1, 2]),
    no_cube_at_one_away=st.booleans(),
)


@st.composite
def records(draw: st.DrawFn) -> MatchRecord:
    rules = draw(rules_strategy)
    rng = random.Random(draw(st.integers(0, 2**32)))
    games = simulate_match(rules, rng, draw(st.floats(0.2, 0.8)))
    outcome = score_match(rules, games)
    if rules.winner_required and len(outcome.boards_done) == 1 and draw(st.booleans()):
        # rule 4′: the other game of the deciding pair may still be written down, uncounted
        # and it obeys RULES §4 like any game: drawn with the cube dead
        last = games[-1]
        games.append(simulate_game(rules, rng, last.pair, 3 - last.board, False, 0.5))
    cut = draw(st.integers(0, len(games)))  # an unfinished match is a prefix of a finished one
    teams = {Side.A: RecordTeam("Blue", ("Ana", "Ben")), Side.B: RecordTeam("Red", ("Cleo", "Dev"))}
    return MatchRecord(rules, teams, tuple(games[:cut]))


@settings(max_examples=300, deadline=None)
@given(records())
def test_replay_invariants(record: MatchRecord) -> None:
    outcome = record.outcome()
    abandoned = [line for line in outcome.lines if not line.counted]
    assert len(abandoned) <= 1 and (not abandoned or record.rules.winner_required)
    assert outcome.problems == ()
    previous = {"A": 0, "B": 0}
    for line in outcome.lines:
        score = line.score.as_dict()
        assert score["A"] >= previous["A"] and score["B"] >= previous["B"]  # never decreases
        if line.counted and record.rules.scoring is not Scoring.PIN_GAME:
            assert line.points > 0  # pin game can score 0 when the loser had 0 pips left
        if not line.counted:
            assert line.points == 0 and score == previous
        previous = score
    n = record.rules.match_length
    a, b = outcome.score.a, outcome.score.b
    if outcome.decided_by is Result.UNFINISHED:
        assert not (record.rules.winner_required and max(a, b) >= n)
    elif outcome.decided_by is Result.DRAW:
        assert not record.rules.winner_required
        assert a >= n and b >= n
    else:
        winner, loser = (a, b) if outcome.decided_by is Result.A else (b, a)
        assert winner >= n
        if not record.rules.winner_required:
            assert loser < n
    if record.rules.scoring.variant.squeeze is None:
        assert outcome.result is outcome.decided_by
        assert outcome.final == outcome.score


@settings(max_examples=150, deadline=None)
@given(records())
def test_record_json_round_trip_replays_identically(record: MatchRecord) -> None:
    again = parse_record(record_json(record))
    assert again == record
    assert replay_data(again.outcome()) == replay_data(record.outcome())


@settings(max_examples=150, deadline=None)
@given(records(), st.data())
def test_a_prefix_of_a_valid_record_is_valid(record: MatchRecord, data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(record.games)))
    assert score_match(record.rules, record.games[:cut]).problems == ()
