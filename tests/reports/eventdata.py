"""Realistic events for the report tests and benchmarks, built through the services.

Rounds are paired with the circle method (every team meets a new opponent), games come from
the seeded simulator and go in through `record_game`, so every score obeys the rule book.
The rounds themselves are plain rows until the rounds service can pair them.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from sqlalchemy.orm import Session

from director.domain.rules import MatchRules, Scoring, Side
from director.domain.simulation import simulate_match, team_name
from director.domain.teamlist import name_key
from director.services.events import get_event, update_event
from director.services.games import record_game, set_forfeit
from director.services.matches import create_match
from director.services.simulate import unique_player
from director.services.teams import add_team
from director.store import models

# the names every report must print exactly (RULES: any name prints)
SPECIAL_TEAMS = (
    ("R&D <Team>", ("Łukasz Kowalski", "Ελένη Παπαδοπούλου")),
    ("Дмитрий & Co", ("Дмитрий Смирнов", "Zoë <Bold> O'Neill")),
)
SPECIAL_NAMES = ("Łukasz", "Ελένη", "Дмитрий", "R&D <Team>")


@dataclass(frozen=True)
class Built:
    team_ids: tuple[int, ...]
    rounds: int
    match_ids: tuple[int, ...]
    forfeit_match: int | None
    unfinished_match: int | None


def circle_pairs(team_ids: list[int], round_index: int) -> list[tuple[int, int | None]]:
    """Berger's circle method: round r of a round robin, a bye when the count is odd."""
    ids: list[int | None] = list(team_ids)
    if len(ids) % 2:
        ids.append(None)
    n = len(ids)
    fixed, rest = ids[0], ids[1:]
    shift = round_index % (n - 1)
    rest = rest[-shift:] + rest[:-shift] if shift else rest
    order = [fixed, *rest]
    pairs: list[tuple[int, int | None]] = []
    for i in range(n // 2):
        a, b = order[i], order[n - 1 - i]
        if a is None:
            a, b = b, None
        assert a is not None
        pairs.append((a, b))
    pairs.sort(key=lambda p: p[1] is None)  # the bye after the matches
    return pairs


def build_event(
    session: Session,
    *,
    teams: int = 6,
    rounds: int = 3,
    match_length: int = 5,
    scoring: Scoring = Scoring.STANDARD,
    winner_required: bool = False,
    seed: int = 7,
    forfeit: bool = True,
    unfinished: bool = True,
    name: str = "Athens & Kyiv <Open> Ελληνικό Кубок",
    one_cube_threshold: int = 2,
    no_cube_at_one_away: bool = False,
    names: tuple[tuple[str, tuple[str, str]], ...] = SPECIAL_TEAMS,
) -> Built:
    """An event with `teams` teams and `rounds` rounds; the last round may be left unfinished."""
    rng = random.Random(seed)
    options = get_event(session).options
    options = replace(
        options,
        match=MatchRules(
            match_length=match_length,
            scoring=scoring,
            winner_required=winner_required,
            one_cube_threshold=one_cube_threshold,
            no_cube_at_one_away=no_cube_at_one_away,
        ),
        rounds=rounds,
    )
    update_event(session, name=name, options=options, venue="Hall Ω", event_date="2025-03-14")
    ids: list[int] = []
    taken = {name_key(p) for _, pair in names[:teams] for p in pair}
    for i in range(teams):
        if i < len(names):
            team, players = names[i]
        else:  # a player plays for one team (FORMATS)
            team, players = (
                team_name(rng, i),
                (unique_player(rng, taken), unique_player(rng, taken)),
            )
        ids.append(add_team(session, team, players, club=f"Club {i % 4 + 1}", seed=i + 1).value.id)
    rules = get_event(session).options.match
    match_ids: list[int] = []
    forfeit_match = unfinished_match = None
    for r in range(1, rounds + 1):
        row = models.Round(number=r, published=True)
        session.add(row)
        session.flush()
        for table, (a, b) in enumerate(circle_pairs(ids, r - 1), start=1):
            match = create_match(session, a, b, round_id=row.id, table=table).value
            match_ids.append(match.id)
            if b is None:
                continue
            if forfeit and forfeit_match is None and r == 2:
                set_forfeit(session, match.id, Side.B, "did not show")
                forfeit_match = match.id
                continue
            games = simulate_match(rules, rng, strength_a=rng.uniform(0.35, 0.65))
            if unfinished and r == rounds and unfinished_match is None:
                games = games[: max(1, len(games) // 2)]
                unfinished_match = match.id
            for game in games:
                record_game(session, match.id, game)
    return Built(tuple(ids), rounds, tuple(match_ids), forfeit_match, unfinished_match)
