"""A command that refuses (exit 2) writes nothing (#27 §6, the README's promise): on an older
file `import-teams`, `import-match` and `clock` upgraded it (keeping a `.before-upgrade` copy)
and then refused; `pair` ("round not finished"), `serve` (a port in use) and `clock` (no such
match) made an "open" backup first. Real files (their bytes hashed), real subprocesses."""

from __future__ import annotations

import hashlib
import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from director.store.engine import head_revision
from director.store.upgrade import stored_revision
from tests.club_files import club_night
from tests.event_files import seed_teams
from tests.reliability.upgrade_kill import OLDEST, older_event

EXE = str(Path(sys.executable).with_name("tandem-director"))


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [EXE, *args], check=False, capture_output=True, text=True, timeout=120, env=env
    )


def state(folder: Path) -> dict[str, str]:
    """Every file under `folder` (hidden ones too) with the hash of its bytes."""
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        if p.is_file()
        else ""
        for p in sorted(folder.rglob("*"))
    }


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


def current_event(folder: Path, template: Path) -> Path:
    """Four teams, round 1 paired and not finished."""
    path = folder / "cup.tandem"
    path.write_bytes(template.read_bytes())
    seed_teams(path, 4, pair=True)
    return path


REFUSALS = {
    "import-teams, a bad row": ("import-teams", "{event}", "{folder}/bad.csv"),
    "import-teams, a team the event has": ("import-teams", "{event}", "{folder}/twice.csv"),
    "import-match, not a record": ("import-match", "{event}", "{folder}/bad.json"),
    "import-match, an unregistered team": ("import-match", "{event}", "{folder}/stranger.json"),
    "clock, no such match": ("clock", "{event}", "999"),
    "serve, a port in use": ("serve", "{event}", "--host", "127.0.0.1", "--port", "{port}"),
    "pair, nothing to pair": ("pair", "{event}"),
}


def inputs(folder: Path) -> None:
    (folder / "bad.csv").write_text("team,player1,player2\nX,,\n", encoding="utf-8")
    (folder / "twice.csv").write_text("team,player1,player2\nTeam 1,Zed,Yan\n", encoding="utf-8")
    (folder / "bad.json").write_text("{}", encoding="utf-8")
    example = Path(__file__).parents[1] / "fixtures" / "formats_example.tandem-match.json"
    (folder / "stranger.json").write_bytes(example.read_bytes())


@pytest.mark.parametrize("older", [False, True], ids=["current", "older"])
@pytest.mark.parametrize("case", REFUSALS)
def test_a_refused_command_leaves_every_byte_as_it_was(
    case: str, older: bool, tmp_path: Path, template_event: Path, busy_port: int
) -> None:
    folder = tmp_path / "event"
    folder.mkdir()
    if older:  # one team: older_event's matches are outside rounds, so `pair` has one to pair
        event = older_event(folder / "cup.tandem", teams=1 if case.startswith("pair") else 4)
    else:  # round 1 paired, not finished: `pair` refuses
        event = current_event(folder, template_event)
    inputs(tmp_path)
    before = state(folder)
    args = [a.format(event=event, folder=tmp_path, port=busy_port) for a in REFUSALS[case]]
    done = run(*args)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert state(folder) == before, done.stderr
    if older:
        assert stored_revision(event) == OLDEST


def test_a_command_that_succeeds_on_an_older_file_upgrades_it_with_its_change(
    tmp_path: Path,
) -> None:
    """The upgrade is put in place with the command's change, the original kept beside it."""
    event = older_event(tmp_path / "cup.tandem", teams=4)
    csv = tmp_path / "more.csv"
    csv.write_text("team,player1,player2\nNew Team,Zed,Yan\n", encoding="utf-8")
    done = run("import-teams", str(event), str(csv))
    assert done.returncode == 0, done.stderr
    assert stored_revision(event) == head_revision()
    [kept] = tmp_path.glob("cup.tandem.before-upgrade-*")
    assert stored_revision(kept) == OLDEST
    assert "New Team" in run("export-teams", str(event), "-").stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["cup.tandem", kept.name, csv.name])


