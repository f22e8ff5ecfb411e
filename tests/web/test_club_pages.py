"""The club's pages on the phones: the rating list and the season, public facts only."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from director.services import club
from director.store.club import create_club, open_club
from director.store.engine import open_event
from director.web.server import TableService
from tests.club_files import club_night, publish_to
from tests.web.conftest import HOSTILE, request

PLAYERS = ((HOSTILE, "Ben"), ("Cleo", "Dev"), ("Eve", "Finn"), ("Gus", "Hana"))


@pytest.fixture
def with_club(tmp_path: Path) -> Iterator[str]:
    event = club_night(tmp_path / "march.tandem", "2026-03-05", "AB", players=PLAYERS)
    path = tmp_path / "weekly.club"
    create_club(str(path)).close()
    publish_to(path, event)
    cdb = open_club(str(path), make_backup=False)
    with cdb.Session() as s, s.begin():
        club.add_season(s, "Spring", "2026-03-01", "2026-05-31")
    cdb.close()
    edb = open_event(str(event), make_backup=False)
    shown = open_club(str(path), lock=False, make_backup=False)
    service = TableService(edb, "127.0.0.1", 0, club=shown)
    urls = service.start()
    try:
        yield urls[0]
    finally:
        service.stop()
        shown.close()
        edb.close()


def test_the_club_is_served_as_public_facts_only(with_club: str) -> None:
    answer = request(with_club + "api/club")
    assert answer.status == 200
    data = answer.json()
    assert isinstance(data, dict)
    rows = data["ratings"]
    assert len(rows) == 8
    assert all(set(r) == {"place", "name", "rating", "experience", "provisional"} for r in rows)
    assert rows[0] == {"place": 1, "name": HOSTILE, "rating": "1522.36", "experience": 5,
                       "provisional": True}  # fmt: skip
    season = data["season"]
    assert (season["name"], season["first"], season["last"]) == ("Spring", "2026-03-01",
                                                                 "2026-05-31")  # fmt: skip
    assert set(season["rows"][0]) == {"place", "name", "points", "rating"}
    page = request(with_club + "club")
    assert page.status == 200 and b'data-page="club"' in page.body
    assert HOSTILE.encode() not in page.body  # names reach the page only through the script


def nav_links(url: str) -> list[str]:
    """The addresses the page's navigation links to, in order."""
    import re

    page = request(url)
    assert page.status == 200, url
    nav = re.search(rb"<nav>(.*?)</nav>", page.body, re.S)
    assert nav is not None, page.body[:300]
    return [m.decode() for m in re.findall(rb'<a href="([^"]+)"', nav.group(1))]


def test_the_phones_navigation_links_to_the_club_when_one_is_served(with_club: str) -> None:
    for path in ("", "standings", "club", "slip/abc", "match/1"):
        links = nav_links(with_club + path)
        assert links[-1] == "/club" and links.count("/club") == 1, (path, links)
    page = request(with_club + "club").body
    assert b'<a href="/club" aria-current=page>Club</a>' in page


def test_without_a_club_the_club_address_says_so(served: tuple[TableService, str]) -> None:
    _service, url = served
    answer = request(url + "api/club")
    assert answer.status == 404
    assert "serves no club" in str(answer.json())
    for path in ("", "standings", "club"):  # and no link leads there
        links = nav_links(url + path)
        assert "/" in links and "/club" not in links, (path, links)


def test_serve_club_serves_the_club_beside_the_event(tmp_path: Path) -> None:
    import re
    import signal
    import subprocess
    import sys

    event = club_night(tmp_path / "march.tandem", "2026-03-05", "AB")
    path = tmp_path / "weekly.club"
    create_club(str(path)).close()
    proc = subprocess.Popen(
        [sys.executable, "-m", "director.cli", "serve", str(event), "--club", str(path),
         "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:  # every check reads what it saw once the server is stopped: a failure never hangs
        assert proc.stdout is not None
        first = proc.stdout.readline().strip()
        answer = request(first + "api/club").json() if first.startswith("http") else None
        links = nav_links(first) if first.startswith("http") else []
    finally:
        proc.send_signal(signal.SIGTERM)
        status = proc.wait(15)
        proc.communicate()
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/", first), first
    assert answer == {"ratings": [], "season": None}
    assert "/club" in links, links  # the phones find the club from any page
    assert status == 0
    # read only: the club was never locked nor marked open, so the app opens it at once
    open_club(str(path), make_backup=False).close()
    bad = subprocess.run(
        [sys.executable, "-m", "director.cli", "serve", str(event), "--club", str(event),
         "--port", "0"], capture_output=True, text=True, check=False, timeout=60,
    )  # fmt: skip
    assert bad.returncode == 2 and "march.tandem is an event, not a club" in bad.stderr


def test_the_club_page_shows_names_as_text_on_a_phone(with_club: str) -> None:
    from tests.web.browser import phone, text_of, wait_for

    with phone() as driver:
        driver.get(with_club + "club")
        wait_for(driver, lambda d: d.find_elements("css selector", "#club-ratings tbody tr"))
        rows = driver.find_elements("css selector", "#club-ratings tbody tr")
        assert len(rows) == 8
        assert rows[0].find_element("css selector", ".name").text == HOSTILE
        assert driver.execute_script("return window.pwned") is None
        assert "Season Spring" in text_of(driver, "#main")
        # the navigation's last link, the club's, is scrolled into a phone's width
        left, right = driver.execute_script(
            "const r = document.querySelector('nav a[href=\"/club\"]').getBoundingClientRect();"
            "return [r.left, r.right];"
        )
        assert left >= 0 and right <= driver.execute_script("return window.innerWidth")
        driver.save_screenshot("/tmp/club_phone.png")
