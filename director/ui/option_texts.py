"""The words for every event option: label, one-line explanation, default, and choice names.

One table serves the event dialog and the check that the in-app help explains every option.
Rule numbers refer to the rule book (RULES.md), which the help pages put in plain words.
"""

from __future__ import annotations

from director.domain.rules import (
    ClockMode,
    Format,
    LateEntry,
    MatchPointScheme,
    PairingSystem,
    Paper,
    RoundOne,
    Scoring,
)

# key: (label, explanation, default as shown)
EXPLANATIONS: dict[str, tuple[str, str, str]] = {
    "format": (
        "Format",
        "Tandem: teams of two on two boards, one cube a pair near the end. Individual: player "
        "against player on one board, the Crawford rule, one clock reserve per match (RULES §10).",
        "Tandem",
    ),
    "match_length": (
        "Match length",
        "Points a team needs to win a match; pin game uses long matches such as 150.",
        "5 points",
    ),
    "scoring": (
        "Scoring",
        "How a game scores: standard (cube × single, gammon, backgammon), pip squeeze, "
        "pin game or chasing the girls.",
        "Standard",
    ),
    "winner_required": (
        "Winner required (rule 4′)",
        "The match ends the moment a finished game brings a team to the match length; the "
        "other game is abandoned and there are no draws. Always on in knockout rounds.",
        "off (rule 4: the pair is completed and a draw is possible)",
    ),
    "one_cube_threshold": (
        "One-cube pairs start at",
        "A pair is a one-cube pair when a team is this close to winning as it starts: only "
        "one of its two games may use the cube.",
        "2-away or closer",
    ),
    "no_cube_at_one_away": (
        "No cube at 1-away",
        "In a pair that starts with a team 1-away, neither board may double (the stricter, "
        "classic Crawford alternative).",
        "off",
    ),
    "agreed_lower_forfeit": (
        "Agreed lower forfeit (rule 5′)",
        "On a time forfeit the director may score a gammon or a single instead of the most "
        "the game could give, when both players agree.",
        "on",
    ),
    "preset": (
        "Time control",
        "A common setting; choosing one fills in the three fields below.",
        "Tandem 2 min + 12 s increment",
    ),
    "base": (
        "Base time",
        "Each player's main time for one game, in minutes:seconds.",
        "2:00",
    ),
    "increment": (
        "Increment or delay",
        "Seconds added after each move (Fischer), or the delay (Bronstein, simple delay).",
        "12 s",
    ),
    "clock_mode": (
        "Clock mode",
        "Fischer adds the increment after each press; Bronstein gives back the time used, up "
        "to the delay; simple delay starts the main time only after the delay.",
        "Fischer increment",
    ),
    "pairing_system": (
        "Pairing system",
        "Swiss (no rematches, within score groups), round robin (everyone meets everyone) "
        "or knockout (seeded bracket, winner required).",
        "Swiss",
    ),
    "rounds": (
        "Rounds",
        "How many rounds to play; the lowest setting plays Swiss rounds until one team is "
        "clear of the rest.",
        "5",
    ),
    "round_one": (
        "Swiss round 1",
        "How the first Swiss round is paired: by seed (top half against bottom half) or at random.",
        "by seed",
    ),
    "late_entry": (
        "Late entry",
        "What a team that joins after round 1 brings: nothing, or a bye's match points for "
        "each round it missed.",
        "0 match points",
    ),
    "avoid_same_club": (
        "Avoid same-club pairings",
        "Swiss: pair teams of the same club against each other only when nothing else works.",
        "off",
    ),
    "double_round_robin": (
        "Double round robin",
        "Round robin: every team meets every other team twice.",
        "off",
    ),
    "match_points": (
        "Match points",
        "Points for a win, a draw and a loss; a bye scores a win.",
        "2 for a win, 1 for a draw, 0 for a loss",
    ),
    "tie_breaks": (
        "Tie-breaks",
        "After match points, in this order; untick one to leave it out. Hover over a "
        "tie-break for its definition.",
        "Buchholz, points difference, points for, head-to-head, seed",
    ),
    "paper": (
        "Paper size",
        "The paper printed reports (pairings, standings, score sheets) are laid out for.",
        "A4",
    ),
}

CHOICE_LABELS: dict[str, str] = {
    PairingSystem.SWISS: "Swiss",
    PairingSystem.ROUND_ROBIN: "Round robin",
    PairingSystem.KNOCKOUT: "Knockout",
    RoundOne.BY_SEED: "By seed",
    RoundOne.RANDOM: "Random",
    LateEntry.ZERO: "Starts with 0 match points",
    LateEntry.BYE_EQUIVALENT: "A bye's points per missed round",
    MatchPointScheme.TWO_ONE_ZERO: "Win 2, draw 1, loss 0",
    MatchPointScheme.ONE_HALF_ZERO: "Win 1, draw ½, loss 0",
    Paper.A4: "A4",
    Paper.LETTER: "US Letter",
    Paper.A3: "A3",
}


# the match points where no match is drawn (RULES §10): the win and the loss alone
NO_DRAW_MATCH_POINTS = (
    "Match points",
    "Points for a win and a loss; a bye scores a win.",
    "2 for a win, 0 for a loss",
)


def match_points_label(scheme: MatchPointScheme, draws: bool = True) -> str:
    """A scheme's label: its draw left out where the format's matches are never drawn."""
    return CHOICE_LABELS[scheme] if draws else f"Win {scheme.win:g}, loss 0"


def choice_label(kind: type, value: str) -> str:
    """The name a person reads for one value of an option's enumeration."""
    if kind is Scoring:
        return Scoring(value).variant.label
    if kind is ClockMode:
        return ClockMode(value).label
    if kind is Format:
        return Format(value).record.label
    member = kind(value)
    return CHOICE_LABELS.get(member, str(value))


# an individual event's clock (RULES §10): the same fields read as the match's reserve
MATCH_CLOCK_TEXTS: dict[str, tuple[str, str]] = {
    "base": (
        "Reserve per match point",
        "Each player's reserve for the whole match, per point of its length (minutes:seconds); "
        "paused between games, never reset in the match.",
    ),
    "increment": (
        "Delay",
        "The simple delay of each move in seconds: the reserve runs only once it is used up.",
    ),
    "clock_mode": (
        "Clock mode",
        "Simple delay, as the US clock rules have it; Fischer or Bronstein on request.",
    ),
}
