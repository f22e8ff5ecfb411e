"""Results from paper through the service (#24 point 5): one table at a time, validated by the
match's rules, audited with names, counted in the standings, and on disk when reopened."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.domain.rules import End, EventOptions, Level, MatchRules, Side
from director.domain.score import Result, Score
from director.domain.scoring import Game
from director.services import matches, rounds
from director.services.audit import entries, match_places, team_names
from director.services.events import update_event
from director.services.games import record_game, set_forfeit, undo_last_game
from director.services.paper import enter_paper_result, paper_refusal
from director.services.standings import board_statistics, event_crosstable, standings
from director.services.teams import add_team
from director.store.engine import EventDatabase
from director.web.views import match_detail, rules
from tests.event_files import read_back, stored_match

SINGLE = Game(1, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE)


def _enter(db: EventDatabase, match_id: int, score: Score | None) -> None:
    with db.Session() as s, s.begin():
        enter_paper_result(s, match_id, score)


def test_a_paper_score_is_the_matchs_result_on_disk(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    _enter(db, match_id, Score(5, 3))
    info = stored_match(event_path, match_id)
    assert info.outcome.from_paper and info.outcome.result is Result.A
    assert info.outcome.final == Score(5, 3) and not info.games
    assert read_back(event_path, matches.stored_differences) == []


def test_a_score_the_rules_refuse_writes_nothing(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    with pytest.raises(UserError, match="not over"), db.Session() as s, s.begin():
        enter_paper_result(s, match_id, Score(4, 3))
    info = stored_match(event_path, match_id)
    assert info.outcome.result is Result.UNFINISHED and not info.outcome.finished
    assert read_back(event_path, entries) == []


def test_it_is_audited_as_a_sentence_with_the_names(db: EventDatabase, match_id: int) -> None:
    _enter(db, match_id, Score(5, 3))
    _enter(db, match_id, Score(3, 6))
    _enter(db, match_id, None)
    with db.Session() as s:
        places = {p.id: p for p in match_places(s)}
        lines = [line.row(places, team_names(s))[2] for line in entries(s)]
    assert lines[0] == (
        "Result from paper at a match of no round (Blue Bar v Gammonites): 5–3, Blue Bar wins"
    )
    assert lines[1].endswith(": 3–6, Gammonites wins (was 5–3, Blue Bar wins)")
    assert lines[2].startswith("The result from paper at ") and "cleared" in lines[2]


def test_a_match_played_at_the_desk_a_bye_and_a_forfeit_are_not_typed_from_paper(
    db: EventDatabase, match_id: int
) -> None:
    with db.Session() as s, s.begin():
        record_game(s, match_id, SINGLE)
        assert "played game by game at the desk (1 game)" in paper_refusal(
            matches.get_match(s, match_id)
        )
        with pytest.raises(UserError, match="correct it there"):
            enter_paper_result(s, match_id, Score(5, 3))
        other = add_team(s, "Doublers", ("Eve", "Fay")).value.id
        bye = matches.create_match(s, other, None).value
        assert paper_refusal(bye) == "a bye: no match was played"
        third = add_team(s, "Primes", ("Gus", "Hal")).value.id
        forfeit = matches.create_match(s, other, third, table=2).value.id
        set_forfeit(s, forfeit, Side.B, "did not come")
        assert "forfeit" in paper_refusal(matches.get_match(s, forfeit))


def test_the_desk_records_no_game_on_a_paper_result(db: EventDatabase, match_id: int) -> None:
    _enter(db, match_id, Score(5, 3))
    with pytest.raises(UserError, match="typed from paper"), db.Session() as s, s.begin():
        record_game(s, match_id, SINGLE)


def test_undoing_the_only_game_of_a_decided_match_leaves_no_paper_result(
    db: EventDatabase, event_path: Path
) -> None:
    with db.Session() as s, s.begin():
        a = add_team(s, "Solo A", ("Ana", "Ben")).value.id
        b = add_team(s, "Solo B", ("Cleo", "Dev")).value.id
        row = matches.new_match_row(s, a, b, table=1, length=1, knockout=True)  # rule 4′
        s.flush()
        match_id = row.id
        assert record_game(s, match_id, SINGLE).value.outcome.finished
        undo_last_game(s, match_id)
    info = stored_match(event_path, match_id)
    assert not info.outcome.finished and not info.outcome.from_paper


def test_the_standings_count_a_paper_result(db: EventDatabase, event_path: Path) -> None:
    with db.Session() as s, s.begin():
        for i in range(4):
            add_team(s, f"Team {i + 1}", (f"A{i}", f"B{i}"))
        played = rounds.pair_next_round(s).value.matches
    for match, score in zip(played, (Score(5, 2), Score(1, 6)), strict=True):
        _enter(db, match.id, score)
    table = read_back(event_path, standings)
    winners = {played[0].team_a.id, played[1].team_b.id}
    assert {line.team.id for line in table.lines if line.row.match_points == 2} == winners
    assert table.heading == "after round 1"
    assert read_back(event_path, rounds.next_round_number) == 2  # round 1 is finished


def test_a_match_to_one_point_is_said_in_the_singular(db: EventDatabase) -> None:
    """The phones' rules page of a final to 1 point read "Matches are played to 1 points"."""
    with db.Session() as s, s.begin():
        update_event(s, options=EventOptions(match=MatchRules(match_length=1)))
        for i in range(2):
            add_team(s, f"Team {i + 1}", (f"A{i}", f"B{i}"))
        rounds.pair_next_round(s)
    with db.Session() as s:
        assert rules(s)["lines"][0].startswith("Matches are played to 1 point, two boards")


def test_crosstable_boards_phones_and_check_read_a_paper_result_as_a_result(
    db: EventDatabase, event_path: Path
) -> None:
    """The match counts wherever a result counts; the figures of its games are absent."""
    with db.Session() as s, s.begin():
        for i in range(2):
            add_team(s, f"Team {i + 1}", (f"A{i}", f"B{i}"))
        match = rounds.pair_next_round(s).value.matches[0]
    _enter(db, match.id, Score(2, 5))
    a, b = match.team_a.id, match.team_b.id  # type: ignore[union-attr]
    cells = read_back(event_path, event_crosstable)
    assert (cells[a][1].result, cells[a][1].points_for, cells[a][1].points_against) == ("L", 2, 5)
    assert (cells[b][1].result, cells[b][1].points_for, cells[b][1].points_against) == ("W", 5, 2)
    assert all(t.games == 0 for t in read_back(event_path, board_statistics))
    phone = read_back(event_path, lambda s: match_detail(s, match.id))
    assert (phone["score"], phone["result"], phone["status"]) == (
        {"A": 2, "B": 5},
        "B",
        "finished",
    )
    assert phone["games_list"] == [] and phone["games"] == 0
    db.close()
    done = subprocess.run(
        [str(Path(sys.executable).with_name("tandem-director")), "check", str(event_path)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert (done.returncode, done.stdout.strip()) == (0, f"{event_path}: OK"), done
