"""Event options and teams through the services, checked on disk."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.domain.rules import End, Level, MatchRules, PairingSystem, Side, TimeControl
from director.domain.scoring import Game
from director.services import events, games, matches, teams
from director.store.engine import EventDatabase, open_database

CSV_OK = "team,player1,player2,club\nBlue,Ana,Ben,North\nR&D <Team>,Łukasz,Ελένη,South\n"
CSV_BAD = CSV_OK + "Blue,Дмитрий,X,\n"


def team_names(path: Path) -> list[str]:
    db = open_database(str(path))
    with db.Session() as s:
        names = [t.name for t in teams.list_teams(s)]
    db.close()
    return names


def test_match_rules_are_locked_once_games_are_recorded(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        a = teams.add_team(s, "A", ("a1", "a2")).value.id
        b = teams.add_team(s, "B", ("b1", "b2")).value.id
        m = matches.create_match(s, a, b).value.id
        info = events.get_event(s)
        longer = replace(info.options, match=MatchRules(match_length=7))
        events.update_event(s, options=longer)  # fine: nothing recorded yet
        games.record_game(s, m, Game(0, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="cannot change once games"):
        events.update_event(s, options=replace(longer, match=MatchRules(match_length=9)))
    with db.Session() as s, s.begin():  # the clock may still change
        events.update_event(s, options=replace(longer, time_control=TimeControl(180, 15)))
    with db.Session() as s:
        opts = events.get_event(s).options
    assert opts.match.match_length == 7 and opts.time_control.base_seconds == 180


def test_bad_event_options_are_refused(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        info = events.get_event(s)
        with pytest.raises(UserError, match="one-cube threshold"):
            events.update_event(
                s, options=replace(info.options, match=MatchRules(one_cube_threshold=3))
            )
        with pytest.raises(UserError, match="needs a name"):
            events.update_event(s, name="  ")


def test_knockout_forces_rule_4_prime(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        info = events.get_event(s)
        events.update_event(s, options=replace(info.options, pairing_system=PairingSystem.KNOCKOUT))
        a = teams.add_team(s, "A", ("a1", "a2")).value.id
        b = teams.add_team(s, "B", ("b1", "b2")).value.id
        assert matches.create_match(s, a, b).value.rules.winner_required


def test_csv_with_a_bad_row_imports_nothing(db: EventDatabase, event_path: Path) -> None:
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="line 4: team 'Blue'"):
        teams.import_teams(s, CSV_BAD.encode())
    assert team_names(event_path) == []


def test_csv_skip_bad_rows_imports_the_good_ones(db: EventDatabase, event_path: Path) -> None:
    with db.Session() as s, s.begin():
        result = teams.import_teams(s, CSV_BAD.encode(), skip_bad_rows=True).value
    assert [b.line for b in result.skipped] == [4]
    assert team_names(event_path) == ["Blue", "R&D <Team>"]


def test_export_reimports_into_another_event(
    db: EventDatabase, template_event: Path, tmp_path: Path
) -> None:
    import shutil

    with db.Session() as s, s.begin():
        teams.import_teams(s, CSV_OK)
        teams.add_team(s, "=HYPERLINK()", ("@a", "-b"))
    with db.Session() as s:
        exported = teams.export_teams(s)
    assert "'=HYPERLINK()" in exported
    other = tmp_path / "other.tandem"
    shutil.copy(template_event, other)
    db2 = open_database(str(other))
    with db2.Session() as s, s.begin():
        teams.import_teams(s, exported)
    db2.close()
    assert team_names(other) == ["Blue", "R&D <Team>", "'=HYPERLINK()"]


def test_duplicate_names_and_empty_players_are_refused(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        teams.add_team(s, "Blue", ("Ana", "Ben"))
        with pytest.raises(UserError, match="already registered"):
            teams.add_team(s, "BLUE", ("x", "y"))
        with pytest.raises(UserError, match="board 2 player cannot be empty"):
            teams.add_team(s, "Red", ("x", " "))


def test_remove_only_before_play_then_withdraw(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        a = teams.add_team(s, "A", ("a1", "a2")).value.id
        b = teams.add_team(s, "B", ("b1", "b2")).value.id
        c = teams.add_team(s, "C", ("c1", "c2")).value.id
        matches.create_match(s, a, b)
        teams.remove_team(s, c)
        with pytest.raises(UserError, match="withdraw it instead"):
            teams.remove_team(s, a)
        assert teams.withdraw_team(s, a).value.withdrawn


def test_stale_edit_is_refused(db: EventDatabase) -> None:
    with db.Session() as s, s.begin():
        team = teams.add_team(s, "A", ("a1", "a2")).value
    with db.Session() as s, s.begin():
        teams.edit_team(s, team.id, version=team.version, club="North")
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="another station"):
        teams.edit_team(s, team.id, version=team.version, club="South")


def test_the_clock_is_locked_while_a_match_clock_has_run(db: EventDatabase) -> None:
    from director.domain.clock import MatchClock
    from director.services.clocks import append_events

    with db.Session() as s, s.begin():
        a = teams.add_team(s, "A", ("a1", "a2")).value.id
        b = teams.add_team(s, "B", ("b1", "b2")).value.id
        match = matches.create_match(s, a, b).value.id
        info = events.get_event(s)
    clock = MatchClock(info.options.time_control, lambda: 0)
    clock.set_first_mover(1, Side.A, 0)
    clock.set_first_mover(2, Side.B, 0)
    clock.start(0)
    with db.Session() as s, s.begin():
        append_events(s, match, 1, clock.events)
    slower = replace(info.options, time_control=TimeControl(300, 5))
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="keep a clock log"):
        events.update_event(s, options=slower)
    with db.Session() as s, s.begin():
        games.set_forfeit(s, match, Side.B, "no show")  # the match is over: free again
        events.update_event(s, options=slower)


def test_the_clock_lock_names_the_matches_with_a_log_and_a_reset_frees_it(
    db: EventDatabase,
) -> None:
    """Issue #24: it said "running" of a paused, reset clock, and no reset existed."""
    from director.domain.clock import MatchClock
    from director.services import audit, clocks
    from director.services.clocks import append_events

    with db.Session() as s, s.begin():
        a = teams.add_team(s, "Blue Bar", ("a1", "a2")).value.id
        b = teams.add_team(s, "Gammonites", ("b1", "b2")).value.id
        match = matches.create_match(s, a, b, table=3).value.id
        info = events.get_event(s)
    clock = MatchClock(info.options.time_control, lambda: 0)
    clock.set_first_mover(1, Side.A, 0)
    clock.set_first_mover(2, Side.B, 0)
    clock.start(0)
    clock.pause(1)
    clock.reset(1)
    clock.reset(2)
    with db.Session() as s, s.begin():
        append_events(s, match, 0, clock.events)
    slower = replace(info.options, time_control=TimeControl(300, 5))
    with db.Session() as s, s.begin():
        lock = events.option_locks(s).time_control
    assert "running" not in lock
    assert "table 3 (Blue Bar v Gammonites)" in lock and "reset their clocks" in lock
    with db.Session() as s, s.begin(), pytest.raises(UserError, match="reason"):
        clocks.reset_unfinished_clocks(s, " ")
    with db.Session() as s, s.begin():
        assert clocks.reset_unfinished_clocks(s, "new time control tonight").value == 1
    with db.Session() as s, s.begin():
        assert events.option_locks(s).time_control == ""
        events.update_event(s, options=slower)
        kept = [e for e in audit.entries(s, match=match) if e.action == "clocks reset"]
    assert kept and "start" in kept[0].before and kept[0].reason == "new time control tonight"
