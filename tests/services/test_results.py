"""Recording games through the services: validated, committed, reopened from disk."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.domain.event import MatchInfo
from director.domain.match import Result, Score
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import live_cube, matches
from director.services.audit import entries
from director.services.games import correct_game, record_game, undo_last_game
from director.services.teams import add_team
from director.store.engine import EventDatabase, open_database

A, B = Side.A, Side.B


def bear_off(winner: Side, board: int, cube: int = 1, level: Level = Level.SINGLE) -> Game:
    return Game(0, board, winner, End.BEAR_OFF, cube=cube, level=level)


def reopen(path: Path, match_id: int) -> MatchInfo:
    db = open_database(str(path))
    with db.Session() as s:
        info = matches.get_match(s, match_id)
    db.close()
    return info


def record(db: EventDatabase, match_id: int, game: Game) -> MatchInfo:
    with db.Session() as s, s.begin():
        return record_game(s, match_id, game).value


def test_a_recorded_game_is_on_disk_at_once(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    record(db, match_id, bear_off(A, 1, cube=2, level=Level.GAMMON))
    info = reopen(event_path, match_id)
    assert info.outcome.score == Score(4, 0)
    assert info.games[0].pair == 1


def test_pairs_are_numbered_by_the_service(db: EventDatabase, match_id: int) -> None:
    for game in (bear_off(A, 2), bear_off(B, 1), bear_off(A, 1)):
        info = record(db, match_id, game)
    assert [g.pair for g in info.games] == [1, 1, 2]
    assert info.outcome.current_pair == 2


def test_a_game_breaking_the_one_cube_rule_is_refused_and_nothing_written(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    record(db, match_id, bear_off(A, 1, cube=2))
    record(db, match_id, bear_off(A, 2))  # 3-0: A is 2-away, so pair 2 is a one-cube pair
    record(db, match_id, bear_off(B, 1, cube=2))
    with pytest.raises(UserError, match="the cube is on board 1, dead here"):
        record(db, match_id, Game(0, 2, B, End.PASS, cube=1))
    assert len(reopen(event_path, match_id).games) == 3


def test_the_match_is_over_no_more_games(db: EventDatabase, match_id: int) -> None:
    record(db, match_id, bear_off(A, 1, cube=2, level=Level.BACKGAMMON))
    info = record(db, match_id, bear_off(B, 2))
    assert info.outcome.result is Result.A
    with pytest.raises(UserError, match="the match is over"):
        record(db, match_id, bear_off(B, 1))


def test_correcting_a_game_needs_a_reason_and_is_audited(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    info = record(db, match_id, bear_off(A, 1))
    game_id = info.game_ids[0]
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="reason"):
        correct_game(s, game_id, bear_off(A, 1, level=Level.GAMMON), " ")
    with db.Session() as s, s.begin():
        correct_game(s, game_id, bear_off(A, 1, level=Level.GAMMON), "scoresheet said gammon")
    assert reopen(event_path, match_id).outcome.score == Score(2, 0)
    with db.Session() as s:
        [line] = [e for e in entries(s) if e.action == "correct game"]
    assert line.reason == "scoresheet said gammon"
    assert '"gammon"' in line.after and '"single"' in line.before


def test_undo_the_last_game(db: EventDatabase, event_path: Path, match_id: int) -> None:
    record(db, match_id, bear_off(A, 1))
    record(db, match_id, bear_off(B, 2, cube=2))
    with db.Session() as s, s.begin():
        undo_last_game(s, match_id)
    info = reopen(event_path, match_id)
    assert info.outcome.score == Score(1, 0)
    assert info.outcome.cube_board is None


def test_live_cube_one_cube_pair_kills_the_other_board(db: EventDatabase, match_id: int) -> None:
    record(db, match_id, bear_off(A, 1, cube=2))
    record(db, match_id, bear_off(A, 2))  # 3-0 to A: the next pair is a one-cube pair
    with db.Session() as s, s.begin():
        info = live_cube.cube_action(s, match_id, 2, "offer", B).value
    assert info.pair_state.cube_board == 2
    allowed, reason = info.may_double(1)
    assert not allowed and "the cube is on board 2" in reason
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="dead here"):
        live_cube.cube_action(s, match_id, 1, "offer", A)
    with db.Session() as s, s.begin():
        info = live_cube.cube_action(s, match_id, 2, "take").value
    assert info.cubes.of(2).value == 2 and info.cubes.of(2).owner is A


def test_a_pass_is_recorded_as_the_doubler_winning_the_value_before(
    db: EventDatabase, match_id: int
) -> None:
    with db.Session() as s, s.begin():
        live_cube.cube_action(s, match_id, 1, "offer", B)
        info = matches.get_match(s, match_id)
        game = info.pair_state.pass_game(1)
        info = record_game(s, match_id, game).value
    assert info.outcome.score == Score(0, 1)
    assert info.games[0].end is End.PASS


def test_check_finds_a_tampered_stored_score(db: EventDatabase, match_id: int) -> None:
    record(db, match_id, bear_off(A, 1))
    with db.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE match SET score_a = 9")
    with db.Session() as s:
        [problem] = matches.stored_differences(s)
    assert "stored (9, 0" in problem
    with db.Session() as s, s.begin():
        _, fixed = matches.rescore_match(s, match_id)
    assert fixed
    with db.Session() as s:
        assert matches.stored_differences(s) == []


def test_a_team_cannot_play_itself(db: EventDatabase, match_id: int) -> None:
    with db.Session() as s, s.begin():
        team = matches.get_match(s, match_id).team_a.id
        with pytest.raises(UserError, match="cannot play itself"):
            matches.create_match(s, team, team)


def test_a_dead_board_cannot_record_a_doubled_game(db: EventDatabase, match_id: int) -> None:
    record(db, match_id, bear_off(A, 1, cube=2))
    record(db, match_id, bear_off(A, 2))  # 3-0: pair 2 is a one-cube pair
    with db.Session() as s, s.begin():
        live_cube.cube_action(s, match_id, 1, "offer", B)  # board 1 takes the cube
    with pytest.raises(UserError, match="pair 2, board 2: both boards .* dead here"):
        record(db, match_id, bear_off(B, 2, cube=2))
    assert record(db, match_id, bear_off(B, 2)).outcome.score == Score(3, 1)


def test_rules_4_a_corrected_game_re_derives_the_cube_board(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    """Defect 5: correcting board 1's doubled game to cube 1 frees board 2's cube."""
    record(db, match_id, bear_off(A, 1, cube=2))
    record(db, match_id, bear_off(A, 2))  # 3-0: pair 2 is a one-cube pair
    info = record(db, match_id, bear_off(B, 1, cube=2))
    assert not info.may_double(2).allowed
    with db.Session() as s, s.begin():
        correct_game(s, info.game_ids[-1], bear_off(B, 1), "the cube was never turned")
    again = reopen(event_path, match_id)
    assert again.pair_state.cube_board is None
    assert again.may_double(2).allowed
    assert record(db, match_id, bear_off(B, 2, cube=2)).outcome.problems == ()


def test_rules_4_a_withdrawn_offer_leaves_no_cube_board(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    """Defect 5: an offer withdrawn as a mis-click never happened (RULES §4)."""
    record(db, match_id, bear_off(A, 1, cube=2))
    record(db, match_id, bear_off(A, 2))
    with db.Session() as s, s.begin():
        live_cube.cube_action(s, match_id, 1, "offer", B)
        live_cube.cube_action(s, match_id, 1, "withdraw")
    info = reopen(event_path, match_id)
    assert info.pair_state.cube_board is None
    assert info.may_double(2).allowed
    assert record(db, match_id, bear_off(B, 2, cube=2)).pair_state.cube_board == 2


def test_rules_3_rule_4_prime_is_on_for_a_knockout_match(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        a = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
        row = matches.new_match_row(s, a, b, knockout=True)
        s.flush()
        info = matches.get_match(s, row.id)
    assert info.rules.winner_required


def test_rules_5_prime_record_game_refuses_an_agreed_level_when_the_option_is_off(
    tmp_path: Path,
) -> None:
    """Defect 4: the option is one of the rules the domain applies, not a hidden field."""
    from director.domain.rules import EventOptions, MatchRules
    from director.services.events import create_event
    from director.store.engine import create_database

    db = create_database(str(tmp_path / "strict.tandem"))
    with db.Session() as s, s.begin():
        create_event(s, "Strict", EventOptions(match=MatchRules(agreed_lower_forfeit=False)))
        a = add_team(s, "Blue Bar", ("Ana", "Ben")).value.id
        b = add_team(s, "Gammonites", ("Cleo", "Dev")).value.id
        match_id = matches.create_match(s, a, b).value.id
    agreed = Game(0, 1, A, End.TIME, loser_borne_off=0, agreed_level=Level.GAMMON)
    with pytest.raises(UserError, match="pair 1, board 1: this event does not apply rule 5′"):
        record(db, match_id, agreed)
    assert record(db, match_id, replace(agreed, agreed_level=None)).outcome.score == Score(3, 0)
    db.close()


def test_rules_3_a_correction_ending_the_match_sooner_voids_the_later_games_in_one_step(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    """#12: correcting an early game that would have ended the match sooner was refused while
    later games existed; now the correction names the games it voids and removes them with
    the correction, in one audited change."""
    games = [bear_off(A, 1), bear_off(B, 2), bear_off(A, 1), bear_off(A, 2)]
    games += [bear_off(A, 1), bear_off(A, 2)]  # a match to 5: 1-1, 3-1, 5-1
    for game in games:
        info = record(db, match_id, game)
    assert info.outcome.result is Result.A
    first, later = info.game_ids[0], info.game_ids[4:]
    gammon = bear_off(A, 1, cube=2, level=Level.GAMMON)  # 4-1 after pair 1, 6-1 after pair 2
    with db.Session() as s, s.begin(), pytest.raises(UserError) as refused:
        correct_game(s, first, gammon, "scoresheet: a gammon on a 2-cube")
    assert "voids the later games pair 3, board 1" in str(refused.value)
    shown = reopen(event_path, match_id)
    assert shown.outcome.score == Score(5, 1)  # nothing written
    with db.Session() as s, s.begin():
        correct_game(
            s, first, gammon, "scoresheet: a gammon on a 2-cube", voids=later, version=shown.version
        )
    info = reopen(event_path, match_id)
    assert info.outcome.score == Score(6, 1)
    assert info.outcome.result is Result.A
    assert len(info.games) == 4
    assert [g.pair for g in info.games] == [1, 1, 2, 2]
    with db.Session() as s:
        log = entries(s)
        assert matches.stored_differences(s) == []
    [corrected] = [e for e in log if e.action == "correct game"]
    assert "voids 2 later games: pair 3, board 1" in corrected.reason
    voided = [e for e in log if e.action == "void game"]
    assert [e.target for e in voided] == [f"match {match_id} game {g}" for g in later]
    assert all("a gammon on a 2-cube" in e.reason for e in voided)


def test_a_match_read_before_is_used_only_while_its_version_holds(
    db: EventDatabase, event_path: Path, match_id: int
) -> None:
    """`record_game(read=...)` spares the slips' confirmation a second read of the match: the
    match as read is used while nothing has changed it since; one the desk changed meanwhile is
    read again, so the game is the next after the desk's, not in its place. Either way the
    match answered is the match on disk."""
    with db.Session() as s:
        stale = matches.get_match(s, match_id)
    record(db, match_id, bear_off(A, 1))  # the desk, meanwhile
    with db.Session() as s, s.begin():
        after_desk = record_game(s, match_id, bear_off(B, 2), read=stale).value
    assert [(g.winner, g.board) for g in after_desk.games] == [(A, 1), (B, 2)]
    assert after_desk == reopen(event_path, match_id)
    with db.Session() as s, s.begin():
        current = matches.get_match(s, match_id)
        answered = record_game(s, match_id, bear_off(A, 1), read=current).value
    assert answered == reopen(event_path, match_id)
    assert answered.outcome.current_pair == 2 and len(answered.games) == 3
