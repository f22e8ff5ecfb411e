"""Standings, tie-breaks, crosstable and board statistics (RULES §8)."""

from __future__ import annotations

import random

import pytest

from director.domain.pairing.model import MatchResult, Outcome, TeamEntry
from director.domain.rules import DEFAULT_TIE_BREAKS, LateEntry, MatchPointScheme, TieBreak
from director.domain.standings import (
    TIE_BREAK_DEFINITIONS,
    BoardGame,
    CrossCell,
    StandingRow,
    board_totals,
    compute_standings,
    crosstable,
    match_points_definition,
)

A, B, D = Outcome.A, Outcome.B, Outcome.DRAW


def teams(n: int) -> list[TeamEntry]:
    return [TeamEntry(i, f"T{i}", seed=i) for i in range(1, n + 1)]


def match(
    rnd: int, a: int, b: int | None, sa: int = 0, sb: int = 0, outcome: Outcome = A
) -> MatchResult:
    if b is None:
        return MatchResult(rnd, 9, a, None, 0, 0, Outcome.BYE)
    return MatchResult(rnd, 1, a, b, sa, sb, outcome)


def by_team(rows: list[StandingRow]) -> dict[int, StandingRow]:
    return {r.team_id: r for r in rows}


def test_match_points_two_one_zero_and_one_half_zero() -> None:
    results = [match(1, 1, 2, 5, 3, A), match(1, 3, 4, 5, 5, D), match(2, 1, 3, 2, 5, B)]
    rows = by_team(compute_standings(teams(4), results))
    assert [rows[t].match_points for t in (1, 2, 3, 4)] == [2, 0, 3, 1]
    rows = by_team(compute_standings(teams(4), results, scheme=MatchPointScheme.ONE_HALF_ZERO))
    assert [rows[t].match_points for t in (1, 2, 3, 4)] == [1, 0, 1.5, 0.5]
    assert (rows[3].wins, rows[3].draws, rows[3].losses, rows[3].played) == (1, 1, 0, 2)


def test_bye_and_forfeit_score_a_win_with_no_game_points() -> None:
    results = [
        match(1, 1, None),
        MatchResult(1, 1, 2, 3, 4, 1, Outcome.FORFEIT_B),  # team 3 wins by forfeit: 0-0
    ]
    rows = by_team(compute_standings(teams(3), results))
    assert rows[1].match_points == 2 and rows[1].byes == 1 and rows[1].played == 0
    assert rows[3].match_points == 2 and rows[3].wins == 1 and rows[3].points_for == 0
    assert rows[2].losses == 1 and rows[2].points_for == 0 and rows[2].points_against == 0


def test_unfinished_match_scores_nothing() -> None:
    results = [MatchResult(1, 1, 1, 2, 3, 2, Outcome.UNFINISHED)]
    rows = by_team(compute_standings(teams(2), results))
    assert rows[1].match_points == 0 and rows[1].played == 0 and rows[1].points_for == 0


def test_buchholz_sums_opponents_and_counts_a_bye_as_own_points() -> None:
    # 1 beats 2, 3 beats 4 in round 1; round 2: 1 beats 3, 2 beats 4... 5 has the byes.
    results = [
        match(1, 1, 2, 5, 0),
        match(1, 3, 4, 5, 0),
        match(1, 5, None),
        match(2, 1, 3, 5, 1),
        match(2, 2, 5, 5, 2),
        match(2, 4, None),
    ]
    rows = by_team(compute_standings(teams(5), results))
    mp = {t: rows[t].match_points for t in rows}
    assert mp == {1: 4, 2: 2, 3: 2, 4: 2, 5: 2}
    assert rows[1].tie_breaks[TieBreak.BUCHHOLZ] == mp[2] + mp[3]
    assert rows[5].tie_breaks[TieBreak.BUCHHOLZ] == mp[2] + mp[5]  # the bye counts as 5 itself
    assert rows[4].tie_breaks[TieBreak.BUCHHOLZ] == mp[3] + mp[4]


