"""The audit log read as sentences (#24 point 4): it showed raw JSON with nanoseconds, lists of
team ids and a forfeit as just "A". Every line names its teams and matches, its times as a
clock shows them, and keeps the reason apart."""

from __future__ import annotations

import re

import pytest

from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import audit, clocks, games, manual_pairing, rounds, teams
from director.services.manual_pairing import Edit
from director.store.engine import EventDatabase
from tests.services.test_rounds import add_teams, finish_round

SECOND = 1_000_000_000


def sentences(db: EventDatabase) -> dict[str, str]:
    """Each action's (last) line as the log shows it: the sentence, then the reason."""
    with db.Session() as s:
        places = {p.id: p for p in audit.match_places(s)}
        names = audit.team_names(s)
        lines = audit.entries(s)
    out = {}
    for line in lines:
        when, _station, what, reason = line.row(places, names)
        assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", when)
        out[line.action] = f"{what} | {reason}"
    return out


@pytest.fixture
def logged(db: EventDatabase) -> dict[str, str]:
    """An evening's corrections, overrides and adjustments on four teams."""
    one, two, three, four = add_teams(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
        manual_pairing.edit_round(s, 1, Edit.SWAP, one, three, "same club")
        manual_pairing.set_forbidden(s, one, two, True, "brothers")
        rounds.repair_round(s, 1, reason="the swap was wrong")
    with db.Session() as s, s.begin():
        first, second = rounds.get_round(s, 1).matches
        games.set_forfeit(s, second.id, Side.B, "no show by 20:15")
        won = Game(1, 1, Side.A, End.BEAR_OFF, cube=2, level=Level.SINGLE)
        games.record_game(s, first.id, won)
        game_id = games.get_match(s, first.id).game_ids[0]
        games.correct_game(s, game_id, Game(1, 1, Side.A, End.BEAR_OFF, 2, Level.GAMMON), "slip")
        clocks.record_adjustment(
            s, first.id, 1, Side.B, 252 * SECOND + 123, 300 * SECOND, 5 * SECOND, "clock jammed"
        )
        games.undo_last_game(s, first.id, reason="wrong board")
        teams.edit_team(s, four, name="Team Four")
        teams.withdraw_team(s, four)
    return sentences(db)


def test_no_line_shows_json_ids_or_nanoseconds(logged: dict[str, str]) -> None:
    for action, line in logged.items():
        assert not re.search(r"[\[\]{}]|_ns|\bteam_[ab]\b|\d{7,}", line), (action, line)


def test_a_forfeit_names_the_team_that_did_not_show(logged: dict[str, str]) -> None:
    line = logged["forfeit"]
    assert "Team 4 did not show" in line or "Team Four did not show" in line
    assert "round 1, table 2" in line and line.endswith("| no show by 20:15")


def test_pairings_are_read_as_tables_and_team_names(logged: dict[str, str]) -> None:
    line = logged["pair again"]
    assert line.startswith("Round 1 paired again by the engine:")
    assert "table 1: Team 1 v Team" in line and "before: table 1:" in line
    assert "the swap was wrong" in line
    assert logged["edit pairings"].startswith("Round 1's pairings changed by hand:")
    assert logged["forbid pair"] == "Team 1 and Team 2 must not meet | brothers"


def test_a_correction_and_a_clock_adjustment_read_as_a_director_says_them(
    logged: dict[str, str],
) -> None:
    correct = logged["correct game"]
    assert correct.startswith("Pair 1, board 1 corrected at round 1, table 1")
    assert "won by Team 1, bear-off, single, cube 2 → won by Team 1, bear-off, gammon" in correct
    clock = logged["clock-adjust"]
    assert clock.startswith("Board 1: the clock of Team") and "set 4:12 → 5:00" in clock
    assert clock.endswith("| clock jammed")
    assert logged["undo game"].startswith("The last game undone at round 1, table 1")
    assert logged["edit team"] == "Team 4 renamed Team Four | "
    assert logged["withdraw team"] == "Team Four withdrawn | "


def test_an_undone_round_says_which(db: EventDatabase) -> None:
    """A round finished, the next paired and undone: 'undo round' says which round."""
    add_teams(db, 4)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
    finish_round(db, 1)
    with db.Session() as s, s.begin():
        rounds.pair_next_round(s)
        rounds.undo_last_round(s)
    assert sentences(db)["undo round"] == "Round 2 undone: its pairings deleted | "
