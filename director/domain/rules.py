"""The rule book's vocabulary: scoring variants, ends, levels, sides and the event's options.

Every option named in RULES.md is a field here, with the rule book's default. The names are
the rule book's words; the string values are the ones used in the match-record format.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType


class Side(StrEnum):
    """A team's side in a match: team A sits at A1 and A2, team B at B1 and B2."""

    A = "A"
    B = "B"

    @property
    def other(self) -> Side:
        return Side.B if self is Side.A else Side.A


class Scoring(StrEnum):
    """The name of a scoring variant, as the event and the match record store it; what the
    variant is lies in its `Variant` record (`VARIANTS`, below)."""

    STANDARD = "standard"
    SIMPLE_PIP_SQUEEZE = "simple-pip-squeeze"
    KILLER_PIP_SQUEEZE = "killer-pip-squeeze"
    PIN_GAME = "pin-game"
    CHASING_THE_GIRLS = "chasing-the-girls"

    @property
    def variant(self) -> Variant:
        return _VARIANT_OF[self]


class End(StrEnum):
    """How a game ended."""

    BEAR_OFF = "bear-off"
    PASS = "pass"
    RESIGN = "resign"
    TIME = "time"


class Level(StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"

    @property
    def multiplier(self) -> int:
        return {Level.SINGLE: 1, Level.GAMMON: 2, Level.BACKGAMMON: 3}[self]


class ClockMode(StrEnum):
    FISCHER = "fischer"
    BRONSTEIN = "bronstein"
    DELAY = "delay"  # simple (US) delay

    @property
    def label(self) -> str:
        return {
            ClockMode.FISCHER: "Fischer increment",
            ClockMode.BRONSTEIN: "Bronstein delay",
            ClockMode.DELAY: "Simple delay",
        }[self]


class PairingSystem(StrEnum):
    SWISS = "swiss"
    ROUND_ROBIN = "round-robin"
    KNOCKOUT = "knockout"


class MatchPointScheme(StrEnum):
    """Match points for a win, a draw and a loss (RULES §8)."""

    TWO_ONE_ZERO = "2-1-0"
    ONE_HALF_ZERO = "1-0.5-0"

    @property
    def win(self) -> float:
        return 2.0 if self is MatchPointScheme.TWO_ONE_ZERO else 1.0

    @property
    def draw(self) -> float:
        return 1.0 if self is MatchPointScheme.TWO_ONE_ZERO else 0.5

    @property
    def loss(self) -> float:
        return 0.0


class TieBreak(StrEnum):
    BUCHHOLZ = "buchholz"
    POINTS_DIFFERENCE = "points-difference"
    POINTS_FOR = "points-for"
    HEAD_TO_HEAD = "head-to-head"
    SEED = "seed"


DEFAULT_TIE_BREAKS: tuple[TieBreak, ...] = (
    TieBreak.BUCHHOLZ,
    TieBreak.POINTS_DIFFERENCE,
    TieBreak.POINTS_FOR,
    TieBreak.HEAD_TO_HEAD,
    TieBreak.SEED,
)


class RoundOne(StrEnum):
    """How the first Swiss round is paired."""

    BY_SEED = "seed"
    RANDOM = "random"


class LateEntry(StrEnum):
    """What a team that joins after round 1 brings with it (RULES §8, pairings issue)."""

    ZERO = "zero"
    BYE_EQUIVALENT = "bye-equivalent"


class Paper(StrEnum):
    A4 = "a4"
    LETTER = "letter"
    A3 = "a3"  # a big bracket's draw sheet on one page (RULES §11)


MAX_CUBE = 64
MAX_MATCH_LENGTH = 999  # the options form's and the command line's: pin game plays to 150+ (§6.4)
ONE_CUBE_THRESHOLDS = (1, 2)  # points away at which the one-cube rule starts (RULES §4)
CHECKERS = 15


class Stake(StrEnum):
    """What a game's level multiplies (RULES §2): a game scores the stake × 1, 2 or 3."""

    CUBE = "cube"
    PIP_COUNT = "pip count"  # the pips the loser still had to travel (RULES §6.4)
    ONE_POINT = "1 point"  # every game won scores 1, whatever its level (RULES §6.5)


@dataclass(frozen=True)
class PipSqueeze:
    """RULES §6.1–6.3: every game also scores pip points; at the end of the match the margin
    in pip points turns into extra game points, and the adjusted totals decide."""

    by_position: bool  # a bear-off counts the loser's checkers by where they stand (§6.2)
    times_game_points: bool  # a game's pip points are multiplied by its game points (§6.2)
    rounded_up: bool  # margin ÷ 15 rounded up, nothing below 15 (§6.2); else rounded down
    conversion: str  # that conversion, in the scoresheet's words


@dataclass(frozen=True)
class Variant:
    """One scoring variant: all in which it differs from the others (RULES §2, §6). Scoring,
    reports, forms and phones read these fields; none of them asks which variant it is."""

    scoring: Scoring
    label: str
    section: str  # where the rule book defines it
    has_cube: bool
    has_levels: bool  # gammons, backgammons, checkers borne off at a time forfeit, rule 5′
    stake: Stake
    squeeze: PipSqueeze | None = None
    legend: str = ""  # the scoresheet's line on how a game's points or pip points are counted
    forfeit: str = ""  # a time forfeit's score without levels; with them rule 5 reads the stake
    summary: str = ""  # the phones' rules page: the line that replaces the cube's rules
    usual_length: int = 5  # a match length usual for it: what the simulator plays by default


VARIANTS: tuple[Variant, ...] = (
    Variant(Scoring.STANDARD, "Standard", "§2", has_cube=True, has_levels=True, stake=Stake.CUBE),
    Variant(
        Scoring.SIMPLE_PIP_SQUEEZE,
        "Simple pip squeeze",
        "§6.1",
        has_cube=True,
        has_levels=True,
        stake=Stake.CUBE,
        squeeze=PipSqueeze(
            by_position=False,
            times_game_points=False,
            rounded_up=False,
            conversion="margin ÷ 15, rounded down (RULES §6.1)",
        ),
        legend="Pip pts = loser's checkers left − winner's checkers left (RULES §6.1).",
    ),
    Variant(
        Scoring.KILLER_PIP_SQUEEZE,
        "Killer pip squeeze",
        "§6.2",
        has_cube=True,
        has_levels=True,
        stake=Stake.CUBE,
        squeeze=PipSqueeze(
            by_position=True,
            times_game_points=True,
            rounded_up=True,
            conversion="0 below 15, otherwise margin ÷ 15 rounded up (RULES §6.2)",
        ),
        legend="Pip pts (RULES §6.2): bear-off: loser's checkers in their home (H) + 2 × "
        "outfield (O) + 3 × in the winner's home or on the bar (B); other ends: loser's "
        "checkers left − winner's (W / L); then × the game's points.",
    ),
    Variant(
        Scoring.PIN_GAME,
        "Pin game",
        "§6.4",
        has_cube=False,
        has_levels=True,
        stake=Stake.PIP_COUNT,
        legend="Points = the loser's pip count × 1, 2 (gammon) or 3 (backgammon).",
        summary="Pin game: no cube; the winner scores the loser's pip count (× 2, × 3).",
        usual_length=150,
    ),
    Variant(
        Scoring.CHASING_THE_GIRLS,
        "Chasing the girls",
        "§6.5",
        has_cube=False,
        has_levels=False,
        stake=Stake.ONE_POINT,
        forfeit="Time forfeit: 1 point (RULES §6.5)",
        summary="Chasing the girls: no cube and no gammons; each game won scores 1 point.",
        usual_length=7,
    ),
)
_VARIANT_OF = MappingProxyType({v.scoring: v for v in VARIANTS})


class Format(StrEnum):
    """An event's format, as the event and the match record store it (RULES §10); what the
    format is lies in its `EventFormat` record (`FORMATS`, below)."""

    TANDEM = "tandem"
    INDIVIDUAL = "individual"

    @property
    def record(self) -> EventFormat:
        return _FORMAT_OF[self]


class CubeRule(StrEnum):
    """Which rule limits the cube near the end of a match."""

    ONE_CUBE = "one-cube"  # RULES §4: one board of a pair may use the cube
    CRAWFORD = "crawford"  # RULES §10: nobody doubles in the Crawford game


@dataclass(frozen=True)
class EventFormat:
    """One event format: all in which it differs from the others (RULES §1–§5, §10). The
    scorer, the cube, the clocks, the store and the pages read these fields; none of them asks
    which format it is (`test_no_code_but_the_records_asks_which_format_it_is`)."""

    format: Format
    label: str
    section: str  # where the rule book defines it
    boards: tuple[int, ...]  # the boards of a match, each with its game, cube and clock
    entrant: str  # who enters: "team" or "player"
    unit: str  # what a match is a sequence of: "pair" (one game per board) or "game"
    cube_rule: CubeRule
    pair_end_rules: bool  # rules 4 and 4′: a match may end in a draw, or abandon a game
    game_forfeit: bool  # rule 5: a flag loses the game (else it loses the match, §10)
    match_clock: bool  # one reserve per player for the whole match (RULES §10)

    @property
    def one_board(self) -> bool:
        return len(self.boards) == 1

    @property
    def draws(self) -> bool:
        """Whether a match may end level (rules 4 and 4′): else no word speaks of draws."""
        return self.pair_end_rules

    @property
    def met(self) -> bool:
        """Whether the match equity table of RULES §9 (a model of pairs) fits its matches."""
        return self.unit == "pair"

    def where(self, unit: int, board: int) -> str:
        """A game's place in a match: 'pair 3, board 1', or 'game 3' with one board."""
        if self.one_board:
            return f"{self.unit} {unit}"
        return f"{self.unit} {unit}, board {board}"


FORMATS: tuple[EventFormat, ...] = (
    EventFormat(
        Format.TANDEM,
        "Tandem",
        "§1–§5",
        boards=(1, 2),
        entrant="team",
        unit="pair",
        cube_rule=CubeRule.ONE_CUBE,
        pair_end_rules=True,
        game_forfeit=True,
        match_clock=False,
    ),
    EventFormat(
        Format.INDIVIDUAL,
        "Individual",
        "§10",
        boards=(1,),
        entrant="player",
        unit="game",
        cube_rule=CubeRule.CRAWFORD,
        pair_end_rules=False,
        game_forfeit=False,
        match_clock=True,
    ),
)
_FORMAT_OF = MappingProxyType({f.format: f for f in FORMATS})
# every board any format has: what a stored board may be
ALL_BOARDS: tuple[int, ...] = tuple(sorted({b for f in FORMATS for b in f.boards}))


@dataclass(frozen=True)
class MatchRules:
    """The options that decide how one match is scored (the match-record header)."""

    match_length: int = 5
    scoring: Scoring = Scoring.STANDARD
    winner_required: bool = False  # rule 4′
    one_cube_threshold: int = 2  # 1 or 2 (RULES §4)
    no_cube_at_one_away: bool = False
    agreed_lower_forfeit: bool = True  # rule 5′ may be applied by the director
    format: Format = Format.TANDEM  # RULES §10: its boards, its entrants, its cube rule

    @property
    def event_format(self) -> EventFormat:
        return self.format.record

    def problems(self) -> list[str]:
        """What is wrong with these options, in words; empty when they are valid."""
        out = []
        if self.match_length < 1:
            out.append("the match length must be at least 1 point")
        if self.one_cube_threshold not in ONE_CUBE_THRESHOLDS:
            out.append("the one-cube threshold must be 1 or 2")
        return out


@dataclass(frozen=True)
class TimeControl:
    """Each player's time per game: base plus increment or delay (RULES §7)."""

    base_seconds: int = 120
    increment_seconds: int = 12  # the increment (Fischer) or the delay (Bronstein, simple)
    mode: ClockMode = ClockMode.FISCHER

    def __str__(self) -> str:
        return f"{self.base_seconds}+{self.increment_seconds} {self.mode.label}"

    def words(self) -> str:
        """ "2 min + 12 s Fischer": what a player reads (the command line's `2+12` is minutes
        and seconds too; the bare `120+12` of `str` read as minutes)."""
        minutes, seconds = divmod(self.base_seconds, 60)
        base = (
            f"{minutes} min" + (f" {seconds} s" if seconds else "") if minutes else f"{seconds} s"
        )
        return f"{base} + {self.increment_seconds} s {self.mode.label}"

    def problems(self) -> list[str]:
        out = []
        if self.base_seconds < 0:
            out.append("the base time cannot be negative")
        if self.increment_seconds < 0:
            out.append("the increment or delay cannot be negative")
        if self.base_seconds == 0 and self.increment_seconds == 0:
            out.append("a clock needs some time: base and increment are both 0")
        return out


TIME_CONTROL_PRESETS: dict[str, TimeControl] = {
    "Tandem 2 min + 12 s increment": TimeControl(120, 12, ClockMode.FISCHER),
    "Tandem 2 min + 15 s increment": TimeControl(120, 15, ClockMode.FISCHER),
    "US delay: 2 min + 12 s delay": TimeControl(120, 12, ClockMode.DELAY),
    "Bronstein 2 min + 12 s": TimeControl(120, 12, ClockMode.BRONSTEIN),
    "Per move: 0 + 15 s simple delay": TimeControl(0, 15, ClockMode.DELAY),
}


@dataclass(frozen=True)
class EventOptions:
    """Every option an event has: the match rules, the clock, standings and pairings."""

    match: MatchRules = field(default_factory=MatchRules)
    time_control: TimeControl = field(default_factory=TimeControl)
    pairing_system: PairingSystem = PairingSystem.SWISS
    rounds: int = 5  # 0 = Swiss "until one team is clear"
    round_one: RoundOne = RoundOne.BY_SEED
    late_entry: LateEntry = LateEntry.ZERO
    avoid_same_club: bool = False
    double_round_robin: bool = False
    consolation: bool = False  # knockout: the plan has a consolation (follows the stored plan;
    # an event without one is read by it as single or single + consolation, RULES §11)
    match_points: MatchPointScheme = MatchPointScheme.TWO_ONE_ZERO
    tie_breaks: tuple[TieBreak, ...] = DEFAULT_TIE_BREAKS
    paper: Paper = Paper.A4

    def problems(self) -> list[str]:
        out = self.match.problems() + self.time_control.problems()
        tc = self.time_control
        if tc.base_seconds == 0 and tc.increment_seconds > 0 and tc.mode is not ClockMode.DELAY:
            # Bronstein refunds only time already used and Fischer adds only after a press:
            # with no base the first mover flags at once. A per-move clock is a simple delay.
            out.append(f"{tc.mode.label} needs a base time: for a per-move clock use simple delay")
        if self.match.event_format.match_clock and tc.base_seconds < 1:
            out.append(
                "an individual match's reserve needs a base time per match point (RULES §10)"
            )
        if self.rounds < 0:
            out.append("the number of rounds cannot be negative")
        if len(set(self.tie_breaks)) != len(self.tie_breaks):
            out.append("a tie-break is listed twice")
        return out


def rules_for_match(options: EventOptions, *, knockout: bool) -> MatchRules:
    """The rules one match of the event is played under: the event's, with rule 4′ (winner
    required) always on in a knockout round (RULES §3, §8)."""
    if knockout and not options.match.winner_required:
        return replace(options.match, winner_required=True)
    return options.match
