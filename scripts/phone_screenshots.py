"""Screenshots of the players' pages at phone size, for the README (issue 18).

    .venv/bin/python scripts/phone_screenshots.py docs/screenshots

Builds a simulated event with round 2 under way (one match decided by a no-show), serves it
with `tandem-director serve` on loopback and photographs the pages in headless Chromium
(390 × 844 CSS pixels), light and dark.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests package

from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services import games, no_show, rounds, slips
from director.services.simulate import SimulationSettings, simulate_event
from tests.web.browser import Served, click, phone, wait_for


def build(path: Path) -> tuple[str, str]:
    settings = SimulationSettings(teams=12, rounds=4, seed=7, rounds_to_play=1, name="Club night")
    db = simulate_event(str(path), settings)
    with db.Session() as s, s.begin():
        matches = [m for m in rounds.pair_next_round(s).value.matches if m.team_b is not None]
        first, second, third = matches[0].id, matches[1].id, matches[2].id
        for board, winner, level in ((1, Side.A, Level.GAMMON), (2, Side.A, Level.SINGLE)):
            games.record_game(s, first, Game(0, board, winner, End.BEAR_OFF, level=level))
        games.record_game(s, second, Game(0, 2, Side.B, End.BEAR_OFF, level=Level.SINGLE))
        token = slips.token_for(s, third)
        # a decided match: the standings say "during round 2 (1 of 6 matches decided)"
        no_show.record_no_show(s, matches[3].id, Side.B, "did not come")
        name = matches[0].team_a.name
    db.close()
    assert token is not None
    return token, name


def desk_window(event: Path, out: Path) -> None:
    """The director's window with the service on and a confirmed slip pending."""
    import os
    import secrets

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from director.store.engine import open_event
    from director.ui.context import EventContext
    from director.ui.table_service import TableServiceWindow

    app = QApplication.instance() or QApplication([])
    ctx = EventContext(open_event(str(event), make_backup=False))
    window = TableServiceWindow(ctx)
    with ctx.db.Session() as s, s.begin():
        token = slips.round_tokens(s)
        match_id = sorted(token)[2]
        uid = secrets.token_hex(16)
        game = {"pair": 1, "board": 1, "winner": "A", "end": "bear-off", "level": "gammon",
                "cube": 2}  # fmt: skip
        slips.submit_slip(s, token[match_id], uid, "A", secrets.token_hex(16), game)
        slips.answer_slip(s, token[match_id], uid, "B", secrets.token_hex(16), agree=True)
    window.port.setValue(8089)
    window.toggle.click()
    window.refresh()
    window.tables.selectRow(2)
    window.show()
    for _ in range(20):
        app.processEvents()
        time.sleep(0.02)
    window.grab().save(str(out / "36-phones-window.png"))
    window.shutdown()
    window.close()
    ctx.close()


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        event = Path(folder) / "club.tandem"
        token, team = build(event)
        served = Served(event)
        url = served.start()
        try:
            with phone() as driver:
                driver.get(url + "team")
                wait_for(driver, lambda d: d.find_elements("id", "find"))
                driver.find_element("id", "find").send_keys(team)
                wait_for(driver, lambda d: "Round 2" in d.find_element("id", "found").text)
                driver.save_screenshot(str(out / "31-phone-find-my-team.png"))
                for page, name in (("", "30-phone-pairings"), ("standings", "32-phone-standings"),
                                   ("rules", "34-phone-rules")):  # fmt: skip
                    driver.get(url + page)
                    wait_for(driver, lambda d: "Loading" not in d.find_element("id", "main").text)
                    time.sleep(0.3)
                    driver.save_screenshot(str(out / f"{name}.png"))
                driver.get(url + f"slip/{token}")
                click(driver, "#side-A")
                click(driver, "input[name=level][value='gammon']")
                time.sleep(0.3)
                driver.save_screenshot(str(out / "33-phone-result-slip.png"))
            with phone(dark=True) as driver:
                driver.get(url)
                wait_for(driver, lambda d: "Loading" not in d.find_element("id", "main").text)
                time.sleep(0.3)
                driver.save_screenshot(str(out / "35-phone-pairings-dark.png"))
        finally:
            served.stop()
        desk_window(event, out)
    print(f"wrote the phone screenshots to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