def test_pair_on_an_older_file_upgrades_it_and_backs_it_up(tmp_path: Path) -> None:
    event = older_event(tmp_path / "cup.tandem", teams=4)
    done = run("pair", str(event))
    assert done.returncode == 0, done.stderr
    assert stored_revision(event) == head_revision()
    assert len(list(tmp_path.glob("cup.tandem.before-upgrade-*"))) == 1
    backups = sorted(p.name for p in (tmp_path / "cup.tandem-backups").iterdir())
    assert any(name.endswith("_round-1-paired.tandem") for name in backups), backups


@pytest.mark.parametrize(
    "extra",
    [["--yes", "--map", "bad"], ["--yes", "--map", "Nobody=999"], []],
    ids=["a malformed map", "no such person", "without --yes"],
)
def test_a_refused_club_publish_leaves_the_club_as_it_was(tmp_path: Path, extra: list[str]) -> None:
    """`club publish --yes` backed the club up before refusing a bad --map, and every club
    command wrote its open mark into the file."""
    event = club_night(tmp_path / "night.tandem", winners="AB")
    folder = tmp_path / "club"
    folder.mkdir()
    club = folder / "weekly.club"
    assert run("club", "new", str(club)).returncode == 0
    before = state(folder)
    done = run("club", "publish", str(event), str(club), *extra)
    assert done.returncode == 2, done.stderr
    assert state(folder) == before
    assert run("club", "ratings", str(club)).returncode == 0
    assert state(folder) == before  # a read leaves it as it was too


def test_a_refused_backup_of_an_older_file_leaves_it_as_it_was(tmp_path: Path) -> None:
    """`backup` upgraded an older file (keeping a `.before-upgrade` copy) before it made the
    backup: one refused (here its folder's name is taken by a file) left the file upgraded."""
    folder = tmp_path / "event"
    folder.mkdir()
    event = older_event(folder / "cup.tandem", teams=4)
    (folder / "cup.tandem-backups").write_bytes(b"not a folder")
    before = state(folder)
    done = run("backup", str(event))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert state(folder) == before, done.stderr
    assert stored_revision(event) == OLDEST


def test_a_backup_of_an_older_file_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    """A backup copies the event: an older file is not upgraded by it (the app's next open
    does that); the backup itself is one the app restores."""
    event = older_event(tmp_path / "cup.tandem", teams=4)
    before = state(tmp_path)
    done = run("backup", str(event), "--reason", "before the final")
    assert done.returncode == 0, done.stderr
    assert {k: v for k, v in state(tmp_path).items() if not k.startswith("cup.tandem-backups")} == (
        before
    )
    assert stored_revision(event) == OLDEST
    listed = run("backups", str(event))
    assert listed.returncode == 0, listed.stderr
    [made] = (tmp_path / "cup.tandem-backups").iterdir()
    assert made.name.endswith("_before-the-final.tandem"), made.name
    assert f"good  {made}" in listed.stdout, listed.stdout


def test_a_club_at_a_revision_this_app_does_not_know_is_refused_before_writing(
    tmp_path: Path,
) -> None:
    """The club chain has one revision (club0001), so no older club exists; but a club stamped
    `club0000` passed as "older": it was backed up, then Alembic's traceback (exit 1)."""
    folder = tmp_path / "club"
    folder.mkdir()
    club = folder / "weekly.club"
    assert run("club", "new", str(club)).returncode == 0
    with sqlite3.connect(club) as connection:
        connection.execute("UPDATE club_alembic_version SET version_num = 'club0000'")
    connection.close()
    before = state(folder)
    done = run("club", "ratings", str(club))
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0, done.stderr
    assert "newer Tandem Director" in done.stderr
    assert state(folder) == before