def test_order_uses_tie_breaks_in_the_events_order() -> None:
    results = [match(1, 1, 3, 9, 0), match(1, 2, 4, 5, 4), match(2, 4, 5, 5, 0)]
    rows = compute_standings(teams(5), results)
    assert [r.team_id for r in rows] == [4, 2, 1, 5, 3]
    values = by_team(rows)
    assert values[1].tie_breaks[TieBreak.BUCHHOLZ] == 0
    assert values[2].tie_breaks[TieBreak.BUCHHOLZ] == 2
    assert values[4].tie_breaks[TieBreak.POINTS_DIFFERENCE] == 4
    assert list(values[1].tie_breaks) == list(DEFAULT_TIE_BREAKS)
    by_pd = compute_standings(teams(5), results, tie_breaks=(TieBreak.POINTS_DIFFERENCE,))
    assert [r.team_id for r in by_pd] == [1, 4, 2, 5, 3]
    assert list(by_pd[0].tie_breaks) == [TieBreak.POINTS_DIFFERENCE]


def test_head_to_head_worked_example() -> None:
    # 1, 2 and 3 each 1 win 1 loss among themselves plus one win against 4: 2 beat 1.
    results = [
        match(1, 2, 1, 5, 4),
        match(1, 3, 4, 5, 4),
        match(2, 1, 3, 5, 4),
        match(2, 2, 4, 5, 4),
        match(3, 3, 2, 5, 4),
        match(3, 1, 4, 5, 4),
    ]
    rows = compute_standings(teams(4), results, tie_breaks=(TieBreak.HEAD_TO_HEAD,))
    top = rows[:3]
    assert {r.team_id for r in top} == {1, 2, 3}
    assert all(r.tie_breaks[TieBreak.HEAD_TO_HEAD] == 2 for r in top)  # a perfect cycle
    assert [r.tied_with_previous for r in rows] == [False, True, True, False]
    assert [r.team_id for r in top] == [1, 2, 3]  # seed order among the fully tied
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[3].tie_breaks[TieBreak.HEAD_TO_HEAD] is None  # tied with nobody


def test_head_to_head_separates_two_tied_teams() -> None:
    results = [match(1, 2, 1, 5, 4), match(2, 1, 3, 5, 4), match(2, 2, 4, 4, 5, B)]
    results += [match(3, 1, 4, 5, 4), match(3, 2, 3, 5, 4)]
    order = (TieBreak.HEAD_TO_HEAD, TieBreak.SEED)
    rows = compute_standings(teams(4), results, tie_breaks=order)
    # 1: W W L = 4, 2: W L W = 4; game points equal; 2 beat 1.
    assert [r.team_id for r in rows][:2] == [2, 1]
    assert rows[0].tie_breaks[TieBreak.HEAD_TO_HEAD] == 2
    assert rows[1].tie_breaks[TieBreak.HEAD_TO_HEAD] == 0
    assert not rows[1].tied_with_previous


def test_seed_is_the_last_word_and_ties_are_flagged() -> None:
    rows = compute_standings(teams(3), [], tie_breaks=DEFAULT_TIE_BREAKS)
    assert [r.team_id for r in rows] == [1, 2, 3]
    assert not any(r.tied_with_previous for r in rows)
    rows = compute_standings(teams(3), [], tie_breaks=())
    assert [r.tied_with_previous for r in rows] == [False, True, True]


def test_late_entry_bye_equivalent_points() -> None:
    field = [*teams(2), TeamEntry(3, "Late", 3, joined_round=3)]
    results = [match(1, 1, 2, 5, 0), match(2, 2, 1, 5, 0)]
    zero = by_team(compute_standings(field, results, through_round=2))
    assert zero[3].match_points == 0
    equivalent = by_team(
        compute_standings(field, results, late_entry=LateEntry.BYE_EQUIVALENT, through_round=2)
    )
    assert equivalent[3].match_points == 4 and equivalent[3].byes == 2
    assert equivalent[3].tie_breaks[TieBreak.BUCHHOLZ] == 8  # two byes at its own 4 points


def test_withdrawn_flag_and_results_stand() -> None:
    field = [TeamEntry(1, "Gone", 1, withdrawn_after_round=1), *teams(3)[1:]]
    rows = by_team(compute_standings(field, [match(1, 1, 2, 5, 0)]))
    assert rows[1].withdrawn and rows[1].match_points == 2
    assert not rows[2].withdrawn


@pytest.mark.parametrize("a, b", [(1, 9), (9, 1), (9, None)])
def test_a_result_of_an_unlisted_team_is_refused(a: int, b: int | None) -> None:
    outcome = Outcome.BYE if b is None else A
    with pytest.raises(ValueError, match="team 9"):
        compute_standings(teams(2), [match(1, a, b, 5, 0, outcome)])


