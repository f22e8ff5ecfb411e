"""RULES §11, clause by clause, with worked draws; then random fields of 2 to 256 entrants
with withdrawals and forfeits, checked by their properties and by the independent checker."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from director.domain.brackets.checker import check_draw
from director.domain.brackets.draw import (
    Draw,
    MatchKey,
    Progress,
    Result,
    Status,
    Vacant,
    shown,
)
from director.domain.brackets.plan import (
    CONSOLATION,
    LAST_CHANCE,
    MAIN,
    PLANS,
    Bracket,
    BracketPlan,
    Feed,
    plan_problems,
    progressive_feeds,
    ready_made,
)
from director.domain.errors import UserError
from tests.domain.brackets.bracket_helpers import play_out

# a last chance fed progressively too: consolation round q's losers into its round 2q - 2
PROGRESSIVE_LAST_CHANCE = BracketPlan(
    "progressive last chance",
    (
        Bracket(MAIN, (7, 7, 9, 11)),
        Bracket(CONSOLATION, (5, 5, 7), (Feed(MAIN, 1, 1),), third_place=True),
        Bracket(LAST_CHANCE, (3, 5), progressive_feeds(CONSOLATION)),
    ),
)


def key(bracket: str, rnd: int, number: int) -> MatchKey:
    return MatchKey(bracket, rnd, number)


def players(progress: Progress, k: MatchKey) -> tuple[int | None, int | None]:
    return progress.of(k)[1]


def win(*pairs: tuple[MatchKey, int]) -> list[Result]:
    return [Result(k, w) for k, w in pairs]


# -- seeding ----------------------------------------------------------------------------------


def test_the_main_bracket_is_in_standard_order_with_byes_to_the_top_seeds() -> None:
    draw = Draw(ready_made("single"), list(range(1, 7)))  # 6 players in a bracket of 8
    now = draw.progress()
    rows = [now.of(key(MAIN, 1, j)) for j in range(1, 5)]
    assert [r[1] for r in rows] == [(1, None), (4, 5), (2, None), (3, 6)]
    assert [r[0] for r in rows] == [Status.BYE, Status.READY, Status.BYE, Status.READY]
    assert [(p.player_a, p.player_b) for p in now.ready()] == [(4, 5), (3, 6)]
    sixteen = Draw(ready_made("single"), list(range(1, 17))).progress()
    assert [players(sixteen, key(MAIN, 1, j)) for j in range(1, 9)] == [
        (1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11),
    ]  # fmt: skip


def test_a_side_nobody_holds_is_vacant_a_bye_or_not_known_yet_never_a_name() -> None:
    """Six in a bracket of eight: seeds 1 and 2 have byes; the semi-finals wait for round 1."""
    draw = Draw(ready_made("single"), range(1, 7))
    progress = draw.progress()

    def seats(r: int, n: int) -> tuple[int | Vacant, int | Vacant]:
        return progress.seats(draw.index[MatchKey(MAIN, r, n)])

    assert [seats(1, n) for n in (1, 2, 3, 4)] == [(1, Vacant.BYE), (4, 5), (2, Vacant.BYE),
                                                   (3, 6)]  # fmt: skip
    assert seats(2, 1) == (1, Vacant.NOT_KNOWN) and seats(2, 2) == (2, Vacant.NOT_KNOWN)
    assert seats(3, 1) == (Vacant.NOT_KNOWN, Vacant.NOT_KNOWN)
    after = draw.progress([Result(MatchKey(MAIN, 1, 2), 4), Result(MatchKey(MAIN, 1, 4), 3)])
    assert after.seats(draw.index[MatchKey(MAIN, 2, 1)]) == (1, 4)
    # shown: a name as typed, whatever it says; a vacant side by the draw's words
    assert [shown(n) for n in ("bye", "…", Vacant.BYE, Vacant.NOT_KNOWN)] == ["bye", "…"] * 2
    assert Vacant.BYE != "bye" and Vacant.NOT_KNOWN != "…"


def test_a_field_is_two_or_more_distinct_entrants() -> None:
    with pytest.raises(UserError, match="at least two"):
        Draw(ready_made("single"), [1])
    with pytest.raises(UserError, match="appears once"):
        Draw(ready_made("single"), [1, 2, 2])


# -- the consolation bracket ------------------------------------------------------------------


def test_consolation_takes_the_losers_of_main_round_one_in_position_order() -> None:
    draw = Draw(ready_made("consolation"), list(range(1, 9)))
    now = draw.progress(win((key(MAIN, 1, 1), 8), (key(MAIN, 1, 2), 4)))
    # losers of main matches 1 and 2 meet; they lost to different players
    assert players(now, key(CONSOLATION, 1, 1)) == (1, 5)
    assert now.of(key(CONSOLATION, 1, 2))[0] is Status.WAITING


def test_a_round_one_bye_lost_in_round_two_counts_as_a_round_one_loss() -> None:
    plan = ready_made("consolation")
    draw = Draw(plan, list(range(1, 7)))  # seeds 1 and 2 have byes
    r1 = win((key(MAIN, 1, 2), 4), (key(MAIN, 1, 4), 3))
    now = draw.progress(r1)
    assert now.of(key(CONSOLATION, 1, 1))[0] is Status.WAITING  # is seed 1 a loser yet?
    lost = draw.progress([*r1, *win((key(MAIN, 2, 1), 4))])
    assert players(lost, key(CONSOLATION, 1, 1)) == (1, 5)
    won = draw.progress([*r1, *win((key(MAIN, 2, 2), 2))])
    assert won.of(key(CONSOLATION, 1, 2)) == (Status.BYE, (None, 6), 6)  # 3 does not drop


def test_a_progressive_consolation_takes_later_losers_into_later_rounds_in_reverse() -> None:
    plan = ready_made("progressive-consolation")
    draw = Draw(plan, list(range(1, 9)))
    favourites = win(
        (key(MAIN, 1, 1), 1), (key(MAIN, 1, 2), 4), (key(MAIN, 1, 3), 2), (key(MAIN, 1, 4), 3),
        (key(CONSOLATION, 1, 1), 5), (key(CONSOLATION, 1, 2), 6),
        (key(MAIN, 2, 1), 1), (key(MAIN, 2, 2), 2),
    )  # fmt: skip
    now = draw.progress(favourites)
    # main round 2's losers (4 and 3) meet round 1's consolation survivors, the other half's
    assert players(now, key(CONSOLATION, 2, 1)) == (5, 3)
    assert players(now, key(CONSOLATION, 2, 2)) == (6, 4)  # 3 beat 6: they are kept apart
    assert draw.rounds == {MAIN: 3, CONSOLATION: 3}  # main's final loser feeds nobody
    assert [n.key for n in draw.nodes if n.key.bracket == CONSOLATION][-1] == key(CONSOLATION, 3, 1)


def test_the_last_chance_takes_the_losers_of_consolation_round_one() -> None:
    plan = ready_made("consolation-last-chance")
    draw = Draw(plan, list(range(1, 17)))
    main1 = win(*((key(MAIN, 1, j), s) for j, s in enumerate((1, 8, 4, 5, 2, 7, 3, 6), 1)))
    cons1 = win((key(CONSOLATION, 1, 1), 16), (key(CONSOLATION, 1, 2), 13))
    now = draw.progress([*main1, *cons1])
    assert players(now, key(LAST_CHANCE, 1, 1)) == (9, 12)
    assert now.of(key(LAST_CHANCE, 1, 2))[0] is Status.WAITING
    assert draw.rounds == {MAIN: 4, CONSOLATION: 3, LAST_CHANCE: 2}


def test_a_progressive_last_chance_takes_later_consolation_losers_too() -> None:
    assert plan_problems(PROGRESSIVE_LAST_CHANCE) == []
    draw = Draw(PROGRESSIVE_LAST_CHANCE, list(range(1, 33)))
    assert draw.rounds == {MAIN: 5, CONSOLATION: 4, LAST_CHANCE: 4}  # semi-finals play off
    rng = random.Random(5)
    played = play_out(draw, rng)
    final = draw.progress(played.results)
    assert check_draw(PROGRESSIVE_LAST_CHANCE, draw.field, played.drawn(final)) == []
    # consolation round 2's four losers meet the last chance's round-1 survivors, reversed
    c2 = [played.pairings[key(CONSOLATION, 2, j)] for j in range(1, 5)]
    c2_losers = [m.player_a if final.of(m.key)[2] == m.player_b else m.player_b for m in c2]
    assert [players(final, key(LAST_CHANCE, 2, j))[1] for j in range(1, 5)] == c2_losers[::-1]
    assert final.places(CONSOLATION).fourth is not None  # its play-off for third


def test_a_bracket_too_small_to_hold_a_match_is_left_out() -> None:
    assert Draw(ready_made("consolation-last-chance"), [1, 2]).rounds == {MAIN: 1}
    assert Draw(ready_made("consolation-last-chance"), [1, 2, 3, 4]).rounds == {
        MAIN: 2, CONSOLATION: 1,
    }  # fmt: skip


# -- lengths ----------------------------------------------------------------------------------


def test_each_match_is_played_to_its_bracket_rounds_length() -> None:
    draw = Draw(ready_made("consolation-last-chance"), list(range(1, 33)))
    lengths = {(n.key.bracket, n.key.round): n.length for n in draw.nodes}
    assert [lengths[MAIN, r] for r in range(1, 6)] == [7, 7, 9, 11, 11]
    assert [lengths[CONSOLATION, r] for r in range(1, 5)] == [5, 5, 7, 7]
    assert [lengths[LAST_CHANCE, r] for r in range(1, 4)] == [5, 5, 5]
    ready = draw.progress().ready()
    assert {p.length for p in ready} == {7} and len(ready) == 16


# -- by match, not by round -------------------------------------------------------------------


def test_a_next_match_is_ready_as_soon_as_both_its_feeders_are_finished() -> None:
    draw = Draw(ready_made("consolation"), list(range(1, 9)))
    now = draw.progress(win((key(MAIN, 1, 1), 1), (key(MAIN, 1, 2), 4)))
    ready = {p.key for p in now.ready()}
    assert key(MAIN, 2, 1) in ready and key(CONSOLATION, 1, 1) in ready
    assert key(MAIN, 1, 3) in ready  # round 1 is still being played
    assert now.of(key(MAIN, 2, 2))[0] is Status.WAITING
    with pytest.raises(UserError, match="main round 2 match 2: a result for a match not paired"):
        draw.progress([*win((key(MAIN, 1, 1), 1)), *win((key(MAIN, 2, 2), 2))])


def test_a_knockout_match_has_a_winner_who_plays_in_it() -> None:
    draw = Draw(ready_made("single"), list(range(1, 5)))
    with pytest.raises(UserError, match="main round 1 match 1: the winner 3 does not play"):
        draw.progress(win((key(MAIN, 1, 1), 3)))
    with pytest.raises(UserError, match="no such match"):
        draw.progress(win((key("plate", 1, 1), 1)))


# -- places -----------------------------------------------------------------------------------


def play_all(draw: Draw, favourite: bool = True) -> list[Result]:
    results: list[Result] = []
    while ready := draw.progress(results).ready():
        results += [Result(p.key, min(p.player_a, p.player_b) if favourite else
                           max(p.player_a, p.player_b)) for p in ready]  # fmt: skip
    return results


def test_places_winner_runner_up_and_a_shared_third() -> None:
    draw = Draw(ready_made("consolation"), list(range(1, 9)))
    done = draw.progress(play_all(draw))
    assert done.complete
    main = done.places(MAIN)
    assert (main.winner, main.runner_up, main.third, main.fourth) == (1, 2, (4, 3), None)
    cons = done.places(CONSOLATION)
    assert (cons.winner, cons.runner_up, set(cons.third)) == (5, 6, {7, 8})
    assert done.places(LAST_CHANCE).winner is None  # no such bracket in this plan


def test_a_play_off_for_third_when_the_plan_has_one() -> None:
    plan = BracketPlan("with play-off", (Bracket(MAIN, (5, 7), third_place=True),))
    draw = Draw(plan, list(range(1, 9)))
    semis_done = draw.progress(play_all(Draw(ready_made("single"), list(range(1, 9))))[:6])
    assert semis_done.of(key(MAIN, 3, 2)) == (Status.READY, (4, 3), None)
    assert [p.length for p in semis_done.ready()] == [7, 7]  # final and play-off
    done = draw.progress(play_all(draw, favourite=False))
    places = done.places(MAIN)
    assert (places.winner, places.runner_up, places.third, places.fourth) == (8, 7, (6,), 5)
    assert not draw.progress().places(MAIN).complete


# -- withdrawals and forfeits -----------------------------------------------------------------


def test_a_withdrawn_feeder_leaves_a_bye() -> None:
    draw = Draw(ready_made("consolation"), list(range(1, 9)))
    before_play = draw.progress(withdrawn=[8])
    assert before_play.of(key(MAIN, 1, 1)) == (Status.BYE, (1, None), 1)
    r1 = win((key(MAIN, 1, 2), 4), (key(MAIN, 1, 3), 2), (key(MAIN, 1, 4), 3))
    now = draw.progress(r1, withdrawn=[8])
    assert now.of(key(CONSOLATION, 1, 1))[0] is Status.WAITING  # 1 may yet lose in round 2
    # 5 lost to 4 and then withdrew: the consolation slot is a bye
    gone = draw.progress([*r1, *win((key(MAIN, 2, 1), 4))], withdrawn=[8, 5])
    assert gone.of(key(CONSOLATION, 1, 1)) == (Status.BYE, (1, None), 1)
    # a paired match whose player withdraws is a bye; a finished one stands
    played = draw.progress([*win((key(MAIN, 1, 1), 1)), *r1], withdrawn=[1])
    assert played.of(key(MAIN, 1, 1))[2] == 1
    assert played.of(key(MAIN, 2, 1)) == (Status.BYE, (None, 4), 4)


def test_a_forfeit_is_a_win_for_the_opponent_and_its_loser_drops_as_any_loser() -> None:
    draw = Draw(ready_made("consolation"), list(range(1, 9)))
    now = draw.progress([Result(key(MAIN, 1, 1), 8, forfeit=True), *win((key(MAIN, 1, 2), 4))])
    assert now.of(key(MAIN, 2, 1)) == (Status.READY, (8, 4), None)
    assert players(now, key(CONSOLATION, 1, 1)) == (1, 5)


def test_of_two_withdrawn_players_the_later_passes_on_and_leaves_at_their_next_match() -> None:
    draw = Draw(ready_made("single"), list(range(1, 9)))
    r1 = win((key(MAIN, 1, 2), 4), (key(MAIN, 1, 3), 2), (key(MAIN, 1, 4), 3))
    now = draw.progress(r1, withdrawn=[8, 1])  # 8 went first: 1 had the bye, then went
    assert now.of(key(MAIN, 1, 1)) == (Status.BYE, (1, None), 1)
    assert now.of(key(MAIN, 2, 1)) == (Status.BYE, (None, 4), 4)


# -- random fields ----------------------------------------------------------------------------


def brackets_of(draw: Draw, progress: Progress) -> dict[int, list[str]]:
    """Each player's brackets, in the order they played or had byes in them."""
    out: dict[int, list[str]] = {}
    for i, node in enumerate(draw.nodes):
        if progress.status[i] in (Status.DONE, Status.READY, Status.BYE):
            for p in progress.players[i]:
                if p is not None and node.key.bracket not in out.setdefault(p, []):
                    out[p].append(node.key.bracket)
    return out


