"""The command line at its edges: output links and devices, `-`, numbers out of range, server
addresses, passwords, and a failed or killed `new` that leaves nothing behind (issue 14, items 2, 9,
13, 14).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.cli.test_cli_core import EXAMPLE, EXE, fails_cleanly, run

HUGE = "99999999999999999999"


@pytest.fixture(scope="module")
def built_event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder with the event the commands build (e.tandem, its backups, the team list),
    made once: four interpreter starts, which each test used to pay again."""
    folder = tmp_path_factory.mktemp("edges")
    path = folder / "e.tandem"
    assert run("new", str(path), "--name", "E", "--length", "5").returncode == 0
    teams = folder / "teams.csv"  # FORMATS: a record fills a paired match of registered teams
    teams.write_text("team,player1,player2\nBlue Bar,Ana,Ben\nGammonites,Cleo,Dev\n")
    assert run("import-teams", str(path), str(teams)).returncode == 0
    assert run("pair", str(path)).returncode == 0
    assert run("import-match", str(path), str(EXAMPLE)).returncode == 0
    return folder


@pytest.fixture
def event(built_event: Path, tmp_path: Path) -> Path:
    """Each test's own copy of that folder: the tests never touch the one built."""
    shutil.copytree(built_event, tmp_path, dirs_exist_ok=True)
    return tmp_path / "e.tandem"


def outputs(event: Path, out: str) -> list[list[str]]:
    return [
        ["export-teams", str(event), out],
        ["export-match", str(event), "1", out],
        ["report", "standings", str(event), "-o", out],
    ]


@pytest.mark.parametrize("which", [0, 1, 2], ids=["export-teams", "export-match", "report"])
def test_an_output_through_a_symlink_writes_its_target_and_keeps_the_link(
    event: Path, tmp_path: Path, which: int
) -> None:
    target = tmp_path / "exports" / "latest.out"
    target.parent.mkdir()
    target.write_text("old")
    link = tmp_path / "link.out"
    link.symlink_to(target)
    done = run(*outputs(event, str(link))[which])
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and link.resolve() == target
    assert target.read_bytes() != b"old" and len(target.read_bytes()) > 20


@pytest.mark.parametrize("which", [0, 1, 2], ids=["export-teams", "export-match", "report"])
def test_an_output_that_is_a_pipe_is_written_in_place(
    event: Path, tmp_path: Path, which: int
) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    done = run(*outputs(event, str(fifo))[which])
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert fifo.is_fifo()  # not replaced by a file
    assert len(got[0]) > 20


@pytest.mark.parametrize("which", [0, 1, 2], ids=["export-teams", "export-match", "report"])
def test_an_output_named_as_the_event_itself_is_refused_and_the_event_kept(
    event: Path, which: int
) -> None:
    """`report standings e.tandem -o e.tandem` replaced the event by a PDF (exit 0, "wrote
    e.tandem"): every result gone. One line, exit 2, the event as it was."""
    before = run("standings", str(event))
    assert before.returncode == 0, before.stderr
    done = run(*outputs(event, str(event))[which])
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"tandem-director: cannot write {event}: it is an event or club file; choose another "
        "name for the output"
    ]
    after = run("standings", str(event))
    assert (after.returncode, after.stdout) == (0, before.stdout)


def test_a_dash_means_standard_output(event: Path, tmp_path: Path) -> None:
    record = run("export-match", str(event), "1", "-", cwd=tmp_path)
    assert record.returncode == 0
    assert json.loads(record.stdout)["games"] == json.loads(EXAMPLE.read_text())["games"]
    teams = run("export-teams", str(event), "-", cwd=tmp_path)
    assert teams.stdout.startswith("team,player1,player2")
    pdf = subprocess.run([EXE, "report", "teams", str(event), "-o", "-"], cwd=tmp_path,
                         capture_output=True, timeout=60, check=False)  # fmt: skip
    assert pdf.returncode == 0 and pdf.stdout.startswith(b"%PDF-")
    assert not (tmp_path / "-").exists()  # run in tmp_path: a file named "-" would be here


@pytest.mark.parametrize(
    "args",
    [
        ["--length", HUGE],
        ["--length", "5", "--rounds", HUGE],
        ["--length", "5", "--rounds", "-3"],
        ["--length", "5", "--time", f"{HUGE}+0"],
        ["--length", "5", "--time", f"60+{HUGE}"],
    ],
)
def test_new_with_a_number_out_of_range_says_so_and_leaves_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    path = tmp_path / "e.tandem"
    fails_cleanly(run("new", str(path), "--name", "E", *args), "")
    assert list(tmp_path.iterdir()) == []


