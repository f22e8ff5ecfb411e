"""The simulated matches (`simulate`, the demo event, the benchmarks) obey the rule book.

Every simulated match, under every combination of match rules, must be one the domain
accepts without a problem and must end exactly at its last game: nothing is played after
the match is decided, and nothing is missing before it is.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from director.domain.match import Result, score_match
from director.domain.rules import MatchRules, Scoring
from director.domain.simulation import player_name, simulate_match, team_name

RULES = st.builds(
    MatchRules,
    match_length=st.integers(1, 11),
    scoring=st.sampled_from(list(Scoring)),
    winner_required=st.booleans(),
    one_cube_threshold=st.sampled_from((1, 2)),
    no_cube_at_one_away=st.booleans(),
    agreed_lower_forfeit=st.booleans(),
)


@settings(max_examples=150, deadline=None)
@given(rules=RULES, seed=st.integers(0, 2**32), strength=st.floats(0.05, 0.95))
def test_a_simulated_match_is_valid_and_ends_at_its_last_game(
    rules: MatchRules, seed: int, strength: float
) -> None:
    games = simulate_match(rules, random.Random(seed), strength)
    outcome = score_match(rules, games)
    assert outcome.problems == ()
    assert outcome.result is not Result.UNFINISHED
    assert not score_match(rules, games[:-1]).finished  # decided by its very last game
    if rules.winner_required:
        assert outcome.result is not Result.DRAW
    if not rules.scoring.variant.has_cube:
        assert all(game.cube == 1 for game in games)


def test_the_same_seed_gives_the_same_match_and_names() -> None:
    rules = MatchRules(match_length=7, scoring=Scoring.KILLER_PIP_SQUEEZE)
    first = simulate_match(rules, random.Random(42))
    assert simulate_match(rules, random.Random(42)) == first
    assert simulate_match(rules, random.Random(43)) != first
    one, two = random.Random(9), random.Random(9)
    assert [team_name(one, i) for i in range(20)] == [team_name(two, i) for i in range(20)]
    assert player_name(random.Random(3)) == player_name(random.Random(3))
