"""What one finished game is worth: game points and pip points (RULES §2, §5, §6).

A `Game` carries what the players wrote down; `game_points` and `pip_points` read it under
the event's scoring variant (its `Variant` record in `rules.py`: the stake, the levels, the
pip squeeze), and `game_problems` says what in it breaks the rule book.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from director.domain.rules import (
    ALL_BOARDS,
    CHECKERS,
    MAX_CUBE,
    End,
    Level,
    MatchRules,
    Scoring,
    Side,
    Stake,
)


@dataclass(frozen=True)
class Game:
    """One finished game on one board, as recorded (field names follow the match-record format)."""

    pair: int
    board: int
    winner: Side
    end: End
    cube: int = 1
    level: Level | None = None
    loser_borne_off: int | None = None  # time forfeit: checkers the flagged player had borne off
    agreed_level: Level | None = None  # time forfeit under rule 5′
    winner_left: int | None = None
    loser_left: int | None = None
    loser_home: int | None = None
    loser_outfield: int | None = None
    loser_in_winner_home_or_bar: int | None = None
    loser_pips: int | None = None

    @property
    def used_cube(self) -> bool:
        """RULES §4: the game ended on a cube above 1, or a double was sent and passed."""
        return self.cube > 1 or self.end is End.PASS

    @property
    def where(self) -> str:
        return f"pair {self.pair}, board {self.board}"


# The checker counts a game may carry (each 0–15), then every count field: a `Game`'s integer
# fields after pair, board and cube, in the match record's order. Written here once: the
# record's keys, the store's columns and the game form all read them from here.
COUNT_FIELDS = (
    "loser_borne_off",
    "winner_left",
    "loser_left",
    "loser_home",
    "loser_outfield",
    "loser_in_winner_home_or_bar",
)
COUNTS = (*COUNT_FIELDS, "loser_pips")
CHECKERS_LEFT = ("winner_left", "loser_left")
BY_POSITION = ("loser_home", "loser_outfield", "loser_in_winner_home_or_bar")
_LOSER_COUNTS = " + ".join(BY_POSITION)
MAX_PIPS = CHECKERS * 25  # every checker on the bar
# RULES §2: each checker left is 1 to 25 pips from home, one on the bar or in the winner's home
# board 19 to 25, any other at most 18
_BACK_PIPS = 19
_FRONT_PIPS = 18


def is_cube_value(value: int) -> bool:
    return 1 <= value <= MAX_CUBE and value & (value - 1) == 0


def forfeit_level(loser_borne_off: int) -> Level:
    """RULES §5: the most a flagged game could still give."""
    return Level.BACKGAMMON if loser_borne_off == 0 else Level.SINGLE


def required_fields(scoring: Scoring, end: End) -> tuple[str, ...]:
    """The fields a game with this end needs under this scoring (FORMATS: match record)."""
    variant = scoring.variant
    need: list[str] = []
    if variant.has_levels:  # without levels (RULES §6.5): only the winner and how it ended
        if end in (End.BEAR_OFF, End.RESIGN):
            need.append("level")
        if end is End.TIME:
            need.append("loser_borne_off")  # pin game too: RULES §6.4 follows §5
    if variant.squeeze is not None:
        need += BY_POSITION if counted_by_position(scoring, end) else CHECKERS_LEFT
    if variant.stake is Stake.PIP_COUNT and end is not End.PASS:
        need.append("loser_pips")
    return tuple(need)


def allowed_fields(scoring: Scoring, end: End) -> tuple[str, ...]:
    """The fields a game with this end may carry under this scoring: those it needs, rule 5′'s
    agreed level on a time forfeit, and in chasing the girls the level and checkers borne off
    a record may leave out (FORMATS: match record; RULES §6.5). Any other is a problem."""
    allowed = list(required_fields(scoring, end))
    if end is End.TIME:
        allowed.append("agreed_level")  # refused where rule 5′ does not apply, by its rule
    if not scoring.variant.has_levels:
        allowed.append("loser_borne_off" if end is End.TIME else "level")
    return tuple(allowed)


def agreed_level_offered(rules: MatchRules, end: End) -> bool:
    """Whether a game with this end may carry rule 5′'s agreed lower level: a time forfeit,
    in an event with the option, under a scoring with levels (RULES §5; pin game too, §6.4;
    not chasing the girls, §6.5). The desk's form, the phones' slip and the sheets ask this."""
    return end is End.TIME and rules.agreed_lower_forfeit and rules.scoring.variant.has_levels


def counted_by_position(scoring: Scoring, end: End) -> bool:
    """RULES §6.2: a squeeze that counts a bear-off by where the loser's checkers stand."""
    squeeze = scoring.variant.squeeze
    return squeeze is not None and squeeze.by_position and end is End.BEAR_OFF


