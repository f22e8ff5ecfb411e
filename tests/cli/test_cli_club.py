"""`tandem-director club ...` through real subprocesses, including bad input."""

from __future__ import annotations

import contextlib
import json
import math
import shutil
from pathlib import Path

import pytest

from tests.cli.test_cli_core import fails_cleanly, run
from tests.club_files import PLAYERS, club_night


@pytest.fixture(scope="module")
def new_club(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`club new` once: the tests take copies (an interpreter start each saved)."""
    path = tmp_path_factory.mktemp("club") / "weekly.club"
    proc = run("club", "new", str(path))
    assert proc.returncode == 0, proc.stderr
    assert sorted(path.parent.iterdir()) == [path]  # the club file and nothing beside it
    return path


@pytest.fixture
def club(new_club: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(new_club, tmp_path / "weekly.club"))


def test_publish_shows_every_match_and_writes_only_with_yes(club: Path, tmp_path: Path) -> None:
    event = club_night(tmp_path / "night.tandem", winners="AB")
    proc = run("club", "publish", str(event), str(club))
    fails_cleanly(proc, "nothing published: check the matches above")
    for name in ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn", "Gus", "Hana"):
        assert f"  {name}: new person" in proc.stdout
    assert json.loads(run("club", "ratings", str(club), "--json").stdout) == {"rows": []}
    empty = run("club", "ratings", str(club))  # printed nothing at all: was the club read?
    assert (empty.returncode, empty.stdout) == (
        0,
        "no one is rated in this club yet: `tandem-director club publish EVENT CLUB` rates an "
        "event's players\n",
    )
    proc = run("club", "publish", str(event), str(club), "--yes")
    assert proc.returncode == 0, proc.stderr
    assert "published 2 results of Club night, 8 new persons" in proc.stdout
    assert list((club.parent / "weekly.club-backups").glob("*_open.*"))  # backed up first
    again = run("club", "publish", str(event), str(club), "--yes")
    assert "Ana: person #1 (person)" in again.stdout
    assert "(replacing the earlier publication)" in again.stdout


def test_ratings_json_is_exactly_the_contract(club: Path, tmp_path: Path) -> None:
    event = club_night(tmp_path / "night.tandem", winners="AB")
    assert run("club", "publish", str(event), str(club), "--yes").returncode == 0
    rows = json.loads(run("club", "ratings", str(club), "--json").stdout)["rows"]
    assert all(set(r) == {"id", "name", "rating", "experience", "provisional"} for r in rows)
    assert len(rows) == 8 and all(r["provisional"] and r["experience"] == 5 for r in rows)
    # an even Tandem match to 5: each winner gains 4 * 5 * sqrt(5) * 1/2, unrounded
    assert rows[0]["rating"] == pytest.approx(1500 + 10 * math.sqrt(5), abs=1e-9)
    assert rows[0]["rating"] != round(rows[0]["rating"], 2)
    text = run("club", "ratings", str(club)).stdout
    assert f"{1500 + 10 * math.sqrt(5):.2f}" in text and "(provisional)" in text


def test_one_result_and_one_match_are_said_in_the_singular(club: Path, tmp_path: Path) -> None:
    final = club_night(tmp_path / "final.tandem", "2026-05-07", "A", players=PLAYERS[:2])
    shown = run("club", "publish", str(final), str(club))
    assert "Club night (2026-05-07): 1 result\n" in shown.stdout  # was "1 results"
    done = run("club", "publish", str(final), str(club), "--yes")
    assert "published 1 result of Club night, 4 new persons" in done.stdout
    ana = run("club", "person", str(club), "Ana")
    assert "  2026-05-07  Club night: 1 match\n" in ana.stdout  # was "1 matches"


def test_person_season_and_rebuild(club: Path, tmp_path: Path) -> None:
    march = club_night(tmp_path / "march.tandem", "2026-03-05", "AB")
    april = club_night(tmp_path / "april.tandem", "2026-04-02", "AA")
    for event in (march, april):
        assert run("club", "publish", str(event), str(club), "--yes").returncode == 0
    person = run("club", "person", str(club), "ana")
    assert person.returncode == 0, person.stderr
    assert person.stdout.startswith("#1 Ana\n")
    assert "2026-03-05  Club night: 1 match\n" in person.stdout
    added = run("club", "season", str(club), "Spring", "--from", "2026-03-01", "--to", "2026-05-31")
    assert added.returncode == 0, added.stderr
    season = run("club", "season", str(club))
    assert season.stdout.startswith("Spring: 2026-03-01 to 2026-05-31\n")
    assert len(season.stdout.splitlines()) == 9
    before = run("club", "ratings", str(club), "--json").stdout
    rebuilt = run("club", "rebuild", str(club), str(april), str(march), "--yes")
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert run("club", "ratings", str(club), "--json").stdout == before


@pytest.fixture(scope="module")
def nights(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A finished night and an unfinished one, read only by the tests that take them."""
    folder = tmp_path_factory.mktemp("nights")
    return club_night(folder / "night.tandem"), club_night(folder / "open.tandem", winners="A-")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("ratings", "{tmp}/none.club"), "does not exist"),
        (("ratings", "{tmp}"), "is a folder, not a club file"),
        # each said "is not a Tandem Director club/event", of the app's other kind of file
        (("ratings", "{event}"), "night.tandem is an event, not a club"),
        (("publish", "{club}", "{club}"), "weekly.club is a club, not an event"),
        (("new", "{club}"), "already exists"),
        (("person", "{club}", "Nobody"), "the club has no person called 'Nobody'"),
        (("season", "{club}", "Autumn"), "the club has no season yet"),
        (("season", "{club}", "S", "--from", "2026-13-01", "--to", "2026-12-01"),
         "dates are written YYYY-MM-DD"),
        (("season", "{club}", "S", "--from", "2026-01-01"), "needs both --from and --to"),
        (("publish", "{event}", "{club}", "--map", "Ana"), "write NAME=ID"),
        (("publish", "{event}", "{club}", "--map", "Ana=99"), "the club has no person #99"),
        # "²" passed str.isdigit, then int() raised (a traceback); "١" was person #1
        (("publish", "{event}", "{club}", "--map", "Ana=²"), "write NAME=ID"),
        (("publish", "{event}", "{club}", "--map", "Ana=#١"), "write NAME=ID"),
        (("publish", "{unfinished}", "{club}"), "is not finished"),
        (("ratings",), "the following arguments are required"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line_and_status_2(
    club: Path, tmp_path: Path, nights: tuple[Path, Path], args: tuple[str, ...], needle: str
) -> None:
    event, unfinished = nights
    values = {"tmp": tmp_path, "club": club, "event": event, "unfinished": unfinished}
    fails_cleanly(run("club", *(a.format(**values) for a in args)), needle)


def test_link_stores_the_club_ids_in_the_event_and_publish_uses_them(
    club: Path, tmp_path: Path
) -> None:
    import sqlite3

    march = club_night(tmp_path / "march.tandem", "2026-03-05", "AB")
    assert run("club", "publish", str(march), str(club), "--yes").returncode == 0
    # a second Ana joins the club: by name alone April's Ana could be either
    april = club_night(tmp_path / "april.tandem", "2026-04-02", "AA")
    dry = run("club", "link", str(april), str(club))
    fails_cleanly(dry, "nothing linked: check the matches above")
    assert "  Ana: person #1 (person)" in dry.stdout
    done = run("club", "link", str(april), str(club), "--yes")
    assert done.returncode == 0, done.stderr
    assert "stored 8 person ids in the event" in done.stdout
    with sqlite3.connect(april) as c:
        assert c.execute("SELECT person_id FROM player WHERE name = 'Ana'").fetchall() == [(1,)]
    with sqlite3.connect(club) as c:
        c.execute("INSERT INTO person (name, club, country, created_at) "
                  "VALUES ('Ana', '', '', '2026-04-01')")  # fmt: skip
    proc = run("club", "publish", str(april), str(club), "--yes")
    assert proc.returncode == 0, proc.stderr
    assert "  Ana: person #1 (registered)" in proc.stdout


def test_report_writes_the_clubs_pdfs(club: Path, tmp_path: Path) -> None:
    from tests.reports.pdfcheck import pdf_text

    event = club_night(tmp_path / "night.tandem", winners="AB")
    assert run("club", "publish", str(event), str(club), "--yes").returncode == 0
    out = tmp_path / "ratings.pdf"
    proc = run("club", "report", str(club), "ratings", str(out))
    assert proc.returncode == 0, proc.stderr
    assert "Rating list" in pdf_text(out.read_bytes()) and "weekly" in pdf_text(out.read_bytes())
    card = tmp_path / "ana.pdf"
    assert run("club", "report", str(club), "person", str(card), "--person", "ana").returncode == 0
    assert "Rating history" in pdf_text(card.read_bytes())
    fails_cleanly(run("club", "report", str(club), "person", str(card)),
                  "the person report needs --person")  # fmt: skip
    fails_cleanly(run("club", "report", str(club), "season", str(card)),
                  "the club has no season yet")  # fmt: skip


def test_seed_takes_the_club_ratings_of_a_linked_event(club: Path, tmp_path: Path) -> None:
    march = club_night(tmp_path / "march.tandem", "2026-03-05", "AB")
    assert run("club", "publish", str(march), str(club), "--yes").returncode == 0
    april = club_night(tmp_path / "april.tandem", "2026-04-02", "", rounds_played=0)
    assert run("club", "link", str(april), str(club), "--yes").returncode == 0
    proc = run("club", "seed", str(april), str(club))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [line.split()[1:3] for line in lines[:2]] == [["Team", "1"], ["Team", "4"]]
    assert lines[0].split()[-1] == "1522"  # 1500 + 10 √5, rounded
    fails_cleanly(run("club", "seed", str(march), str(club)), "round 1 is paired")


def test_the_clubs_backups_are_club_files_kept_as_an_events_are(club: Path, tmp_path: Path) -> None:
    """A club's backup carries the club's extension (`.club`, not the event's `.tandem`), so it
    is opened as what it is; and the rotation that keeps an event's backups few keeps these."""
    import sqlite3

    from director.store.backup import KEEP_OTHERS

    for n, day in enumerate(("2026-03-05", "2026-03-12", "2026-03-19", "2026-03-26"), 1):
        night = club_night(tmp_path / f"n{n}.tandem", day, "AB", name=f"Night {n}")
        proc = run("club", "publish", str(night), str(club), "--yes")  # backs the club up first
        assert proc.returncode == 0, proc.stderr
    backups = sorted(
        (club.parent / "weekly.club-backups").iterdir(), key=lambda p: p.stat().st_mtime_ns
    )
    assert [p.suffix for p in backups] == [".club"] * KEEP_OTHERS, backups  # 4 made, 3 kept
    with sqlite3.connect(backups[-1]) as c:  # the newest: the club before the fourth night
        assert c.execute("SELECT COUNT(*) FROM club_event").fetchone() == (3,)
    # `backups` checks each as a club (an event's check would call every one damaged)
    listed = run("backups", str(club))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.count("  good  ") == KEEP_OTHERS, listed.stdout
    listed = run("club", "ratings", str(backups[-1]))  # a backup opens as the club it copies
    assert listed.returncode == 0 and "Ana" in listed.stdout, listed.stderr
    assert len(list(backups[-1].parent.iterdir())) == KEEP_OTHERS  # and leaves nothing beside


def _persons(path: Path) -> int:
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as c:
        return int(c.execute("SELECT COUNT(*) FROM person").fetchone()[0])


def test_backups_lists_a_clubs_backups_and_restore_puts_one_back(
    club: Path, tmp_path: Path
) -> None:
    """`backups CLUB` lists each backup checked as a club (what it holds: persons, events);
    `restore CLUB BACKUP` puts it back, keeping the file it replaces, as for an event."""
    from director.services.backups import set_aside_files

    first = club_night(tmp_path / "n1.tandem", "2026-03-05", "AB", name="Night 1")
    assert run("club", "publish", str(first), str(club), "--yes").returncode == 0
    second = club_night(tmp_path / "n2.tandem", "2026-03-12", "AB", name="Night 2",
                        players=(("Ivo", "Jon"), ("Kai", "Lea")))  # fmt: skip
    assert run("club", "publish", str(second), str(club), "--yes").returncode == 0
    assert _persons(club) == 12
    listed = run("backups", str(club))
    assert listed.returncode == 0, listed.stderr
    lines = [line for line in listed.stdout.splitlines() if "  good  " in line]
    assert len(lines) == 2, listed.stdout
    newest = lines[0].split()[-1]  # the club after Night 1, backed up before Night 2
    assert "8 persons" in lines[0] and "1 events" in lines[0], lines[0]
    assert "0 persons" in lines[1] and "0 events" in lines[1], lines[1]
    assert f'tandem-director restore "{club}" "{newest}"' in listed.stdout

    restored = run("restore", str(club), newest, "--reason", "Night 2 was the wrong club")
    assert restored.returncode == 0, restored.stderr
    [aside] = set_aside_files(club)
    assert f"restored {club} from {newest}" in restored.stdout
    assert f"kept as {aside}" in restored.stdout
    assert _persons(club) == 8 and _persons(aside) == 12  # nothing lost: the replaced one kept
    ratings = run("club", "ratings", str(club))  # the restored file opens as the club
    assert ratings.returncode == 0 and "Ana" in ratings.stdout and "Ivo" not in ratings.stdout
    import sqlite3

    with contextlib.closing(sqlite3.connect(club)) as c:
        meta = dict(c.execute("SELECT key, value FROM meta").fetchall())
    assert meta["restore_reason"] == "Night 2 was the wrong club"
    assert meta["restored_from"] == newest
    assert "set aside" in run("backups", str(club)).stdout


def test_restoring_a_club_refuses_clearly(club: Path, tmp_path: Path) -> None:
    from director.store.club import open_club

    night = club_night(tmp_path / "n1.tandem", "2026-03-05", "AB")
    assert run("club", "publish", str(night), str(club), "--yes").returncode == 0
    [backup] = (club.parent / "weekly.club-backups").iterdir()
    fails_cleanly(run("restore", str(club), str(tmp_path / "nope.club")), "does not exist")
    junk = tmp_path / "junk.club"
    junk.write_text("not a database")
    fails_cleanly(run("restore", str(club), str(junk)), "cannot be restored")
    fails_cleanly(run("restore", str(club), str(night)), "is an event, not a club")
    fails_cleanly(run("restore", str(night), str(backup)), "is a club, not an event")
    db = open_club(str(club), make_backup=False)  # the app has the club open
    try:
        fails_cleanly(run("restore", str(club), str(backup)), "open elsewhere")
    finally:
        db.close()
    assert _persons(club) == 8  # every refusal left the club as it was
    assert [p for p in club.parent.iterdir() if ".replaced-" in p.name] == []


def test_a_clubs_damaged_backup_names_a_check_that_works_for_a_club(club: Path) -> None:
    """A backup that fails its check names `club check CLUB`, which reports the damage."""
    import sqlite3

    with contextlib.closing(sqlite3.connect(club)) as c:  # an alias of nobody: foreign keys off
        c.execute("INSERT INTO alias (person_id, name) VALUES (999, 'Ghost')")
        c.commit()
    proc = run("club", "ratings", str(club))  # reads: no backup, no refusal
    assert proc.returncode == 0, proc.stderr
    made = run("backup", str(club))
    fails_cleanly(made, "the club file may be damaged")
    assert f"tandem-director club check {club}" in made.stderr
    assert "tandem-director check`" not in made.stderr
    checked = run("club", "check", str(club))
    assert checked.returncode == 1, checked.stderr
    assert "foreign key: table alias" in checked.stdout
    assert checked.stdout.strip().endswith(f"{club}: 1 problem")


def test_club_check_and_backup_of_a_sound_club(club: Path, tmp_path: Path) -> None:
    checked = run("club", "check", str(club))
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.strip() == f"{club}: OK"
    made = run("backup", str(club), "--reason", "before the season")
    assert made.returncode == 0, made.stderr
    assert "before the season" in run("backups", str(club)).stdout
    event = club_night(tmp_path / "n1.tandem")
    fails_cleanly(run("club", "check", str(event)), "n1.tandem is an event, not a club")
    fails_cleanly(run("club", "check", str(tmp_path / "nope.club")), "does not exist")