def test_a_name_too_long_leaves_nothing_and_a_retry_works(tmp_path: Path) -> None:
    path = tmp_path / "e.tandem"
    fails_cleanly(run("new", str(path), "--name", "N" * 400, "--length", "5"), "longer than")
    assert list(tmp_path.iterdir()) == []
    assert run("new", str(path), "--name", "E", "--length", "5").returncode == 0


def test_simulate_with_a_huge_length_leaves_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.tandem"
    fails_cleanly(run("simulate", str(path), "--teams", "4", "--rounds", "2", "--length", HUGE), "")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [
        ["export-match", "{event}", HUGE, "{tmp}/m.json"],
        ["report", "scoresheets", "{event}", "--match", HUGE, "-o", "{tmp}/r.pdf"],
        ["clock", "{event}", HUGE],
        ["standings", "{event}", "--round", HUGE],
    ],
)
def test_huge_ids_are_refused_in_one_line(event: Path, tmp_path: Path, args: list[str]) -> None:
    filled = [a.format(event=event, tmp=tmp_path) for a in args]
    fails_cleanly(run(*filled), "")


@pytest.mark.parametrize(
    "url", ["postgresql://director:secret@[::1/x", "postgresql://director:secret@host:99999999/x"]
)
def test_a_malformed_server_address_is_one_line_without_the_password(url: str) -> None:
    done = run("check", url)
    fails_cleanly(done, "")
    assert "secret" not in done.stderr + done.stdout


def test_new_on_a_server_never_prints_the_password() -> None:
    done = run(
        "new", "postgresql://director:secret@127.0.0.1:1/none", "--name", "E", "--length", "5"
    )
    assert "secret" not in done.stdout + done.stderr
    assert done.returncode == 2 and "Traceback" not in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["new", "{tmp}/e.db", "--name", "E", "--length", "5"],
        ["new", "sqlite:///{tmp}/e.db", "--name", "E", "--length", "5"],
        ["simulate", "{tmp}/e.db", "--teams", "4", "--rounds", "2"],
        ["simulate", "sqlite:///{tmp}/e.db", "--teams", "4", "--rounds", "2"],
    ],
    ids=["new-file", "new-url", "simulate-file", "simulate-url"],
)
def test_a_new_event_goes_into_a_tandem_file_or_a_server(tmp_path: Path, args: list[str]) -> None:
    """`new` and `simulate` refuse the same targets in the same words (store/targets.py);
    `simulate sqlite:///…` used to end in a traceback from the server engine."""
    done = run(*(a.format(tmp=tmp_path) for a in args))
    fails_cleanly(
        done, "an event file name ends in .tandem" if "://" not in args[1] else "postgresql://"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "args",
    [["simulate", "--teams", "40", "--rounds", "4"], ["new", "--name", "E", "--length", "5"]],
    ids=["simulate", "new"],
)
def test_a_new_event_killed_while_it_is_built_leaves_no_event_file(
    tmp_path: Path, args: list[str]
) -> None:
    """Killed the moment its first file appears, `new`/`simulate` leaves no `e.tandem` that
    "holds no event" or blocks a retry: the file is built under a hidden name (item 2)."""
    path = tmp_path / "e.tandem"
    child = subprocess.Popen([EXE, args[0], str(path), *args[1:]], stderr=subprocess.PIPE)
    try:
        for _ in range(3000):
            if any(tmp_path.iterdir()) or child.poll() is not None:
                break
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    finally:
        if child.stderr:
            child.stderr.close()
    assert child.returncode == -signal.SIGKILL  # it was killed mid-way, not finished
    assert not path.exists() and list(tmp_path.iterdir()) != []
    assert run("new", str(path), "--name", "E", "--length", "5").returncode == 0


def test_ctrl_c_stops_a_command_in_one_line_and_keeps_nothing_half_made(tmp_path: Path) -> None:
    """Ctrl+C during a long `simulate` printed a page of traceback (KeyboardInterrupt in the
    middle of SQLAlchemy's flush). One line, the shell's status for an interrupt (130), and
    no event file: it is built under a hidden name, removed on the way out."""
    path = tmp_path / "big.tandem"
    child = subprocess.Popen(
        [EXE, "simulate", str(path), "--teams", "2000", "--rounds", "9"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    assert child.stdout.readline().startswith("seed ")  # its imports done, the build under way
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert (child.returncode, err) == (
        130,
        "tandem-director: stopped (Ctrl+C) before the command was done: what it had not "
        "finished is not saved\n",
    )
    assert list(tmp_path.iterdir()) == []
