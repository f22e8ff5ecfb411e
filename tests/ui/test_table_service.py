"""The table service window: off until turned on, pending results accepted with Enter, revoke."""

from __future__ import annotations

import io
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from director.domain.changes import Area, Changes
from director.domain.rules import Side
from director.services import games, matches, slips
from director.services.slips import Refusal, SlipRefused
from director.store.engine import open_event
from director.ui.context import EventContext
from director.ui.main_window import MainWindow
from director.ui.table_service import TableServiceWindow
from director.web.server import local_addresses, routed_address
from tests.web.conftest import hexid, pair_round, request


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture
def ctx(event_path: Path) -> Iterator[EventContext]:
    context = EventContext(open_event(str(event_path), make_backup=False))
    yield context
    context.close()


@pytest.fixture
def panel(qtbot: QtBot, ctx: EventContext) -> Iterator[TableServiceWindow]:
    window = TableServiceWindow(ctx)
    qtbot.addWidget(window)
    yield window
    window.shutdown()


def slip(ctx: EventContext, match_id: int, confirm: bool = True) -> str:
    with ctx.db.Session() as s, s.begin():
        token = slips.token_for(s, match_id, Side.A)
        token_b = slips.token_for(s, match_id, Side.B)
        assert token is not None and token_b is not None
        uid = hexid()
        game = {"pair": 1, "board": 1, "winner": "B", "end": "bear-off", "level": "gammon",
                "cube": 1}  # fmt: skip
        slips.submit_slip(s, token_b, uid, hexid(), game)
        if confirm:
            slips.answer_slip(s, token, uid, hexid(), agree=True)
    return token


def test_off_until_turned_on_then_it_says_where(qtbot: QtBot, panel: TableServiceWindow) -> None:
    pair_round(panel.ctx.db)
    assert panel.service is None and "Off" in panel.addresses.text()
    port = free_port()
    panel.port.setValue(port)
    panel.toggle.click()
    assert panel.service is not None
    assert f"127.0.0.1:{port}/" in panel.addresses.text()
    assert not panel.qr.pixmap().isNull()
    assert request(f"http://127.0.0.1:{port}/api/event").status == 200
    panel.toggle.click()
    assert panel.service is None
    with pytest.raises(OSError):
        request(f"http://127.0.0.1:{port}/api/event")


def test_the_window_lists_the_interfaces_and_its_qr_code_is_the_reachable_one(
    qtbot: QtBot, panel: TableServiceWindow
) -> None:
    """#25: the addresses are the interfaces' (tests/web/test_addresses.py checks them against
    the system's listing), the routed one first, and the QR code a phone scans is that one."""
    import zxingcpp

    port = free_port()
    panel.port.setValue(port)
    panel.toggle.click()
    assert panel.service is not None
    wanted = [f"http://{a}:{port}/" for a in local_addresses()]
    routed = routed_address()
    if routed is not None and not routed.startswith("127."):
        assert wanted[0] == f"http://{routed}:{port}/"
    shown = [line for line in panel.addresses.text().splitlines() if line.startswith("http")]
    assert shown == wanted
    image = panel.qr.pixmap().toImage()
    (code,) = zxingcpp.read_barcodes(image)
    assert code.text == wanted[0]


def test_a_port_in_use_is_said_next_to_the_toggle(panel: TableServiceWindow) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        panel.port.setValue(taken.getsockname()[1])
        panel.toggle.click()
    assert panel.service is None and not panel.toggle.isChecked()
    assert "is in use" in panel.addresses.text()


def test_a_pending_result_is_accepted_with_one_key(qtbot: QtBot, panel: TableServiceWindow) -> None:
    match_id = pair_round(panel.ctx.db)[0]
    panel.port.setValue(free_port())
    panel.toggle.click()
    slip(panel.ctx, match_id)
    qtbot.waitUntil(lambda: panel.pending.count() == 1, timeout=5000)  # told by the server
    assert "board 1" in panel.pending.item(0).text()
    panel.pending.setFocus()
    with qtbot.waitSignal(panel.ctx.changed, timeout=2000) as changed:
        qtbot.keyClick(panel.pending, Qt.Key.Key_Return)
    assert changed.args == [Changes.match(match_id) | Changes.of(Area.SLIPS)]
    assert panel.pending.count() == 0
    match = panel.ctx.read(matches.get_match, match_id)
    assert (match.outcome.score.a, match.outcome.score.b) == (0, 2)


def test_a_refused_accept_is_said_in_the_window(panel: TableServiceWindow) -> None:
    match_id = pair_round(panel.ctx.db)[0]
    slip(panel.ctx, match_id)
    panel.refresh()
    from director.domain.rules import End, Level, Side
    from director.domain.scoring import Game

    # the desk typed board 1 itself meanwhile: the pending slip no longer fits
    panel.ctx.change(games.record_game, match_id,
                     Game(0, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE))  # fmt: skip
    panel._accept_selected()
    assert "already recorded at the desk" in panel.problem.text()
    assert len(panel.ctx.read(matches.get_match, match_id).games) == 1


