"""Club nights on disk for the club tests: real event files with finished rounds."""

from __future__ import annotations

from pathlib import Path

from director.domain.rules import End, EventOptions, Level, Side
from director.domain.scoring import Game
from director.services import games, rounds
from director.services.events import create_event
from director.services.teams import add_team
from director.store.engine import create_database, open_database

PLAYERS = (("Ana", "Ben"), ("Cleo", "Dev"), ("Eve", "Finn"), ("Gus", "Hana"))


def win(db_path: Path, match_id: int, side: Side) -> None:
    """`side` wins the match: a backgammon on each board of the first pair."""
    db = open_database(str(db_path))
    try:
        with db.Session() as s, s.begin():
            for board in (1, 2):
                games.record_game(s, match_id, Game(0, board, side, End.BEAR_OFF,
                                                    level=Level.BACKGAMMON))  # fmt: skip
    finally:
        db.close()


def club_night(
    path: Path,
    day: str = "2026-03-05",
    winners: str = "AA",
    *,
    players: tuple[tuple[str, str], ...] = PLAYERS,
    name: str = "Club night",
    rounds_played: int = 1,
) -> Path:
    """A Tandem night of len(players) teams: each round paired and won by `winners`' sides in
    table order (one letter a match, round after round; "-" leaves it unfinished)."""
    db = create_database(str(path))
    with db.Session() as s, s.begin():
        create_event(s, name, EventOptions(), event_date=day)
        for i, pair in enumerate(players):
            add_team(s, f"Team {i + 1}", pair)
    db.close()
    letters = iter(winners)
    for _ in range(rounds_played):
        db = open_database(str(path))
        with db.Session() as s, s.begin():
            info = rounds.pair_next_round(s).value
        db.close()
        for m in sorted(info.matches, key=lambda m: m.table):
            if m.team_b is None:
                continue
            letter = next(letters)
            if letter != "-":
                win(path, m.id, Side(letter))
    return path
