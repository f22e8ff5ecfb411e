"""RULES §2 and FORMATS: every combination of end, level and the scoring's fields is either a
game that can happen, and is scored, or one that cannot, and is refused naming the field.

The oracle below is written from the rule book, not from `domain/scoring.py`: a game can
happen when some position of the checkers gives every field it carries. A position is the
loser's checkers left (1 to 15: a loser with none would have won), whether one of them is on
the bar or in the winner's home board ("back"), their pip count, and the winner's checkers
left (0 after a bear-off, 1 to 15 otherwise: both sides are still on the board)."""

from __future__ import annotations

from dataclasses import fields
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from director.domain.rules import End, Level, Scoring, Side
from director.domain.scoring import Game, game_problems

STD, SIMPLE, KILLER = Scoring.STANDARD, Scoring.SIMPLE_PIP_SQUEEZE, Scoring.KILLER_PIP_SQUEEZE
PIN, CHASE = Scoring.PIN_GAME, Scoring.CHASING_THE_GIRLS
LEFT = ("winner_left", "loser_left")
BY_POSITION = ("loser_home", "loser_outfield", "loser_in_winner_home_or_bar")
OPTIONAL = ("level", "agreed_level", "loser_borne_off", *LEFT, *BY_POSITION, "loser_pips")


def belonging(scoring: Scoring, end: End) -> tuple[set[str], set[str]]:
    """FORMATS, match record: the fields a game with this end needs, and those it may carry."""
    need: set[str] = set()
    if scoring is not CHASE:
        if end in (End.BEAR_OFF, End.RESIGN):
            need.add("level")
        if end is End.TIME:
            need.add("loser_borne_off")
    if scoring is SIMPLE or (scoring is KILLER and end is not End.BEAR_OFF):
        need |= set(LEFT)
    if scoring is KILLER and end is End.BEAR_OFF:
        need |= set(BY_POSITION)
    if scoring is PIN and end is not End.PASS:
        need.add("loser_pips")
    may = set(need)
    if end is End.TIME:
        may.add("agreed_level")
    if scoring is CHASE:  # "level and loser_borne_off may be left out" (RULES §6.5)
        may.add("level" if end in (End.BEAR_OFF, End.RESIGN) else "loser_borne_off")
        if end is End.PASS:
            may.discard("loser_borne_off")
    return need, may


@cache
def positions(end: End) -> tuple[tuple[int, int, bool], ...]:
    """(winner's checkers left, loser's checkers left, a loser checker back) for this end."""
    winners = (0,) if end is End.BEAR_OFF else range(1, 16)
    return tuple((w, n, back) for w in winners for n in range(1, 16) for back in (False, True))


def level_fits(end: End, level: Level, borne_off: int, back: bool) -> bool:
    if level is Level.SINGLE:  # a resignation may concede a single from any position
        return borne_off > 0 or end is End.RESIGN
    if level is Level.GAMMON:  # a resigner may concede a gammon with a checker back
        return borne_off == 0 and (not back or end is End.RESIGN)
    return borne_off == 0 and back


def pips_fit(pips: int, left: int, back: bool) -> bool:
    """Each checker is 1 to 25 pips from home; one in the winner's home board or on the bar is
    19 to 25, one elsewhere 1 to 18."""
    if back:
        return 19 + (left - 1) <= pips <= 25 * left
    return left <= pips <= 18 * left


def possible(scoring: Scoring, game: Game) -> bool:
    need, may = belonging(scoring, game.end)
    given_ = {name for name in OPTIONAL if getattr(game, name) is not None}
    if not need <= given_ or not given_ <= may:
        return False
    if game.cube not in (1, 2, 4, 8, 16, 32, 64):
        return False
    if scoring in (PIN, CHASE) and (game.cube != 1 or game.end is End.PASS):
        return False  # no doubling cube (RULES §6.4, §6.5)
    if game.end is End.PASS and game.cube == 64:
        return False  # there is no 128 to offer
    if scoring is CHASE and (game.level not in (None, Level.SINGLE) or game.agreed_level):
        return False
    return any(position_fits(scoring, game, *p) for p in positions(game.end))


