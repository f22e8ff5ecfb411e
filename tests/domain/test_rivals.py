"""RULES §12 head-to-head records and the nemesis report."""

from __future__ import annotations

from datetime import date

from hypothesis import given, settings
from hypothesis import strategies as st

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


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 5), st.integers(1, 5), st.sampled_from(list(Outcome))),
        max_size=60,
    )
)
def test_the_report_is_each_persons_worst_and_most_beaten_record(
    games: list[tuple[int, int, Outcome]],
) -> None:
    results = [
        played(i, (a,), (b,), Outcome.A_WON if o is Outcome.DRAW else o)
        for i, (a, b, o) in enumerate(games, 1)
        if a != b
    ]
    for rivals in nemesis_report(results):
        records = [r for r in records_of(results, rivals.person) if r.matches >= 3]
        lost = [r for r in records if r.losses]
        won = [r for r in records if r.wins]
        if not lost:
            assert rivals.nemesis is None
        else:
            assert rivals.nemesis is not None
            assert rivals.nemesis.share == min(r.share for r in lost)
            assert rivals.nemesis == head_to_head(results, rivals.person, rivals.nemesis.opponent)
        if not won:
            assert rivals.beaten_most is None
        else:
            assert rivals.beaten_most is not None
            assert rivals.beaten_most.wins == max(r.wins for r in won)