def test_revoking_a_table_locks_its_phones_out(panel: TableServiceWindow) -> None:
    match_id = pair_round(panel.ctx.db)[0]
    old = slip(panel.ctx, match_id, confirm=False)
    panel.refresh()
    panel.tables.selectRow(panel.match_ids.index(match_id))
    panel.revoke_button.click()
    with panel.ctx.db.Session() as s, pytest.raises(SlipRefused) as refused:
        slips.match_for_token(s, old)
    assert refused.value.code is Refusal.TOKEN
    assert old not in panel.tokens[match_id].values()


def codes_shown(panel: TableServiceWindow) -> list[str]:
    """What the window's QR codes of the selected table say, read from the pixels (zxing)."""
    import zxingcpp
    from PIL import Image
    from PySide6.QtCore import QBuffer, QIODevice

    out = []
    for label in panel.table_qr.values():
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        label.pixmap().save(buffer, "PNG")
        image = Image.open(io.BytesIO(bytes(buffer.data().data())))
        out += [found.text for found in zxingcpp.read_barcodes(image)]
    return out


def test_each_team_of_a_table_has_its_own_code(panel: TableServiceWindow) -> None:
    """Issue #26.3: the window shows team A's and team B's code; each opens the slip page as
    that team."""
    match_id = pair_round(panel.ctx.db)[0]
    panel.port.setValue(free_port())
    panel.toggle.click()
    panel.tables.selectRow(panel.match_ids.index(match_id))
    codes = codes_shown(panel)
    assert len(codes) == 2 and codes[0] != codes[1]
    sides = [request(c.replace("/slip/", "/api/slip/")).json()["side"] for c in codes]  # type: ignore[index]
    assert sides == ["A", "B"]
    assert all(c in panel.table_qr_caption.text() for c in codes)


def test_auto_accept_is_an_event_option(panel: TableServiceWindow) -> None:
    panel.auto.click()
    assert panel.ctx.read(slips.auto_accept)


def test_the_main_window_stops_the_service_with_the_event(
    window: MainWindow, event_path: Path
) -> None:
    assert window.open_target(str(event_path))
    phones = window.show_table_service()
    assert phones is not None
    port = free_port()
    phones.port.setValue(port)
    phones.toggle.click()
    assert request(f"http://127.0.0.1:{port}/api/event").status == 200
    window.close_event()
    assert window.table_service is None
    with pytest.raises(OSError):
        request(f"http://127.0.0.1:{port}/api/event")


def test_scoresheets_printed_while_the_service_is_on_carry_its_slip_qr_codes(
    qtbot: QtBot, window: MainWindow, event_path: Path
) -> None:
    from tests.reports.pdfcheck import qr_codes
    from tests.ui.reports.report_helpers import shown

    db = open_event(str(event_path), make_backup=False)
    pair_round(db)
    db.close()
    assert window.open_target(str(event_path))
    off = shown(qtbot, window.reports_menu.round_scoresheets())
    assert off.pdf is not None and qr_codes(off.pdf) == []
    off.close()
    phones = window.show_table_service()
    assert phones is not None
    port = free_port()
    phones.port.setValue(port)
    phones.toggle.click()
    on = shown(qtbot, window.reports_menu.round_scoresheets())
    assert on.pdf is not None
    links = qr_codes(on.pdf)
    assert len(links) == 2  # team A's and team B's
    for link, side in zip(links, "AB", strict=True):
        assert link.startswith(phones.address()) and f":{port}/slip/" in link
        api = link.replace(phones.address(), f"http://127.0.0.1:{port}/api/")
        assert request(api).json()["side"] == side  # type: ignore[index]
    on.close()


def test_an_address_set_for_another_server_prints_on_the_scoresheets(
    qtbot: QtBot, panel: TableServiceWindow
) -> None:
    from director.services.reports import render
    from tests.reports.pdfcheck import qr_codes

    pair_round(panel.ctx.db)
    panel.print_address.setText("pi.local:8080")
    panel.print_address_button.click()
    assert "is not the address of the table service" in panel.print_address_note.text()
    panel.print_address.setText("http://10.0.0.9:8080")
    qtbot.keyClick(panel.print_address, Qt.Key.Key_Return)
    assert panel.print_address.text() == "http://10.0.0.9:8080/"
    assert "http://10.0.0.9:8080/" in panel.print_address_note.text()
    with panel.ctx.db.Session() as session, session.begin():
        data = render(session, "scoresheet")
    assert qr_codes(data)[0].startswith("http://10.0.0.9:8080/slip/")
