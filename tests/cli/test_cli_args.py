"""Command-line parsing: `--db URL` in both spellings, `--time` in chess notation, the help
texts, and the small promises of the command reference (README.md)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from director.cli.command_line import (
    _command_names,
    build_parser,
    names_no_command,
    parse_command_line,
)
from director.cli.common import time_control
from director.services.events import get_event
from director.store.engine import open_database

EXE = str(Path(sys.executable).with_name("tandem-director"))
URL = "postgresql://director@club-server/spring_open"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [EXE, *args], capture_output=True, text=True, cwd=cwd, timeout=60, check=False
    )


def one_line_error(proc: subprocess.CompletedProcess[str], needle: str) -> None:
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert needle in lines[0], lines[0]


# --- --db --------------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--db", URL], [f"--db={URL}"]])
def test_db_url_opens_the_app_on_the_server_in_both_spellings(argv: list[str]) -> None:
    parsed = parse_command_line(argv)
    assert parsed.command is None
    assert parsed.db == URL
    assert parsed.event is None


def test_an_event_file_and_db_are_told_apart(tmp_path: Path) -> None:
    parsed = parse_command_line(["club.tandem"])
    assert (parsed.command, parsed.event, parsed.db) == (None, "club.tandem", None)
    parsed = parse_command_line(["standings", "club.tandem", "--json"])
    assert (parsed.command, parsed.file, parsed.json) == ("standings", "club.tandem", True)


def test_db_with_a_command_is_refused_with_one_line_not_a_gui() -> None:
    # it used to start the GUI on a file called "standings"
    one_line_error(run("--db", URL, "standings"), "--db")
    one_line_error(run("--db", "club.tandem"), "not a database URL")
    one_line_error(run("--db"), "--db")


# --- --time ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "base", "inc"),
    [
        ("2+12", 120, 12),
        ("2:00+12", 120, 12),
        ("120s+12", 120, 12),
        ("2m+12s", 120, 12),
        ("1:30+15", 90, 15),
        ("0+15", 0, 15),
        (" 3 + 0 ", 180, 0),
    ],
)
def test_time_is_minutes_plus_seconds_as_everyone_reads_it(text: str, base: int, inc: int) -> None:
    assert time_control(text) == (base, inc)


@pytest.mark.parametrize("text", ["2m", "2+", "+12", "2:60+12", "2:5+12", "x+12", "2+12+1", ""])
def test_a_time_that_is_not_base_plus_increment_is_refused(text: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match="BASE"):
        time_control(text)


def test_new_prints_the_time_control_it_understood_and_stores_it(tmp_path: Path) -> None:
    event = tmp_path / "club.tandem"
    done = run("new", str(event), "--name", "Club", "--length", "5", "--time", "2+12")
    assert done.returncode == 0, done.stderr
    assert "time control: 2 min + 12 s a move (Fischer increment)" in done.stdout
    db = open_database(str(event), read_only=True)
    try:
        with db.Session() as session:
            clock = get_event(session).options.time_control
    finally:
        db.close()
    assert (clock.base_seconds, clock.increment_seconds) == (120, 12)


# --- help texts --------------------------------------------------------------------------


def all_parsers() -> list[tuple[str, argparse.ArgumentParser]]:
    root = build_parser()
    out = [("tandem-director", root)]
    for action in root._actions:
        if isinstance(action, argparse._SubParsersAction):
            out += sorted(action.choices.items())
    return out


@pytest.mark.parametrize(("name", "parser"), all_parsers(), ids=lambda x: str(x)[:20])
def test_every_option_and_argument_says_what_it_is(
    name: str, parser: argparse.ArgumentParser
) -> None:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            continue
        assert action.help, f"{name} {action.option_strings or action.dest} has no help text"


RULES_PAGE = Path(__file__).parents[2] / "resources" / "help" / "rules.md"


@pytest.mark.parametrize(
    ("option", "section"),
    [
        ("--length", "1. Teams, matches and pairs"),
        ("--winner-required", "3. When a match ends"),
        ("--one-cube-threshold", "4. The one-cube rule"),
        ("--scoring", "6. Other scorings"),
    ],
)
def test_new_cites_the_rule_book_section_of_each_rule(option: str, section: str) -> None:
    (action,) = [a for a in dict(all_parsers())["new"]._actions if option in a.option_strings]
    assert f"RULES §{section.split('.', maxsplit=1)[0]}" in str(action.help)
    assert f"\n## {section}" in RULES_PAGE.read_text(encoding="utf-8")


def test_clock_help_points_to_a_command_that_lists_match_ids() -> None:
    clock_help = run("clock", "--help").stdout
    assert "pair FILE --round R" in " ".join(clock_help.split())
    # and that command lists them: test_pair_round_lists_each_match_with_its_id


def test_pair_round_lists_each_match_with_its_id(tmp_path: Path) -> None:
    event = tmp_path / "sim.tandem"
    done = run("simulate", str(event), "--teams", "4", "--rounds", "1", "--seed", "2")
    assert done.returncode == 0, done.stderr
    lines = run("pair", str(event), "--round", "1").stdout.splitlines()
    assert lines and all(line.startswith("table ") and "match " in line for line in lines)


def test_standings_after_a_round_that_was_not_played_is_an_error(tmp_path: Path) -> None:
    event = tmp_path / "sim.tandem"
    run("simulate", str(event), "--teams", "4", "--rounds", "3", "--seed", "2")
    one_line_error(run("standings", str(event), "--round", "9"), "round 9")


def test_standings_json_keys_are_snake_case(tmp_path: Path) -> None:
    event = tmp_path / "sim.tandem"
    run("simulate", str(event), "--teams", "4", "--rounds", "2", "--seed", "2")
    rows = json.loads(run("standings", str(event), "--json").stdout)
    keys = {k for row in rows for k in row} if isinstance(rows, list) else set(rows)
    assert keys and all(k == k.lower() and "-" not in k and " " not in k for k in keys), keys


def test_exports_say_what_they_wrote(tmp_path: Path) -> None:
    event = tmp_path / "sim.tandem"
    run("simulate", str(event), "--teams", "4", "--rounds", "1", "--seed", "2")
    out = tmp_path / "teams.csv"
    done = run("export-teams", str(event), str(out))
    assert done.returncode == 0 and done.stdout.strip() == f"wrote 4 teams to {out}"
    match = tmp_path / "m.json"
    done = run("export-match", str(event), "1", str(match))
    assert done.returncode == 0 and done.stdout.strip().startswith("wrote match 1 (")
    assert done.stdout.strip().endswith(f") to {match}")


def test_met_text_has_no_float_noise() -> None:
    text = run("met", "--csv", "--size", "3").stdout
    assert "0.49999999999999994" not in text and "0.5000000000000001" not in text


def test_the_app_on_a_file_or_server_loads_no_commands_to_parse_it() -> None:
    """`tandem-director spring.tandem` (or a path, or a URL) opens the app on it: no command
    module is loaded to tell that it is no command (~0.05 s of opening an event)."""
    probe = (
        "import sys, director.cli.command_line as cli\n"
        f"for word in ('spring.tandem', 'events/spring', {URL!r}):\n"
        "    print(vars(cli.parse_command_line([word])))\n"
        "print(*sorted(m for m in sys.modules if m.startswith('director.cli.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    *parsed, loaded = done.stdout.splitlines()
    assert parsed == [
        str({"db": None, "command": None, "event": word})
        for word in ("spring.tandem", "events/spring", URL)
    ]
    assert loaded == "director.cli.command_line director.cli.common"


def test_no_command_is_named_like_a_file_or_url() -> None:
    """What lets a file or URL skip the parse: no command could be meant by it."""
    names = _command_names(build_parser())
    assert "pair" in names
    assert not [name for name in names if names_no_command(name)]


def test_the_command_line_loads_its_commands_only_to_parse_them() -> None:
    """`tandem-director` without arguments starts the app: the commands' modules (which bring
    the domain's records, clocks and rules) are not loaded for it, but are for a parse."""
    probe = (
        "import sys, director.cli.command_line as cli\n"
        "loaded = lambda: sorted(m for m in sys.modules if m.startswith('director.cli.'))\n"
        "print(*loaded())\n"
        "cli.build_parser()\n"
        "print(*loaded())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    before, after = done.stdout.splitlines()
    assert before == "director.cli.command_line director.cli.common"
    assert "director.cli.core" in after.split() and "director.cli.pairings" in after.split()


def test_the_app_without_arguments_loads_no_command_line() -> None:
    """`tandem-director` from its menu entry or icon: the command line (argparse, the
    one-line error parser) is not loaded to find there is nothing to parse (figure 1 of
    tests/benchmarks/bench_gui.py, the cold start)."""
    probe = (
        "import sys, director.cli\n"
        "print(*sorted(m for m in sys.modules if m.split('.')[0] == 'director'))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["director", "director.cli"]


# --- numbers are 0-9 digits ---------------------------------------------------------------

TOO_LONG = "1" * 5000  # int() refuses a string of more than 4,300 digits


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        # "²" passed str.isdigit, then int() raised: "invalid parse value" or a traceback
        (("report", "scoresheet", "{event}", "--round", "²"), "'²' is not a whole number"),
        (("report", "scoresheet", "{event}", "--round", TOO_LONG), "is too large: at most"),
        (("serve", "{event}", "--port", "²"), "'²' is not a port number from 0 to 65535"),
        (("report", "scoresheet", "{event}", "--start", "²²:³³"), "is not a time of day"),
        # "٣" and "٠.٣" were read as 3 and 0.3, "nan" as a rate
        (("report", "scoresheet", "{event}", "--round", "٣"), "'٣' is not a whole number"),
        (("serve", "{event}", "--port", "٨٠"), "'٨٠' is not a port number from 0 to 65535"),
        (("report", "scoresheet", "{event}", "--start", "١٩:٣٠"), "is not a time of day"),
        (("met", "--gammon-rate", "٠.٣"), "'٠.٣' is not a number"),
        (("report", "met", "{event}", "--gammon-rate", "٠.٣"), "'٠.٣' is not a number"),
        (("report", "met", "{event}", "--backgammon-rate", "nan"), "'nan' is not a number"),
        (("report", "met", "{event}", "--size", "٨"), "'٨' is not a whole number"),
        (
            ("new", "{new}", "--name", "N", "--length", "5", "--one-cube-threshold", "٢"),
            "'٢' is not a whole number",
        ),
        (("new", "{new}", "--name", "N", "--length", "٥"), "'٥' is not a whole number"),
        (("new", "{new}", "--name", "N", "--length", "5", "--time", "٢+١٢"), "is not BASE+INC"),
    ],
    ids=lambda value: value[1] if isinstance(value, tuple) else None,
)
def test_a_number_in_digits_other_than_0_to_9_is_refused_in_one_line(
    event_path: Path, tmp_path: Path, args: tuple[str, ...], needle: str
) -> None:
    """Never a traceback, never another number: refused as typed, nothing written."""
    new = tmp_path / "new.tandem"
    out = tmp_path / "out.pdf"
    filled = [a.format(event=event_path, new=new) for a in args]
    if filled[0] == "report":
        filled += ["-o", str(out)]
    one_line_error(run(*filled), needle)
    assert not new.exists() and not out.exists()