class Problem(str):
    """What is wrong in a game, in words that use the record format's field names, and the
    field it is about (None: the game as a whole). A `str`, so it reads, joins and prints as
    the words; a form shows it beside `field`."""

    field: str | None

    def __new__(cls, text: str, field: str | None = None) -> Problem:
        problem = super().__new__(cls, text)
        problem.field = field
        return problem


def game_problems(scoring: Scoring, game: Game) -> list[Problem]:
    """Everything in this game that the rule book or the record format forbids."""
    out: list[Problem] = []
    if game.board not in ALL_BOARDS:
        boards = " or ".join(str(b) for b in ALL_BOARDS)
        out.append(Problem(f"board must be {boards}, not {game.board}"))
    if game.pair < 1:
        out.append(Problem(f"pair must be 1 or more, not {game.pair}"))
    if not is_cube_value(game.cube):
        out.append(Problem(f"cube {game.cube} is not a power of two from 1 to {MAX_CUBE}", "cube"))
    if not scoring.variant.has_cube and game.used_cube:
        out.append(
            Problem(f"{scoring.variant.label} is played without a doubling cube (RULES §6)", "cube")
        )
    out += [
        Problem(f"missing {name} for a {game.end} game in {scoring}", name)
        for name in _missing(scoring, game)
    ]
    out += _foreign_fields(scoring, game)
    for name in COUNT_FIELDS:
        value = getattr(game, name)
        if value is not None and not 0 <= value <= CHECKERS:
            out.append(
                Problem(f"{name} must be a checker count from 0 to {CHECKERS}, not {value}", name)
            )
    if game.loser_pips == 0:
        out.append(
            Problem("loser_pips 0: a pin-game win worth 0 pips cannot have happened", "loser_pips")
        )
    elif game.loser_pips is not None and not 1 <= game.loser_pips <= MAX_PIPS:
        out.append(
            Problem(
                f"loser_pips must be a pip count from 1 to {MAX_PIPS}, not {game.loser_pips}",
                "loser_pips",
            )
        )
    if out:
        return out  # the checks below read the fields as valid values
    return _level_problems(scoring, game) + impossible_game_problems(scoring, game)


def _missing(scoring: Scoring, game: Game) -> list[str]:
    return [name for name in required_fields(scoring, game.end) if getattr(game, name) is None]


def _foreign_fields(scoring: Scoring, game: Game) -> list[Problem]:
    """FORMATS: a field that does not belong to the game's end and scoring is a problem, never
    a value to ignore. (An agreed level has its own words, in `_level_problems`.)"""
    allowed = allowed_fields(scoring, game.end)
    return [
        Problem(f"{name} does not belong to a {game.end} game in {scoring}", name)
        for name in ("level", *COUNTS)
        if getattr(game, name) is not None and name not in allowed
    ]


