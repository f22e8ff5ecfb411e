"""The event's options (`domain/rules.py`): what each allows, and rule 4′ in a knockout."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import director
from director.domain.rules import (
    TIME_CONTROL_PRESETS,
    VARIANTS,
    ClockMode,
    EventOptions,
    MatchRules,
    Scoring,
    TieBreak,
    TimeControl,
    Variant,
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
    cubeless = {s for s in Scoring if not s.variant.has_cube}
    assert cubeless == {Scoring.PIN_GAME, Scoring.CHASING_THE_GIRLS}
    squeezes = {s for s in Scoring if s.variant.squeeze is not None}
    assert squeezes == {Scoring.SIMPLE_PIP_SQUEEZE, Scoring.KILLER_PIP_SQUEEZE}
    assert all(s.variant.label for s in Scoring)


def test_every_scoring_has_exactly_one_variant_record() -> None:
    assert [v.scoring for v in VARIANTS] == list(Scoring)
    assert all(s.variant.scoring is s for s in Scoring)


@pytest.mark.parametrize("variant", VARIANTS, ids=lambda v: v.scoring.value)
def test_every_variant_has_the_words_its_rules_call_for(variant: Variant) -> None:
    """The sheet, the phones and the reports print these where the cube's words do not fit."""
    assert variant.label and variant.section.startswith("§")
    if not variant.has_cube:
        assert variant.summary  # the phones' rules page says it in place of the cube's rules
    if not variant.has_levels:
        assert variant.forfeit  # with levels rule 5's sentence reads the stake: 3 × or 1 ×
    if variant.squeeze is not None:
        assert variant.legend and variant.squeeze.conversion  # how pip points count, convert


# a comparison with a member of Scoring, a dict keyed by one, or a `case` on one
_ASKS_WHICH = re.compile(r"(\bis|==|!=|\bin)\s+\(?\s*Scoring\.[A-Z]|Scoring\.[A-Z_]+\s*:")


def test_no_code_but_the_records_asks_which_variant_it_is() -> None:
    """#17: scoring, reports, forms and phones read what a variant does from its `Variant`
    record; code that tests which variant it has is an if-chain growing back."""
    root = Path(director.__file__).parent
    found = [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        if path != root / "domain" / "rules.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if _ASKS_WHICH.search(line)
    ]
    assert found == []


def test_a_time_control_in_a_players_words() -> None:
    assert TimeControl(120, 12).words() == "2 min + 12 s Fischer increment"
    assert TimeControl(45, 2).words() == "45 s + 2 s Fischer increment"
    assert TimeControl(2700, 30).words() == "45 min + 30 s Fischer increment"
    assert TimeControl(90, 5).words() == "1 min 30 s + 5 s Fischer increment"
