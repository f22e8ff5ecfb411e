"""Club nights on disk for the club tests: real event files with finished rounds."""

from __future__ import annotations

from pathlib import Path

from director.domain.rules import End, EventOptions, Format, Level, Side
from director.domain.scoring import Game
from director.services import games, rounds
from director.services.events import create_event
from director.services.matches import get_match
from director.services.teams import add_team
from director.store.engine import create_database, open_database

PLAYERS = (("Ana", "Ben"), ("Cleo", "Dev"), ("Eve", "Finn"), ("Gus", "Hana"))


def win(db_path: Path, match_id: int, side: Side) -> None:
    """`side` wins the match: a backgammon on each board of the first pair (Tandem), or
    backgammons on board 1 until the match ends (individual)."""
    db = open_database(str(db_path))
    try:
        with db.Session() as s, s.begin():
            match = get_match(s, match_id)
            if match.rules.format is Format.INDIVIDUAL:
                while not (match := get_match(s, match_id)).outcome.finished:
                    game = Game(match.outcome.current_pair, 1, side, End.BEAR_OFF,
                                level=Level.BACKGAMMON)  # fmt: skip
                    games.record_game(s, match_id, game)
                return
            for board in (1, 2):
                games.record_game(s, match_id, Game(0, board, side, End.BEAR_OFF,
                                                    level=Level.BACKGAMMON))  # fmt: skip
    finally:
        db.close()


def play_round(path: Path, winners: str) -> None:
    """Pair the next round; its matches in table order are won by `winners`' sides (one letter
    a match, "-" leaves it unfinished)."""
    db = open_database(str(path))
    with db.Session() as s, s.begin():
        info = rounds.pair_next_round(s).value
    db.close()
    letters = iter(winners)
    for m in sorted(info.matches, key=lambda m: m.table):
        if m.team_b is not None and (letter := next(letters)) != "-":
            win(path, m.id, Side(letter))


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
    per_round = len(players) // 2
    for r in range(rounds_played):
        play_round(path, winners[r * per_round : (r + 1) * per_round])
    return path


def publish_to(club_path: Path, event: Path) -> None:
    """Publish the event's results to the club as they are, every name matched as it comes."""
    from director.services import club
    from director.store.club import open_club

    db = open_database(str(event), read_only=True)
    try:
        with db.Session() as s:
            results = club.event_results(s)
    finally:
        db.close()
    cdb = open_club(str(club_path), make_backup=False)
    try:
        with cdb.Session() as s, s.begin():
            club.publish(s, results, club.match_event(s, results))
    finally:
        cdb.close()