def _level_problems(scoring: Scoring, game: Game) -> list[Problem]:
    """Which fields a game's end and scoring allow (RULES §5, §5′, §6.5)."""
    out: list[Problem] = []
    variant = scoring.variant
    if not variant.has_levels:
        name, section = variant.label.lower(), variant.section
        if game.level is not None and game.level is not Level.SINGLE:
            out.append(
                Problem(
                    f"{name} has no gammons: a {game.level} is refused (RULES {section})", "level"
                )
            )
        if game.agreed_level is not None:
            out.append(
                Problem(f"rule 5′ does not apply in {name} (RULES {section})", "agreed_level")
            )
        return out
    if game.agreed_level is not None:
        if game.end is not End.TIME:
            out.append(
                Problem("agreed_level applies only to a time forfeit (rule 5′)", "agreed_level")
            )
        elif game.loser_borne_off is not None and (
            game.agreed_level.multiplier >= forfeit_level(game.loser_borne_off).multiplier
        ):
            out.append(
                Problem(
                    "agreed_level must be lower than the forfeit the rule gives "
                    f"({forfeit_level(game.loser_borne_off)}) (rule 5′)",
                    "agreed_level",
                )
            )
    return out


def loser_checkers_left(scoring: Scoring, game: Game) -> int | None:
    """The loser's checkers still on the board, where the record gives them."""
    if counted_by_position(scoring, game.end):
        counts = (game.loser_home, game.loser_outfield, game.loser_in_winner_home_or_bar)
        if any(c is None for c in counts):
            return None
        return sum(c or 0 for c in counts)
    if game.loser_left is not None:
        return game.loser_left
    if game.loser_borne_off is not None:
        return CHECKERS - game.loser_borne_off
    return None


def impossible_game_problems(scoring: Scoring, game: Game) -> list[Problem]:
    """RULES §2: a game that cannot have happened, naming the field."""
    out: list[Problem] = []
    left = loser_checkers_left(scoring, game)
    if left is not None and left > CHECKERS:
        out.append(
            Problem(
                f"{_LOSER_COUNTS} is {left}: the loser cannot have more than {CHECKERS} "
                "checkers on the board"
            )
        )
    if game.end is End.BEAR_OFF and game.winner_left not in (None, 0):
        out.append(
            Problem(
                "the winner of a bear-off has no checker left (winner_left must be 0)",
                "winner_left",
            )
        )
    if game.end is not End.BEAR_OFF and game.winner_left == 0:
        out.append(
            Problem(
                f"winner_left 0: the winner had borne off all {CHECKERS}, so the game ended "
                f"in a bear-off, not a {game.end}",
                "winner_left",
            )
        )
    if left == 0:
        field = "loser_borne_off" if game.loser_left is None else "loser_left"
        if counted_by_position(scoring, game.end):
            field = f"{_LOSER_COUNTS} is 0"
        out.append(
            Problem(
                f"{field}: the loser had borne off all {CHECKERS} and so won the game; "
                f"a {game.end} game needs a loser with checkers left",
                None if counted_by_position(scoring, game.end) else field,
            )
        )
    if (
        game.end is End.TIME
        and game.loser_borne_off is not None
        and game.loser_left is not None
        and game.loser_borne_off + game.loser_left != CHECKERS
    ):
        out.append(Problem(f"loser_borne_off + loser_left must be {CHECKERS}", "loser_borne_off"))
    if game.end is End.PASS and game.cube >= MAX_CUBE:
        out.append(
            Problem(f"a pass on a {MAX_CUBE}-cube: there is no {2 * MAX_CUBE} to offer", "cube")
        )
    if left is not None and game.level is not None and scoring.variant.has_levels:
        out += _level_against_checkers(scoring, game, game.level, left)
    if game.loser_pips is not None and not out:
        out += _pips_against_checkers(game, game.loser_pips)
    return out


def _pips_against_checkers(game: Game, pips: int) -> list[Problem]:
    """RULES §2: a pin-game pip count the loser's checkers left cannot make."""
    low, high, why = 1, MAX_PIPS, ""
    if game.end is End.TIME and game.loser_borne_off is not None:
        left = CHECKERS - game.loser_borne_off
        low, high = left, left * 25
        why = f"a time forfeit with loser_borne_off {game.loser_borne_off} leaves {left} checkers"
    elif game.level is Level.BACKGAMMON:
        low = _BACK_PIPS + CHECKERS - 1
        why = (
            f"a backgammon leaves all {CHECKERS} checkers, one on the bar or in the winner's "
            "home board"
        )
    elif game.level is Level.GAMMON:
        low = CHECKERS
        why = f"a gammon leaves all {CHECKERS} checkers"
        if game.end is End.BEAR_OFF:  # a checker back would make it a backgammon
            high = CHECKERS * _FRONT_PIPS
            why += ", none on the bar or in the winner's home board"
    elif game.level is Level.SINGLE and game.end is End.BEAR_OFF:
        high = (CHECKERS - 1) * 25
        why = f"a single leaves at most {CHECKERS - 1} checkers (the loser bore one off)"
    if low <= pips <= high:
        return []
    return [
        Problem(f"loser_pips {pips}: {why}, so from {low} to {high} pips (RULES §2)", "loser_pips")
    ]


