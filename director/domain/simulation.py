"""Plausible games for demos, screenshots and benchmarks: a seeded, rule-abiding match generator.

Rates follow club play: about 28% of wins are gammons and a few backgammons; most doubled
games are taken, about a quarter passed; a few games are resigned or lost on time. Every
generated game is checked by `score_match`, so the one-cube rule and rule 4/4′ hold.
"""

from __future__ import annotations

import random
from dataclasses import replace

from director.domain.cube import CubeRegime
from director.domain.match import MatchOutcome, score_match
from director.domain.rules import CHECKERS, End, Level, MatchRules, Side, Stake
from director.domain.scoring import Game, counted_by_position

FIRST_NAMES = (
    "Ana",
    "Ben",
    "Cleo",
    "Dev",
    "Eva",
    "Femi",
    "Gus",
    "Hana",
    "Ivo",
    "Jade",
    "Kofi",
    "Lena",
    "Milo",
    "Nora",
    "Omar",
    "Pia",
    "Quin",
    "Rosa",
    "Sami",
    "Tara",
    "Umar",
    "Vera",
    "Wim",
    "Xena",
    "Yuri",
    "Zoe",
    "Łukasz",
    "Ελένη",
    "Дмитрий",
    "Søren",
    "Aoife",
    "Mateo",
    "Ingrid",
    "Kenji",
)
SURNAMES = (
    "Adler",
    "Brandt",
    "Costa",
    "Dahl",
    "Evans",
    "Fischer",
    "Greco",
    "Holm",
    "Ivanova",
    "Jensen",
    "Kaya",
    "Larsen",
    "Moreau",
    "Novak",
    "Ortiz",
    "Petrov",
    "Quinn",
    "Rossi",
    "Silva",
    "Tanaka",
    "Ueda",
    "Varga",
    "Weiss",
    "Young",
    "Zeller",
    "Kowalski",
    "Papadopoulou",
    "Smirnov",
)
TEAM_WORDS = (
    "Blue Bar", "Gammonites", "Prime Time", "Double Trouble", "Anchor Crew", "Back Game",
    "Bear Off", "Blitz", "Cube Club", "Dice Devils", "Golden Point", "Hit & Run", "Pip Squeezers",
    "Running Game", "Slot Machines", "The Bar Flies", "Holding Pattern", "Acey Deucey",
    "Crawford Crew", "Mars Landing", "Beaver Lodge", "Joker Roll", "Safe Play", "Tempo Hit",
)  # fmt: skip


def team_name(rng: random.Random, index: int) -> str:
    word = TEAM_WORDS[index % len(TEAM_WORDS)]
    return word if index < len(TEAM_WORDS) else f"{word} {index // len(TEAM_WORDS) + 1}"


def player_name(rng: random.Random) -> str:
    return f"{rng.choice(FIRST_NAMES)} {rng.choice(SURNAMES)}"


def simulate_match(rules: MatchRules, rng: random.Random, strength_a: float = 0.5) -> list[Game]:
    """The games of one complete match, in finish order; team A wins a game with `strength_a`."""
    games: list[Game] = []
    outcome = score_match(rules, games)
    while not outcome.finished:
        pair = outcome.current_pair
        boards = list(rules.event_format.boards)
        rng.shuffle(boards)  # the order the games of a pair finish in
        cube_board = rng.choice(boards)
        for board in boards:
            may_cube = outcome.cube_rule.regime is CubeRegime.FREE or (
                outcome.cube_rule.regime is CubeRegime.ONE_CUBE and board == cube_board
            )
            game = simulate_game(rules, rng, pair, board, may_cube, strength_a)
            outcome = _checked(rules, games, game)
            games.append(game)
            if outcome.finished:
                break
    return games


def _checked(rules: MatchRules, games: list[Game], game: Game) -> MatchOutcome:
    outcome = score_match(rules, [*games, game])
    assert not outcome.problems, outcome.problems  # the generator must obey the rule book
    return outcome


def simulate_game(
    rules: MatchRules, rng: random.Random, pair: int, board: int, may_cube: bool, strength: float
) -> Game:
    winner = Side.A if rng.random() < strength else Side.B
    cube = 1
    end = End.BEAR_OFF
    if may_cube and rng.random() < 0.55:
        if rng.random() < 0.27:
            return _with_counts(rules, rng, Game(pair, board, winner, End.PASS, cube=_cube(rng)))
        cube = 2 * _cube(rng)
    roll = rng.random()
    if roll < 0.03 and rules.event_format.game_forfeit:  # a flag loses a game (RULES §5)
        borne_off = 0 if rng.random() < 0.4 else rng.randint(1, 14)
        agreed = Level.GAMMON if borne_off == 0 and rng.random() < 0.3 else None
        if not rules.scoring.variant.has_levels or not rules.agreed_lower_forfeit:
            agreed = None  # rule 5′ only where the event has it and its scoring has levels
        game = Game(pair, board, winner, End.TIME, cube, loser_borne_off=borne_off,
                    agreed_level=agreed)  # fmt: skip
        return _with_counts(rules, rng, game)
    if roll < 0.13:
        end = End.RESIGN
    level_roll = rng.random()
    level = (
        Level.BACKGAMMON
        if level_roll < 0.02
        else Level.GAMMON
        if level_roll < 0.28
        else Level.SINGLE
    )
    if not rules.scoring.variant.has_levels:
        level = Level.SINGLE  # RULES §6.5: no gammons
    return _with_counts(rules, rng, Game(pair, board, winner, end, cube, level=level))


def _cube(rng: random.Random) -> int:
    return 2 if rng.random() < 0.12 else 1


def _with_counts(rules: MatchRules, rng: random.Random, game: Game) -> Game:
    """Add the checker and pip counts the event's scoring asks for, consistent with the end."""
    variant = rules.scoring.variant
    loser_left = _loser_left(rng, game)
    if game.end is End.TIME:
        loser_left = CHECKERS - (game.loser_borne_off or 0)
    winner_left = 0 if game.end is End.BEAR_OFF else rng.randint(1, 12)
    if variant.squeeze is not None and not counted_by_position(rules.scoring, game.end):
        game = replace(game, winner_left=winner_left, loser_left=loser_left)
    elif variant.squeeze is not None:
        back = 1 if game.level is Level.BACKGAMMON else 0
        outfield = rng.randint(0, max(0, loser_left - back) // 3)
        game = replace(
            game,
            loser_in_winner_home_or_bar=back,
            loser_outfield=outfield,
            loser_home=loser_left - back - outfield,
        )
    if variant.stake is Stake.PIP_COUNT:
        # a checker on the bar or in the winner's home board is 19 or more pips away (RULES §2)
        low = loser_left + (18 if game.level is Level.BACKGAMMON else 0)
        game = replace(game, loser_pips=rng.randint(low, low + loser_left * 5))
    return game


def _loser_left(rng: random.Random, game: Game) -> int:
    if game.level in (Level.GAMMON, Level.BACKGAMMON):
        return CHECKERS
    return rng.randint(1, 13)
