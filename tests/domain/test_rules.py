"""The event's options (`domain/rules.py`): what each allows, and rule 4′ in a knockout."""

from __future__ import annotations

from dataclasses import replace

import pytest

from director.domain.rules import (
    TIME_CONTROL_PRESETS,
    ClockMode,
    EventOptions,
    MatchRules,
    Scoring,
    TieBreak,
    TimeControl,
    rules_for_match,
)


def test_the_defaults_and_every_preset_are_valid() -> None:
    assert EventOptions().problems() == []
    for name, clock in TIME_CONTROL_PRESETS.items():
        assert EventOptions(time_control=clock).problems() == [], name


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (EventOptions(match=MatchRules(match_length=0)), "match length must be at least 1"),
        (EventOptions(match=MatchRules(one_cube_threshold=3)), "threshold must be 1 or 2"),
        (EventOptions(time_control=TimeControl(-1, 12)), "base time cannot be negative"),
        (EventOptions(time_control=TimeControl(120, -1)), "increment or delay cannot be negative"),
        (EventOptions(time_control=TimeControl(0, 0)), "base and increment are both 0"),
        (EventOptions(time_control=TimeControl(0, 15)), "needs a base time"),
        (EventOptions(rounds=-1), "rounds cannot be negative"),
        (EventOptions(tie_breaks=(TieBreak.SEED, TieBreak.SEED)), "a tie-break is listed twice"),
    ],
)
def test_each_impossible_option_is_named(options: EventOptions, words: str) -> None:
    (problem,) = options.problems()
    assert words in problem


def test_a_per_move_clock_is_a_simple_delay() -> None:
    assert EventOptions(time_control=TimeControl(0, 15, ClockMode.DELAY)).problems() == []


def test_a_knockout_round_always_requires_a_winner() -> None:
    """RULES §3 and §8: rule 4′ in a knockout round, the event's own rule elsewhere."""
    options = EventOptions(match=MatchRules(scoring=Scoring.PIN_GAME, match_length=150))
    assert rules_for_match(options, knockout=False) == options.match
    knockout = rules_for_match(options, knockout=True)
    assert knockout == replace(options.match, winner_required=True)
    already = replace(options, match=knockout)
    assert rules_for_match(already, knockout=True) is already.match


def test_only_the_cubeless_variants_have_no_cube() -> None:
    cubeless = {s for s in Scoring if not s.has_cube}
    assert cubeless == {Scoring.PIN_GAME, Scoring.CHASING_THE_GIRLS}
    squeezes = {s for s in Scoring if s.is_pip_squeeze}
    assert squeezes == {Scoring.SIMPLE_PIP_SQUEEZE, Scoring.KILLER_PIP_SQUEEZE}
    assert all(s.label for s in Scoring)
