"""RULES §10: the individual match clock's reserve, M per match point, reduced mid-match."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from director.domain.clock import NS_PER_SECOND
from director.domain.errors import UserError
from director.domain.match_reserve import (
    match_clock,
    match_time_control,
    reserve_ns,
    started_clock,
)
from director.domain.rules import ClockMode, EventOptions, Format, MatchRules, TimeControl
from director.domain.score import Score

MINUTE = 60 * NS_PER_SECOND


def test_rules_10_a_7_point_match_gives_each_player_14_minutes() -> None:
    assert reserve_ns(120, 7) == 14 * MINUTE
    assert match_time_control(match_length=7) == TimeControl(14 * 60, 12, ClockMode.DELAY)


def test_rules_10_a_clock_started_mid_match_loses_m_over_2_per_point_scored() -> None:
    """At 3–2 in a 7-point match: 14 minutes less 1 minute for each of the 5 points."""
    assert reserve_ns(120, 7, Score(3, 2)) == 9 * MINUTE
    assert reserve_ns(120, 7, Score(6, 6)) == 2 * MINUTE  # the least it can be: M


def test_an_odd_reserve_per_point_is_halved_exactly() -> None:
    assert reserve_ns(1, 5, Score(1, 0)) == 4 * NS_PER_SECOND + NS_PER_SECOND // 2
    assert match_time_control(1, 12, 5, Score(1, 0)).base_seconds == 4


def test_fischer_or_bronstein_on_request() -> None:
    tc = match_time_control(120, 12, 5, mode=ClockMode.FISCHER)
    assert tc == TimeControl(600, 12, ClockMode.FISCHER)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        ((0, 7, None), "at least 1 second"),
        ((120, 0, None), "at least 1 point"),
        ((120, 7, Score(7, 2)), "not under way"),
    ],
)
def test_an_impossible_reserve_is_refused(args: tuple[int, int, Score | None], words: str) -> None:
    with pytest.raises(UserError, match=words):
        reserve_ns(*args)


def test_a_negative_delay_is_refused() -> None:
    with pytest.raises(UserError, match="delay cannot be negative"):
        match_time_control(delay_s=-1)


def test_a_tandem_match_keeps_the_events_clock_per_game() -> None:
    clock = TimeControl(120, 12)
    assert match_clock(MatchRules(match_length=7), clock) is clock


def test_an_individual_match_reads_the_events_base_per_match_point() -> None:
    rules = MatchRules(match_length=7, format=Format.INDIVIDUAL)
    assert match_clock(rules, TimeControl(120, 12, ClockMode.DELAY)) == TimeControl(
        14 * 60, 12, ClockMode.DELAY
    )


def test_an_individual_event_needs_a_reserve_per_point() -> None:
    options = EventOptions(
        match=MatchRules(format=Format.INDIVIDUAL),
        time_control=TimeControl(0, 15, ClockMode.DELAY),
    )
    assert options.problems() == [
        "an individual match's reserve needs a base time per match point (RULES §10)"
    ]
    assert replace(options, match=MatchRules()).problems() == []


def test_rules_10_a_clock_started_at_3_2_in_a_7_point_match_replays_with_9_minutes() -> None:
    """The match's clock takes its time control from the match's stored rules and the score
    its clock started at: 14 − 1 × (3 + 2) = 9 minutes each, the delay kept."""
    rules = MatchRules(match_length=7, format=Format.INDIVIDUAL)
    paired = match_clock(rules, TimeControl(120, 12, ClockMode.DELAY))
    assert started_clock(rules, paired, Score()) == paired  # 0–0: the full 14 minutes
    assert started_clock(rules, paired, Score(3, 2)) == TimeControl(9 * 60, 12, ClockMode.DELAY)
    assert started_clock(rules, paired, Score(6, 6)).base_seconds == 2 * 60  # M: never below


def test_a_tandem_clock_is_never_reduced() -> None:
    clock = TimeControl(600, 12)
    assert started_clock(MatchRules(match_length=7), clock, Score(3, 2)) is clock


def test_a_match_over_before_its_clock_ran_has_no_clock_to_reduce() -> None:
    rules = MatchRules(match_length=7, format=Format.INDIVIDUAL)
    paired = match_clock(rules, TimeControl(120, 12, ClockMode.DELAY))
    assert started_clock(rules, paired, Score(7, 2)) == paired


def test_rules_10_the_help_says_a_clock_started_under_way_gets_the_reduced_reserve() -> None:
    """Help → Rules §10 promises what `started_clock` does, with the worked example."""
    help_page = Path(__file__).parents[2] / "resources" / "help" / "rules.md"
    section = help_page.read_text(encoding="utf-8").split("## 10.")[1].split("\n## ")[0]
    words = " ".join(section.split())
    assert "less M/2 per point already scored by either player" in words
    assert "started at 3–2 gives 14 − 1 × (3 + 2) = 9 minutes each" in words