def test_every_tie_break_has_a_definition() -> None:
    assert set(TIE_BREAK_DEFINITIONS) == set(TieBreak)
    assert all(text.endswith(".") for text in TIE_BREAK_DEFINITIONS.values())
    assert "bye" in TIE_BREAK_DEFINITIONS[TieBreak.BUCHHOLZ]
    assert "2" in match_points_definition(MatchPointScheme.TWO_ONE_ZERO)


def test_crosstable() -> None:
    results = [
        match(1, 1, 2, 5, 3, A),
        match(1, 3, None),
        MatchResult(2, 1, 2, 3, 1, 1, Outcome.FORFEIT_A),
        MatchResult(2, 2, 1, 4, 2, 2, Outcome.UNFINISHED),
    ]
    table = crosstable(results)
    assert table[1][1] == CrossCell(2, "W", 5, 3)
    assert table[2][1] == CrossCell(1, "L", 3, 5)
    assert table[3][1] == CrossCell(None, "bye", 0, 0)
    assert table[2][2] == CrossCell(3, "+", 0, 0)
    assert table[3][2] == CrossCell(2, "-", 0, 0)
    assert table[4][2].result == "?"


def test_board_totals() -> None:
    games = [
        BoardGame(1, 7, 1, True, 2, 0),
        BoardGame(1, 7, 1, False, 1, 4),
        BoardGame(1, 7, 2, True, 3, 1),
        BoardGame(2, 5, 2, False, 0, 2),
    ]
    totals = board_totals(games)
    assert [(t.team_id, t.board) for t in totals] == [(5, 2), (7, 1), (7, 2)]
    assert totals[1].games == 2 and totals[1].won == 1 and totals[1].lost == 1
    assert (totals[1].points_for, totals[1].points_against) == (3, 4)
    with pytest.raises(ValueError, match="board"):
        BoardGame(1, 7, 3, True, 0, 0)


def test_standings_of_a_thousand_teams_after_nine_rounds_ranks_every_team() -> None:
    # Its speed is bench_pairing.py's figure (target 0.3 s), not a wall-clock assert here.
    rng = random.Random(1)
    field = teams(1000)
    results = []
    for rnd in range(1, 10):
        ids = list(range(1, 1001))
        rng.shuffle(ids)
        for i in range(0, 1000, 2):
            sa, sb = rng.randint(0, 7), rng.randint(0, 7)
            outcome = A if sa > sb else B if sb > sa else D
            results.append(MatchResult(rnd, i // 2 + 1, ids[i], ids[i + 1], sa, sb, outcome))
    rows = compute_standings(field, results)
    assert sorted(r.team_id for r in rows) == list(range(1, 1001))
    assert all(a.match_points >= b.match_points for a, b in zip(rows, rows[1:], strict=False))


def test_a_team_that_never_took_part_is_listed_apart_after_the_others() -> None:
    """#24 point 5: a team registered but never checked in (no match, no bye, no forfeit) was
    ranked among the teams that played, above one that lost 0-5. It is listed apart, last,
    with no place; a team that forfeited took part (it was paired) and keeps its place."""
    field = [TeamEntry(9, "Never came", seed=1), *teams(4)]
    results = [match(1, 1, 2, 5, 0), MatchResult(1, 2, 3, 4, 0, 0, Outcome.FORFEIT_A)]
    rows = compute_standings(field, results, tie_breaks=(TieBreak.POINTS_DIFFERENCE,))
    assert [r.team_id for r in rows][-1] == 9
    assert [r.took_part for r in rows] == [True] * 4 + [False]
    assert [r.place for r in rows] == ["1", "2", "3", "4", "–"]
    before = compute_standings(field, [], tie_breaks=(TieBreak.POINTS_DIFFERENCE,))
    assert all(r.took_part for r in before)  # before round 1 nobody has yet
    late = [*teams(2), TeamEntry(3, "Late", 3, joined_round=3)]
    counted = compute_standings(late, [match(1, 1, 2, 5, 0)], late_entry=LateEntry.BYE_EQUIVALENT)
    assert by_team(counted)[3].took_part  # its missed round counts as a bye: it is ranked
