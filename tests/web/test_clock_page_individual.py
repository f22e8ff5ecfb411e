"""An individual match's clock on a phone (RULES §10), in headless Chromium against the real
table service: board 1 alone on the match reserve with a simple delay; a recorded game pauses
it with both reserves kept (no stop, no reset), the next game starts with a tap, and a flag
says the match is lost (the desk records it with `games.record_lost_on_time`)."""

from __future__ import annotations

from pathlib import Path

from director.domain.clock import EventKind, Phase, replay
from director.domain.rules import (
    ClockMode,
    End,
    EventOptions,
    Format,
    Level,
    MatchRules,
    Side,
    TimeControl,
)
from director.domain.scoring import Game
from director.services import games, matches, rounds, slips
from director.services.events import update_event
from director.services.teams import add_player
from director.web.server import TableService
from tests.web.clock_browser import tap
from tests.web.test_clock_page import clock_page, kinds, page, stored, synced, wait_for

A, B = Side.A, Side.B


def individual_match(service: TableService, per_point: int = 120) -> tuple[int, str]:
    """The first match of a round of four players, to 5 (a second match keeps the round
    going after this one: a finished round's tokens open nothing)."""
    db = service.web.db
    options = EventOptions(
        match=MatchRules(match_length=5, format=Format.INDIVIDUAL),
        time_control=TimeControl(per_point, 12, ClockMode.DELAY),
    )
    with db.Session() as s, s.begin():
        update_event(s, options=options)
        for name in ("Ana", "Cleo", "Dora", "Eve"):
            add_player(s, name)
        match = rounds.pair_next_round(s).value.matches[0]
        token = slips.token_for(s, match.id, A)
    assert token is not None
    return match.id, token


def names(service: TableService, match_id: int) -> tuple[str, str]:
    with service.web.db.Session() as s:
        match = matches.get_match(s, match_id)
    assert match.team_b is not None
    return match.team_a.name, match.team_b.name


def record(service: TableService, match_id: int, winner: Side) -> None:
    with service.web.db.Session() as s, s.begin():
        number = matches.get_match(s, match_id).outcome.current_pair
        games.record_game(s, match_id, Game(number, 1, winner, End.BEAR_OFF, level=Level.SINGLE))
    service.notify()


def test_rules_10_a_recorded_game_pauses_the_match_reserve_and_a_tap_starts_the_next(
    served: tuple[TableService, str], tmp_path: Path
) -> None:
    service, url = served
    match_id, token = individual_match(service)
    db = service.web.db
    with clock_page(url, token, 1) as one:
        shown = one.find_element("id", "face-near").text
        assert (
            names(service, match_id)[0] in shown and "10:00" in shown and "·" not in shown
        )  # a player, no team
        assert "game 1 · match reserve" in one.find_element("id", "status").text
        tap(one, "face-near")  # Ana moves first
        wait_for(lambda: synced(one))
        one.find_element("id", "start").click()  # the desk's start: board 1 alone is ready
        wait_for(lambda: page(one, "phase") == "running")
        tap(one, "face-near")  # Ana's move ends: Cleo runs
        wait_for(lambda: synced(one))
        record(service, match_id, A)
        wait_for(lambda: page(one, "phase") == "paused")
        wait_for(lambda: synced(one))
        assert "tap to start your opponent" in one.find_element("id", "face-near").text
        one.save_screenshot(str(tmp_path / "between-games.png"))
        paused = stored(db, match_id, 1)
        with db.Session() as s:
            tc = matches.get_match(s, match_id).time_control
        board = replay(paused, tc).board(1)
        assert board.phase is Phase.PAUSED and board.on_move is B
        reserves = (board.a.remaining_ns, board.b.remaining_ns)
        assert 0 < reserves[1] <= 600 * 10**9 and reserves[0] == 600 * 10**9  # Ana in her delay
        tap(one, "face-far")  # Cleo was on move: her tap starts game 2 with Ana to play
        wait_for(lambda: page(one, "phase") == "running")
        wait_for(lambda: synced(one))
        log = stored(db, match_id, 1)
        after = replay(log, tc).board(1)
        assert after.on_move is A
        assert after.b.remaining_ns == reserves[1]  # the reserves were kept, not reset
        assert "reset" not in kinds(log) and "stop" not in kinds(log)
        assert kinds(log)[-2:] == ["resume", "press"]
        one.save_screenshot(str(tmp_path / "game-2.png"))


def test_rules_10_a_flag_on_the_phone_loses_the_match_at_the_desk(
    served: tuple[TableService, str],
) -> None:
    service, url = served
    match_id, token = individual_match(service, per_point=1)  # a 5 s reserve
    db = service.web.db
    with clock_page(url, token, 1) as one:
        tap(one, "face-near")
        wait_for(lambda: synced(one))
        one.find_element("id", "start").click()
        wait_for(lambda: page(one, "phase") == "stopped", timeout=30)  # 12 s delay + 5 s
        wait_for(lambda: synced(one))
        ana, cleo = names(service, match_id)
        assert (
            f"{ana}'s reserve ran out: {cleo} wins the match"
            in one.find_element("id", "status").text
        )
        assert not one.find_element("id", "forfeit").is_displayed()  # no rule 5 game slip
        log = stored(db, match_id, 1)
        assert [(e.kind, e.side) for e in log if e.kind is EventKind.FLAG] == [
            (EventKind.FLAG, A)
        ], log[-3:]
        with db.Session() as s, s.begin():  # as the desk's clock window records it
            games.record_lost_on_time(s, match_id, A)
        service.notify()
        wait_for(lambda: "Match over" in one.find_element("id", "status").text)
        with db.Session() as s:
            assert matches.get_match(s, match_id).outcome.final.b == 5