@settings(max_examples=100, deadline=None)
@given(
    st.integers(2, 256),
    st.sampled_from([*PLANS, PROGRESSIVE_LAST_CHANCE]),
    st.integers(0, 2**32),
    st.sampled_from([0.0, 0.05, 0.3]),
    st.sampled_from([0.0, 0.1]),
    st.booleans(),
)
def test_random_fields_play_out_by_the_plan(
    n: int, plan: BracketPlan, seed: int, withdraw: float, forfeit: float, one_at_a_time: bool
) -> None:
    rng = random.Random(seed)  # hypothesis's own randoms draw every number through it: slow
    field = rng.sample(range(1, 10_000), n)
    draw = Draw(plan, field)
    played = play_out(draw, rng, withdraw, forfeit, keep_steps=True, one_at_a_time=one_at_a_time)
    lengths = {b.name: b for b in plan.brackets}
    order = [b.name for b in plan.brackets]
    for progress, count, withdrawn in played.steps[:: max(1, len(played.steps) // 12)] + [
        played.steps[-1]
    ]:
        ready = progress.ready()
        seated = [p for m in ready for p in (m.player_a, m.player_b)]
        assert len(seated) == len(set(seated)), "a player in two matches at once"
        assert not set(seated) & set(withdrawn)
        assert check_draw(plan, field, played.drawn(progress, count), withdrawn) == []
    for m in played.pairings.values():
        assert m.length == lengths[m.key.bracket].length(m.key.round)
    final = played.steps[-1][0]
    assert final.complete
    # brackets are entered in the plan's order, main first, each after losing in its source
    for p, brackets in brackets_of(draw, final).items():
        assert brackets[0] == MAIN and brackets == sorted(brackets, key=order.index), (p, brackets)
    # nobody is dropped: every loser who stays and whose round the plan feeds is in the fed
    # bracket (a loser who had won nothing there yet is a round-1 loser), and a fed bracket's
    # first round never brings back two players who met
    in_bracket = brackets_of(draw, final)
    met: set[frozenset[int]] = set()
    for r in played.results:  # in the order played
        m = played.pairings[r.key]
        pair = frozenset((m.player_a, m.player_b))
        if r.key.round == 1 and r.key.bracket != MAIN:
            assert pair not in met, (r.key, pair)
        met.add(pair)
    for fed in plan.brackets[1:]:
        if fed.name not in draw.rounds:
            continue
        src = fed.feeds[0].source
        feeds = {f.round for f in fed.feeds}
        wins: dict[int, int] = {}
        for r in sorted(played.results, key=lambda r: r.key):
            if r.key.bracket != src or r.key.number == 2 and r.key.round == draw.rounds[src]:
                continue
            m = played.pairings[r.key]
            lost = m.player_b if r.winner == m.player_a else m.player_a
            fresh = not wins.get(lost)
            wins[r.winner] = wins.get(r.winner, 0) + 1
            final_round = r.key.round > draw.feeding[src]  # a final, or semi-finals playing off
            if lost in played.withdrawn or final_round or not (fresh or r.key.round in feeds):
                continue
            assert fed.name in in_bracket.get(lost, []), (lost, r.key, fed.name)
    for bracket in draw.rounds:
        places = final.places(bracket)
        assert places.complete
        assert places.winner is None or places.winner not in (places.runner_up, *places.third)


def test_a_night_of_every_plan_and_size_passes_the_checker_at_every_step() -> None:
    rng = random.Random(29)
    for plan in PLANS:
        for n in (2, 3, 5, 8, 13, 24, 33):
            draw = Draw(plan, list(range(1, n + 1)))
            played = play_out(draw, rng, 0.1, 0.1, keep_steps=True)
            for progress, count, withdrawn in played.steps:
                assert check_draw(plan, draw.field, played.drawn(progress, count), withdrawn) == []


def test_a_plan_whose_feeds_do_not_fit_a_field_names_the_round() -> None:
    plan = BracketPlan(
        "odd",
        (Bracket(MAIN, (5,)), Bracket(CONSOLATION, (5,), (Feed(MAIN, 1, 1), Feed(MAIN, 2, 3)))),
    )
    assert Draw(plan, list(range(1, 17))).problems == [
        "consolation round 3 takes 4 losers of main round 2 against 2 survivors (field of 16)"
    ]
    with pytest.raises(UserError, match="consolation round 3 takes 4 losers"):
        Draw(plan, list(range(1, 17))).progress()


def test_later_feeds_alternate_reversed_and_reversed_within_halves() -> None:
    draw = Draw(ready_made("progressive-consolation"), list(range(1, 33)))

    def fed_from(rnd: int) -> list[int]:
        out = []
        for i in draw.round_nodes(CONSOLATION, rnd):
            (_, _), (_, source) = draw.nodes[i].inputs
            out.append(draw.nodes[source].key.number)
        return out

    assert fed_from(2) == [8, 7, 6, 5, 4, 3, 2, 1]  # main round 2's losers
    assert fed_from(4) == [2, 1, 4, 3]  # main round 3's
    assert fed_from(6) == [2, 1]  # main round 4's (the semi-finals)
    assert draw.rounds == {MAIN: 5, CONSOLATION: 7}


def test_semi_finalists_who_play_off_for_third_feed_no_other_bracket() -> None:
    plan = BracketPlan(
        "play-off first",
        (
            Bracket(MAIN, (7,)),
            Bracket(CONSOLATION, (5,), (Feed(MAIN, 1, 1),), third_place=True),
            Bracket(LAST_CHANCE, (3,), (Feed(CONSOLATION, 1, 1),)),
        ),
    )
    eight = Draw(plan, list(range(1, 9)))  # consolation round 1 is its semi-finals
    assert eight.rounds == {MAIN: 3, CONSOLATION: 2}
    sixteen = Draw(plan, list(range(1, 17)))
    assert sixteen.rounds == {MAIN: 4, CONSOLATION: 3, LAST_CHANCE: 2}
    played = play_out(sixteen, random.Random(2))
    done = sixteen.progress(played.results)
    assert done.places(CONSOLATION).fourth is not None
    matches = played.drawn(done)
    semi = next(m for m in matches if (m.bracket, m.round, m.number) == (CONSOLATION, 2, 1))
    loser = semi.player_b if semi.winner == semi.player_a else semi.player_a
    lc = next(i for i, m in enumerate(matches) if (m.bracket, m.round) == (LAST_CHANCE, 2))
    matches[lc] = replace(matches[lc], player_a=loser, winner=None)
    problems = check_draw(plan, sixteen.field, matches)
    assert any("lost a consolation semi-final: they play off for third" in p for p in problems)


def test_round_titles_count_back_from_the_final_and_a_fed_round_keeps_its_number() -> None:
    draw = Draw(ready_made("progressive-consolation"), range(1, 17))
    assert [draw.round_title("main", r) for r in (1, 2, 3, 4)] == [
        "Round 1", "Quarter-final", "Semi-final", "Final",
    ]  # fmt: skip
    rounds = draw.rounds["consolation"]
    titles = [draw.round_title("consolation", r) for r in range(1, rounds + 1)]
    assert titles[-1] == "Final" and titles[0] == "Round 1"
    assert "Round 2" in titles  # main round 2's losers join: the round is not a halving
