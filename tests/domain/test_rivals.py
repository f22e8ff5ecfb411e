"""RULES §12 head-to-head records and the nemesis report."""

from __future__ import annotations

from datetime import date

from director.domain.rating import ClubResult, Outcome, Unrated
from director.domain.rivals import head_to_head, nemesis_report, records_of

DAY = date(2026, 3, 3)


def played(
    finish: int,
    a: tuple[int, ...],
    b: tuple[int, ...],
    outcome: Outcome = Outcome.A_WON,
    unrated: Unrated | None = None,
    reason: str = "",
) -> ClubResult:
    return ClubResult("e", DAY, 1, finish, a, b, 5, outcome, unrated, reason)


def test_head_to_head_counts_matches_played_over_the_board_both_ways() -> None:
    results = [
        played(1, (1,), (2,)),
        played(2, (2,), (1,)),
        played(3, (1,), (2,), Outcome.B_WON),
        played(4, (1,), (2,), unrated=Unrated.DIRECTOR, reason="wrong length"),  # played
        played(5, (1,), (2,), unrated=Unrated.NO_SHOW),  # not played
        played(6, (1,), (), unrated=Unrated.BYE),
        played(7, (1, 3), (2, 4), Outcome.DRAW),  # a Tandem match: 1 met 2 and 4
    ]
    r = head_to_head(results, 1, 2)
    assert (r.wins, r.losses, r.draws, r.matches) == (2, 2, 1, 5)
    assert r.share == 0.5
    back = head_to_head(results, 2, 1)
    assert (back.wins, back.losses, back.draws) == (2, 2, 1)
    assert head_to_head(results, 1, 3).matches == 0 and head_to_head(results, 1, 3).share == 0
    assert [(x.opponent, x.matches) for x in records_of(results, 1)] == [(2, 5), (4, 1)]


def test_the_nemesis_is_the_worst_record_over_three_matches_and_the_one_beaten_most() -> None:
    results = [
        *(played(i, (1,), (2,), Outcome.B_WON) for i in range(1, 4)),  # 1 lost 3 of 3 to 2
        played(4, (1,), (3,)), played(5, (1,), (3,), Outcome.B_WON),   # 1 v 3: 1-1, two only
        *(played(10 + i, (1,), (4,)) for i in range(4)),               # 1 beat 4 four times
        played(20, (1,), (4,), Outcome.B_WON),
        *(played(30 + i, (1,), (5,)) for i in range(3)),               # 1 beat 5 3 of 3
    ]  # fmt: skip
    report = {r.person: r for r in nemesis_report(results)}
    one = report[1]
    assert one.nemesis is not None and one.nemesis.opponent == 2
    assert one.beaten_most is not None and one.beaten_most.opponent == 4
    assert report[2].nemesis is None  # 2 never lost to 1
    assert report[2].beaten_most is not None and report[2].beaten_most.opponent == 1
    assert report[3].nemesis is None and report[3].beaten_most is None  # fewer than 3 matches
    assert report[4].nemesis is not None and report[4].nemesis.opponent == 1
    assert report[5].beaten_most is None
