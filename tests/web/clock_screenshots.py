"""Phone-size screenshots of the board clock for the README (`python -m
tests.web.clock_screenshots docs/screenshots`): a real server over a demo event, two headless
Chromium phones at 390 × 844 CSS px, and the desk's live view (Qt, offscreen)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from director.domain.clock import NS_PER_SECOND, EventKind
from director.domain.rules import EventOptions, Side
from director.services import slips
from director.services.events import create_event
from director.store.engine import create_database, open_event
from director.web.server import TableService
from tests.web.clock_browser import new_driver, phone, tap, touch_down, touch_up
from tests.web.conftest import pair_round


def ready(driver: object) -> bool:
    return bool(driver.execute_script("return document.body.dataset.ready === '1'"))  # type: ignore[attr-defined]


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    path = Path(tempfile.mkdtemp()) / "shots.tandem"
    db = create_database(str(path))
    with db.Session() as s, s.begin():
        create_event(s, "Club Night", EventOptions())
    db.close()
    db = open_event(str(path), make_backup=False)
    ids = pair_round(db, 4)
    with db.Session() as s, s.begin():
        token = slips.token_for(s, ids[0], Side.A)
    service = TableService(db, "127.0.0.1", 0)
    url = service.start()[0]
    one, two = phone(new_driver()), phone(new_driver())
    try:
        for n, d in ((1, one), (2, two)):
            d.get(f"{url}clock/{token}/{n}")
            while not ready(d):
                time.sleep(0.05)
        one.save_screenshot(str(out / "40-phone-clock-ready.png"))
        tap(one, "face-near")
        tap(two, "face-far")
        time.sleep(0.5)
        one.find_element("id", "start").click()
        time.sleep(1.5)
        tap(one, "face-near")
        time.sleep(2.2)
        one.save_screenshot(str(out / "41-phone-clock-running.png"))
        room = service.web.clocks
        service.web.session_run(room.command, ids[0], 2, EventKind.PAUSE)
        time.sleep(0.5)
        service.web.session_run(
            room.command, ids[0], 2, EventKind.ADJUST, Side.B, NS_PER_SECOND // 2, "screenshot"
        )
        time.sleep(0.5)
        service.web.session_run(room.command, ids[0], 2, EventKind.RESUME)
        time.sleep(1.5)
        two.save_screenshot(str(out / "42-phone-clock-flag.png"))
        touch_down(one, "menu")  # the menu opens on a hold only
        time.sleep(1.0)
        touch_up(one)
        time.sleep(0.3)
        one.save_screenshot(str(out / "43-phone-clock-menu.png"))
        one.execute_script("document.getElementById('settings').close();")
        desk(service, out / "44-desk-phone-clocks.png")
    finally:
        one.quit()
        two.quit()
        service.stop()
        db.close()


def desk(service: TableService, target: Path) -> None:
    from PySide6.QtWidgets import QApplication

    from director.ui.context import EventContext
    from director.ui.phone_clocks import PhoneClocksView

    app = QApplication.instance() or QApplication([])
    view = PhoneClocksView(EventContext(service.web.db), lambda: service.web.clocks)
    view.show()
    for _ in range(10):
        app.processEvents()
        time.sleep(0.05)
    for dialog in view.forfeits:
        dialog.close()
    view.tick()
    app.processEvents()
    view.grab().save(str(target))
    view.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots"))
