"""The event's options (`domain/rules.py`): what each allows, and rule 4′ in a knockout."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

import director
from director.domain.rules import (
    ALL_BOARDS,
    FORMATS,
    TIME_CONTROL_PRESETS,
    VARIANTS,
    ClockMode,
    CubeRule,
    EventOptions,
    Format,
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


def test_every_format_has_exactly_one_record() -> None:
    assert [f.format for f in FORMATS] == list(Format)
    assert all(f.record.format is f for f in Format)
    assert ALL_BOARDS == (1, 2)


def test_the_formats_say_what_rules_they_play() -> None:
    """#28, RULES §1–§5 and §10: what a format is lies in its record, read by everything."""
    tandem, individual = Format.TANDEM.record, Format.INDIVIDUAL.record
    assert (tandem.boards, tandem.entrant, tandem.unit) == ((1, 2), "team", "pair")
    assert tandem.cube_rule is CubeRule.ONE_CUBE
    assert tandem.pair_end_rules and tandem.game_forfeit and not tandem.match_clock
    assert (individual.boards, individual.entrant, individual.unit) == ((1,), "player", "game")
    assert individual.cube_rule is CubeRule.CRAWFORD
    assert not individual.pair_end_rules and not individual.game_forfeit
    assert individual.match_clock
    assert tandem.where(3, 2) == "pair 3, board 2" and individual.where(3, 1) == "game 3"
    assert MatchRules().format is Format.TANDEM  # every match without one is Tandem


# a comparison with a member of Format, a dict keyed by one, or a `case` on one (reading
# a member's record, `Format.TANDEM.record`, is not asking)
_ASKS_WHICH_FORMAT = re.compile(
    r"(\bis|==|!=|\bin)\s+\(?\s*Format\.[A-Z_]+\b(?!\.)|Format\.[A-Z_]+\s*:"
    r"|[=!]=\s*\"(tandem|individual)\"|\"(tandem|individual)\"\s*[=!]="  # a stored value
)
# a literal pair of boards: the boards of a match are its format's (`EventFormat.boards`)
_BOARDS_LITERAL = re.compile(r"[(\[]\s*1\s*,\s*2\s*[)\]]|\{1, 2\}|range\(\s*1\s*,\s*3\s*\)")


def _lines_outside_the_records(pattern: re.Pattern[str]) -> list[str]:
    root = Path(director.__file__).parent
    migrations = root / "store" / "migrations" / "versions"  # history, written once
    return [
        f"{path.relative_to(root)}:{number}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        if path != root / "domain" / "rules.py" and migrations not in path.parents
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if pattern.search(line)
    ]


def test_no_code_but_the_records_asks_which_format_it_is() -> None:
    """#28: the scorer, the cube, the store and the pages read what a format does from its
    `EventFormat` record, as they do for scoring variants."""
    assert _lines_outside_the_records(_ASKS_WHICH_FORMAT) == []


def test_no_code_but_the_records_writes_the_boards_of_a_match() -> None:
    """#28: a match's boards are its format's; a `(1, 2)` written elsewhere is a Tandem
    assumption an individual match would break."""
    assert _lines_outside_the_records(_BOARDS_LITERAL) == []


# a shape that fixes a match at two boards: fields or columns named for board 1 and board 2,
# or a team's players read by position
_BOARD_PAIR_SHAPES = re.compile(
    r"\.board[12]\b|\bboard[12]\s*[:=]|\bcube[12]_|\.players\[\s*([01]|\w+ - 1)\s*\]"
)


def test_what_a_match_keeps_per_board_is_keyed_by_its_boards() -> None:
    """#28: live cubes, clocks, players and a sheet's names are keyed by the match's boards
    (`ByBoard`, `TeamInfo.player(board)`), never fields `board1`/`board2`, `cube1_*`/`cube2_*`
    or `players[0]`/`[1]` an individual match would read wrongly. The store's columns
    `cube1_*`/`cube2_*` are named in its models and read by board number (`convert`)."""
    models = Path(director.__file__).parent / "store" / "models.py"
    found = [
        line
        for line in _lines_outside_the_records(_BOARD_PAIR_SHAPES)
        if not line.startswith(str(models.relative_to(models.parents[1])))
    ]
    assert found == []