def position_fits(scoring: Scoring, game: Game, w: int, left: int, back: bool) -> bool:
    borne_off = 15 - left
    if game.winner_left is not None and game.winner_left != w:
        return False
    if game.loser_left is not None and game.loser_left != left:
        return False
    if game.loser_borne_off is not None and game.loser_borne_off != borne_off:
        return False
    counts = [getattr(game, name) for name in BY_POSITION]
    if all(c is not None for c in counts) and (
        any(c < 0 for c in counts) or sum(counts) != left or (counts[2] > 0) != back
    ):
        return False
    level = game.level
    if (
        level is not None
        and scoring is not CHASE
        and not level_fits(game.end, level, borne_off, back)
    ):
        return False
    agreed = game.agreed_level  # rule 5′: lower than rule 5's backgammon
    if agreed is not None and (borne_off > 0 or agreed is Level.BACKGAMMON):
        return False
    return game.loser_pips is None or pips_fit(game.loser_pips, left, back)


def named(problem: str) -> bool:
    """A problem names a field: by its `field`, or in its words."""
    words = [f.name for f in fields(Game) if f.name not in ("pair", "board", "winner")]
    return getattr(problem, "field", None) is not None or any(name in problem for name in words)


def counts(low: int, high: int) -> st.SearchStrategy[int | None]:
    return st.one_of(st.none(), st.integers(low, high))


games = st.builds(
    Game,
    pair=st.just(1),
    board=st.just(1),
    winner=st.sampled_from(Side),
    end=st.sampled_from(End),
    cube=st.sampled_from((1, 2, 3, 64)),
    level=st.one_of(st.none(), st.sampled_from(Level)),
    agreed_level=st.one_of(st.none(), st.sampled_from(Level)),
    loser_borne_off=counts(-1, 16),
    winner_left=counts(-1, 16),
    loser_left=counts(-1, 16),
    loser_home=counts(-1, 16),
    loser_outfield=counts(-1, 16),
    loser_in_winner_home_or_bar=counts(-1, 16),
    loser_pips=st.one_of(st.none(), st.integers(-1, 380), st.sampled_from((14, 15, 32, 33))),
)


@settings(max_examples=1500, deadline=None)
@given(scoring=st.sampled_from(Scoring), game=games)
def test_every_game_is_scored_if_it_can_happen_or_refused_naming_the_field(
    scoring: Scoring, game: Game
) -> None:
    problems = game_problems(scoring, game)
    assert (problems == []) is possible(scoring, game), problems
    assert all(named(p) for p in problems), problems


@st.composite
def real_games(draw: st.DrawFn) -> tuple[Scoring, Game]:
    """A game built from a real position, carrying exactly the fields its scoring asks for."""
    scoring = draw(st.sampled_from(Scoring))
    cubeless = scoring in (PIN, CHASE)
    end = draw(st.sampled_from([e for e in End if e is not End.PASS or not cubeless]))
    w, left, back = draw(st.sampled_from(positions(end)))
    borne_off = 15 - left
    levels = [lv for lv in Level if level_fits(end, lv, borne_off, back)]
    need, _ = belonging(scoring, end)
    low = 19 + (left - 1) if back else left
    high = 25 * left if back else 18 * left
    values = {
        "level": draw(st.sampled_from(levels)) if levels else None,
        "loser_borne_off": borne_off,
        "winner_left": w,
        "loser_left": left,
        "loser_pips": draw(st.integers(low, high)),
    }
    if scoring is KILLER and end is End.BEAR_OFF:
        k = draw(st.integers(1, left)) if back else 0
        h = draw(st.integers(0, left - k))
        values |= {"loser_home": h, "loser_outfield": left - k - h,
                   "loser_in_winner_home_or_bar": k}  # fmt: skip
    cube = 1 if cubeless else draw(st.sampled_from((1, 2, 32)))
    kept = {name: values[name] for name in need}
    return scoring, Game(1, 1, Side.A, end, cube=cube, **kept)  # type: ignore[arg-type]


@settings(max_examples=1000, deadline=None)
@given(real_games())
def test_every_game_a_real_position_gives_is_scored(case: tuple[Scoring, Game]) -> None:
    scoring, game = case
    assert possible(scoring, game)
    assert game_problems(scoring, game) == []