def _level_against_checkers(scoring: Scoring, game: Game, level: Level, left: int) -> list[Problem]:
    field = "loser_left" if game.loser_left is not None else _LOSER_COUNTS
    by_field = "loser_left" if game.loser_left is not None else None
    if level is not Level.SINGLE and left < CHECKERS:
        return [
            Problem(
                f"a {level} needs a loser who has borne off no checker, but {field} gives "
                f"{left} checkers left",
                by_field,
            )
        ]
    if level is Level.SINGLE and left == CHECKERS and game.end is End.BEAR_OFF:
        # a resigned single before the loser bore off is an ordinary game (RULES §2)
        return [
            Problem(
                "a played-out single needs a loser who has borne off a checker, but "
                f"{field} gives {left}",
                by_field,
            )
        ]
    if counted_by_position(scoring, game.end):
        back = game.loser_in_winner_home_or_bar or 0
        if level is Level.BACKGAMMON and back == 0:
            return [
                Problem(
                    "a backgammon needs a loser checker on the bar or in the winner's home "
                    "board (loser_in_winner_home_or_bar is 0)",
                    "loser_in_winner_home_or_bar",
                )
            ]
        if level is Level.GAMMON and back > 0:
            return [
                Problem(
                    f"loser_in_winner_home_or_bar {back} with nothing borne off is a "
                    "backgammon, not a gammon",
                    "loser_in_winner_home_or_bar",
                )
            ]
    return []


def game_points(scoring: Scoring, game: Game) -> int:
    """The game points the winner's team scores (RULES §2, §5, §6). The game must be valid."""
    variant = scoring.variant
    stake = _stake(variant.stake, game)
    if not variant.has_levels or game.end is End.PASS:
        return stake  # a pass scores the cube before the offer
    if game.end is End.TIME:
        return stake * time_forfeit_level(game).multiplier
    return stake * _level(game).multiplier


def _stake(stake: Stake, game: Game) -> int:
    """What this game's level multiplies (RULES §2, §6.4, §6.5)."""
    match stake:
        case Stake.CUBE:
            return game.cube
        case Stake.PIP_COUNT:
            return game.loser_pips or 0
        case Stake.ONE_POINT:
            return 1


def time_forfeit_level(game: Game) -> Level:
    """RULES §5 (and §6.4): the rule's level, or the lower one agreed under rule 5′."""
    return game.agreed_level or forfeit_level(game.loser_borne_off or 0)


def _level(game: Game) -> Level:
    return game.level or Level.SINGLE


def pip_points(scoring: Scoring, game: Game) -> int:
    """The pip points the winner's team scores for this game (RULES §6.1, §6.2); may be < 0."""
    squeeze = scoring.variant.squeeze
    if squeeze is None:
        return 0
    if counted_by_position(scoring, game.end):
        per_game = (
            (game.loser_home or 0)
            + 2 * (game.loser_outfield or 0)
            + 3 * (game.loser_in_winner_home_or_bar or 0)
        )
    else:
        per_game = (game.loser_left or 0) - (game.winner_left or 0)
    if squeeze.times_game_points:
        return per_game * game_points(scoring, game)
    return per_game


def extra_game_points(scoring: Scoring, margin: int) -> int:
    """End-of-match conversion of a pip-point margin into game points (RULES §6.1, §6.2)."""
    squeeze = scoring.variant.squeeze
    margin = abs(margin)
    if squeeze is None or margin < 15:
        return 0
    return math.ceil(margin / 15) if squeeze.rounded_up else margin // 15
