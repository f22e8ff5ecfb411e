"""A board's clock on a phone, in headless Chromium with touch emulation, against the real
table service (RULES §7): taps on touch-down switch sides, a held finger counts once, both
boards start at one logged instant, the desk's log equals the phone's whole log after the
server was away for 30 s, the desk's pause and time restore reach the phone, and a token
opens its own match's clocks only."""

from __future__ import annotations

import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit

import pytest
from selenium import webdriver

from director.domain.clock import NS_PER_SECOND, ClockEvent, EventKind, Phase, replay
from director.domain.rules import Side
from director.services import phone_clocks, slips
from director.services.events import get_event
from director.store import models
from director.store.engine import EventDatabase
from director.web.server import TableService
from tests.web.clock_browser import centre, new_driver, phone, tap, touch_down, touch_up
from tests.web.conftest import pair_round, request

# the phone clock against the desk's, to the millisecond: alone on the machine (scripts/test.sh)
pytestmark = pytest.mark.serial

TIMEOUT = 10.0


def wait_for(what: Callable[[], object], timeout: float = TIMEOUT) -> object:
    """Poll until `what()` is truthy (the page and the server work on their own threads)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = what()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"not within {timeout} s: {what}")


@pytest.fixture
def table(served: tuple[TableService, str]) -> tuple[TableService, str, list[int], list[str]]:
    service, url = served
    ids = pair_round(service.web.db, 4)
    with service.web.db.Session() as s, s.begin():
        tokens = [slips.token_for(s, m, Side.A) for m in ids]
    return service, url, ids, [t for t in tokens if t]


@contextmanager
def clock_page(url: str, token: str, board: int) -> Iterator[webdriver.Chrome]:
    driver = phone(new_driver())
    try:
        driver.get(f"{url}clock/{token}/{board}")
        wait_for(lambda: driver.execute_script("return document.body.dataset.ready === '1'"))
        yield driver
    finally:
        driver.quit()


def page(driver: webdriver.Chrome, what: str) -> object:
    return driver.execute_script(f"return document.body.dataset.{what};")


def stored(db: EventDatabase, match_id: int, board: int) -> list[ClockEvent]:
    with db.Session() as s:
        return phone_clocks.board_events(s, match_id, board)


def kinds(events: list[ClockEvent]) -> list[str]:
    return [e.kind.value for e in events if e.kind is not EventKind.CHECKPOINT]


def phone_sent_and_log(driver: webdriver.Chrome) -> tuple[int, list[dict[str, object]]]:
    """How many events the desk has by the phone's count, and the phone's whole log, read in
    one go (the page adds a checkpoint between two scripts)."""
    sent, log = driver.execute_script(
        "const key = Object.keys(localStorage).find((k) => k !== 'tandem.clock-phone');"
        "const kept = JSON.parse(localStorage.getItem(key));"
        "return [kept.sent, kept.log];"
    )
    return int(sent), list(log)


def synced(driver: webdriver.Chrome) -> bool:
    return bool(page(driver, "sent") == page(driver, "events"))


def first_mover_and_start(drivers: list[webdriver.Chrome]) -> None:
    for d in drivers:
        tap(d, "face-near")  # side A of each board moves first
        wait_for(lambda d=d: synced(d))
    drivers[0].find_element("id", "start").click()
    for d in drivers:
        wait_for(lambda d=d: page(d, "phase") == "running")


def test_rules_7_taps_switch_sides_on_touch_down_and_a_held_finger_counts_once(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    service, url, ids, tokens = table
    db = service.web.db
    with clock_page(url, tokens[0], 1) as one, clock_page(url, tokens[0], 2) as two:
        first_mover_and_start([one, two])
        touch_down(one, "face-near")  # A ends the first move on touch-down, before release
        wait_for(lambda: synced(one))
        assert kinds(stored(db, ids[0], 1))[-1] == "press"
        near, far = centre(one, "face-near"), centre(one, "face-far")
        held = {"x": near[0], "y": near[1], "id": 1}
        for dy in (1, 2, 3, 4, 5):  # the finger stays down and wobbles: still one press
            one.execute_cdp_cmd(
                "Input.dispatchTouchEvent",
                {"type": "touchMove", "touchPoints": [{**held, "y": near[1] + dy}]},
            )
        # B's finger ends B's move while A's is still down: A runs, A's finger does nothing
        one.execute_cdp_cmd(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [held, {"x": far[0], "y": far[1], "id": 2}]},
        )
        time.sleep(0.3)
        touch_up(one)
        wait_for(lambda: synced(one))
        presses = [e for e in stored(db, ids[0], 1) if e.kind is EventKind.PRESS]
        assert [e.who for e in presses] == [Side.A, Side.B]
        tap(one, "face-far")  # B is not running: nothing
        tap(one, "face-near")  # lifted and tapped again: a press
        wait_for(lambda: synced(one))
        presses = [e for e in stored(db, ids[0], 1) if e.kind is EventKind.PRESS]
        assert [e.who for e in presses] == [Side.A, Side.B, Side.A]
        faces = one.execute_script(
            "return ['face-near', 'face-far'].map((id) => "
            "document.getElementById(id).classList.contains('running'));"
        )
        assert faces == [False, True]
        # the other board ran on untouched
        assert kinds(stored(db, ids[0], 2)) == ["first-mover", "start"]


def test_rules_7_both_boards_start_at_one_instant_in_the_desks_log(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    service, url, ids, tokens = table
    db = service.web.db
    with clock_page(url, tokens[0], 1) as one, clock_page(url, tokens[0], 2) as two:
        two.find_element("id", "start")
        tap(one, "face-near")
        wait_for(lambda: synced(one))
        answer = request(f"{url}api/clock/{tokens[0]}/start", {})
        assert answer.status == 409  # board 2 has no first mover yet
        assert "board 2" in str(answer.json())
        tap(two, "face-far")  # B moves first on board 2
        wait_for(lambda: synced(two))
        two.find_element("id", "start").click()  # either phone starts both
        for d in (one, two):
            wait_for(lambda d=d: page(d, "phase") == "running" and synced(d))
        starts = [
            next(e for e in stored(db, ids[0], n) if e.kind is EventKind.START) for n in (1, 2)
        ]
        assert starts[0].t_ns == starts[1].t_ns
        assert [e.who for e in starts] == [Side.A, Side.B]
        walls = [d.execute_script("return window.clockStartedAt;") for d in (one, two)]
        # A whole-millisecond instant comes back from WebDriver as an int: any number will do,
        # the skew itself is the benchmark's to measure.
        assert all(isinstance(w, (int, float)) and not isinstance(w, bool) and w > 0 for w in walls)


def test_rules_7_the_server_away_for_30_s_loses_nothing_and_charges_nothing_twice(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    service, url, ids, tokens = table
    db = service.web.db
    port = service.port
    with clock_page(url, tokens[0], 1) as one, clock_page(url, tokens[0], 2) as two:
        first_mover_and_start([one, two])
        tap(one, "face-near")
        wait_for(lambda: synced(one))
        service.stop()
        try:
            for face in ("face-far", "face-near", "face-far"):  # play on without the desk
                time.sleep(0.2)
                tap(one, face)
            wait_for(lambda: "offline" in one.find_element("id", "status").text)
            time.sleep(30)
            tap(one, "face-near")
            waiting = int(str(page(one, "events"))) - int(str(page(one, "sent")))
            assert waiting >= 4
        finally:
            service.port = port
            service.start()
        wait_for(lambda: synced(one), timeout=15)
        # The board runs on: the phone logs a checkpoint every 0.5 s and sends it a little
        # later, so its log and the desk's are compared up to what the phone had sent when
        # its log was read (read together with that count, before the desk's)
        sent, log = phone_sent_and_log(one)
        on_phone = [phone_clocks.unwire(d, 1) for d in log]
        desk = stored(db, ids[0], 1)
        assert len(desk) >= sent  # whole
        both = min(len(desk), len(on_phone))
        assert desk[:both] == on_phone[:both]  # in order
        assert len(set(desk)) == len(desk)  # nothing twice
        # past that, only the checkpoints of a board still running: those the phone had not
        # sent yet, and those it logged and sent after its log was read
        assert all(e.kind is EventKind.CHECKPOINT for e in desk[both:] + on_phone[both:])
        presses = [e.who for e in desk if e.kind is EventKind.PRESS]
        assert presses == [Side.A, Side.B, Side.A, Side.B, Side.A]
        with db.Session() as s:
            tc = get_event(s).options.time_control
        b = replay(desk, tc).board(1)
        assert b.phase is Phase.RUNNING
        # charged once: what both sides used equals the board's running time, to the ns
        assert b.a.consumed_ns + b.b.consumed_ns == b.running_ns
        assert b.a.credited_ns == 3 * tc.increment_seconds * NS_PER_SECOND


def test_rules_7_the_desk_pauses_a_phone_clock_and_restores_a_time_with_a_reason(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    service, url, ids, tokens = table
    db = service.web.db
    room = service.web.clocks
    with clock_page(url, tokens[0], 1) as one, clock_page(url, tokens[0], 2) as two:
        first_mover_and_start([one, two])
        service.web.session_run(room.command, ids[0], 1, EventKind.PAUSE)
        wait_for(lambda: page(one, "phase") == "paused" and synced(one))
        service.web.session_run(
            room.command, ids[0], 1, EventKind.ADJUST, Side.B, 75 * NS_PER_SECOND, "clock fault"
        )
        wait_for(lambda: "1:15" in one.find_element("id", "face-far").text)
        service.web.session_run(room.command, ids[0], 1, EventKind.RESUME)
        wait_for(lambda: page(one, "phase") == "running" and synced(one))
        log = stored(db, ids[0], 1)
        assert kinds(log)[-3:] == ["pause", "adjust", "resume"]
        adjust = next(e for e in log if e.kind is EventKind.ADJUST)
        assert (adjust.who, adjust.value) == (Side.B, 75 * NS_PER_SECOND)
        with db.Session() as s:
            reasons = [
                a.reason for a in s.query(models.AuditEntry).filter_by(action="clock-adjust")
            ]
        assert reasons == ["clock fault"]
        assert kinds(stored(db, ids[0], 2))[-1] == "start"  # board 2 was not touched


def test_a_token_opens_its_own_matchs_clocks_only(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    service, url, ids, tokens = table
    db = service.web.db
    with clock_page(url, tokens[1], 1) as other:
        tap(other, "face-near")  # the second match's phone: its log goes to that match
        wait_for(lambda: synced(other))
    assert kinds(stored(db, ids[1], 1)) == ["first-mover"]
    assert stored(db, ids[0], 1) == []
    event = {"kind": "first-mover", "t_ns": "5", "board": 1, "side": "A", "value": None}
    guessed = tokens[1][:-1] + ("A" if tokens[1][-1] != "A" else "B")
    for token in ("x" * 32, guessed):
        answer = request(f"{url}api/clock/{token}/1/log", {"first": 0, "events": [event]})
        assert answer.status == 403
    answer = request(
        f"{url}api/clock/{tokens[0]}/1/log",
        {"first": 0, "events": [event]},
        origin="http://evil.example",
    )
    assert answer.status == 403
    assert stored(db, ids[0], 1) == []
    # a gap is refused with what the desk has; the same events twice are stored once
    answer = request(f"{url}api/clock/{tokens[0]}/1/log", {"first": 3, "events": [event]})
    assert (answer.status, answer.json()["stored"]) == (409, 0)  # type: ignore[index]
    for _ in range(2):
        answer = request(f"{url}api/clock/{tokens[0]}/1/log", {"first": 0, "events": [event]})
        assert answer.json() == {"stored": 1, "other_phone": False}
    assert len(stored(db, ids[0], 1)) == 1
    bad = {**event, "kind": "press", "t_ns": "9"}  # nobody is running: the engine refuses it
    answer = request(f"{url}api/clock/{tokens[0]}/1/log", {"first": 1, "events": [bad]})
    assert answer.status == 422
    stranger = phone(new_driver())
    try:
        stranger.get(f"{url}clock/no-such-token/1")
        wait_for(lambda: page(stranger, "refused") == "403")
        assert "not valid" in stranger.find_element("id", "status").text
    finally:
        stranger.quit()


def test_rules_7_pause_and_settings_open_on_a_hold_outside_the_faces_only(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    service, url, ids, tokens = table
    with clock_page(url, tokens[0], 1) as one, clock_page(url, tokens[0], 2) as two:
        first_mover_and_start([one, two])

        def menu_open() -> bool:
            return bool(one.execute_script("return document.getElementById('settings').open;"))

        tap(one, "menu")  # a tap on the menu button does nothing
        time.sleep(1.0)
        assert not menu_open()
        for face in ("face-near", "face-far"):  # the faces and the menu do not overlap
            box = one.execute_script(
                "const a = document.getElementById(arguments[0]).getBoundingClientRect();"
                "const b = document.getElementById('menu').getBoundingClientRect();"
                "return a.bottom <= b.top || b.bottom <= a.top;",
                face,
            )
            assert box is True
        touch_down(one, "menu")
        wait_for(menu_open, timeout=3)
        touch_up(one)
        assert "Table 1, board 1" in one.find_element("id", "settings").text
        assert page(one, "phase") == "running"  # opening the menu pauses nothing by itself
        one.find_element("id", "pause").click()
        wait_for(lambda: page(one, "phase") == "paused" and synced(one))
        assert kinds(stored(service.web.db, ids[0], 1))[-1] == "pause"


def test_the_matchs_qr_code_opens_the_clock_of_either_board(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    """The slip page the match's QR code opens links to both boards' clocks."""
    service, url, ids, tokens = table
    driver = phone(new_driver())
    try:
        driver.get(f"{url}slip/{tokens[0]}")
        wait_for(lambda: driver.find_elements("id", "clock-2"))
        driver.execute_script("document.getElementById('clock-2').click();")
        wait_for(lambda: driver.execute_script("return document.body.dataset.ready === '1'"))
        assert driver.current_url == f"{url}clock/{tokens[0]}/2"
        assert "board 2" in driver.find_element("id", "status").text
    finally:
        driver.quit()


def test_rules_7_the_screen_is_kept_on_over_the_clubs_plain_http(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    """On the club's Wi-Fi the page is plain http from the laptop's address: not a secure
    context, so the browser has no Wake Lock API. The page keeps the screen on with a silent
    looping video (NoSleep.js) once the player has touched it, and keeps it playing. Where the
    page is a secure context, the Wake Lock API is used instead."""
    service, url, ids, tokens = table
    port = urlsplit(url).port
    # a name that is not localhost, as a phone on the Wi-Fi sees the laptop (still loopback):
    # the computer's own name, the only names besides its addresses the service answers to
    name = socket.gethostname().lower()
    driver = phone(new_driver(extra=(f"--host-resolver-rules=MAP {name} 127.0.0.1",)))
    try:
        driver.get(f"http://{name}:{port}/clock/{tokens[0]}/1")
        wait_for(lambda: driver.execute_script("return document.body.dataset.ready === '1'"))
        assert driver.execute_script(
            "return [window.isSecureContext, 'wakeLock' in navigator]"
        ) == [
            False,
            False,
        ]
        assert page(driver, "awake") != "video"  # a browser plays it only after a touch
        tap(driver, "face-near")  # the opening roll's first mover: the player's first touch
        wait_for(lambda: page(driver, "awake") == "video")
        wait_for(lambda: synced(driver))
        assert kinds(stored(service.web.db, ids[0], 1)) == ["first-mover"]
        time.sleep(2)  # the video is shorter than a second: it loops, it does not end
        assert page(driver, "awake") == "video"
    finally:
        driver.quit()
    # where the browser offers it (here the laptop itself, localhost), the Wake Lock, untouched
    with clock_page(url, tokens[0], 2) as secure:
        assert secure.execute_script("return window.isSecureContext") is True
        wait_for(lambda: page(secure, "awake") == "wake-lock")


def test_a_long_status_keeps_its_width_beside_the_buttons(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    """Issue #26.10: with the start and forfeit buttons shown, a long status wrapped a word per
    line; it keeps room for several words a line (the buttons move to a line of their own)."""
    _service, url, _ids, tokens = table
    with clock_page(url, tokens[0], 1) as driver:
        lines = driver.execute_script(
            "document.getElementById('start').hidden = false;"
            "document.getElementById('forfeit').hidden = false;"
            "const s = document.getElementById('status');"
            "s.textContent = 'offline: the desk has not heard from this phone for a while, "
            "the clock runs on and sends everything when the Wi-Fi is back';"
            "return s.getBoundingClientRect().height / parseFloat(getComputedStyle(s).lineHeight);"
        )
        assert lines <= 4, lines  # 390 px wide: a word a line was 20 lines


def test_a_second_phone_on_the_same_board_says_so(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    _service, url, _ids, tokens = table
    with clock_page(url, tokens[0], 1) as one, clock_page(url, tokens[0], 1) as two:
        tap(one, "face-near")
        tap(two, "face-near")
        for driver in (one, two):
            wait_for(
                lambda d=driver: (
                    "another phone times this board" in d.find_element("id", "status").text
                )
            )


def test_the_menu_counts_one_event_in_the_singular(
    table: tuple[TableService, str, list[int], list[str]],
) -> None:
    """With only the first mover chosen, the menu said "Desk has 1 of 1 events"."""
    _service, url, _ids, tokens = table
    with clock_page(url, tokens[0], 1) as one:
        tap(one, "face-near")
        wait_for(lambda: synced(one))
        touch_down(one, "menu")
        wait_for(
            lambda: bool(one.execute_script("return document.getElementById('settings').open;"))
        )
        touch_up(one)
        assert "Desk has 1 of 1 event;" in one.find_element("id", "settings-info").text
