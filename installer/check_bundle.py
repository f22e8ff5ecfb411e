"""Check a built app against the source it was built from, on any system.

    python installer/check_bundle.py dist/tandem-director/tandem-director        (Linux)
    python installer/check_bundle.py dist/tandem-director/tandem-director-cli.exe (Windows)
    python installer/check_bundle.py "dist/Tandem Director.app/Contents/MacOS/tandem-director"

Runs the built program and the unfrozen app (this Python, `-m director.cli`) side by side:
`--version`, `met --json` and `replay` of the FORMATS example must print the same; a file
argument that is no event gives one line and status 2; every file of resources/ and every
resource the code names is in the bundle; `new`, `check`, `simulate` and `report` work (the
migrations and fonts are files the bundle must carry); `serve` answers the phones' pages, a
board clock's page and their scripts; and `--smoke-test` (the GUI offscreen:
an event opened, every page and report, no Qt warning) exits 0. One line per check; status 1
at the first failure. scripts/smoke_frozen.sh and .github/workflows/installers.yml run it.
"""

from __future__ import annotations

import difflib
import importlib.metadata
import os
import re
import signal
import subprocess
import sys
import tempfile
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "fixtures" / "formats_example.tandem-match.json"
NAMED = re.compile(r'resource_path\(((?:"[^"{}]+"(?:, )?)+)\)')
passed: list[str] = []
BUILD_TOOL = "pyinstaller"  # in the release venv too: it builds every bundle


def dist_name(requirement: str) -> str:
    """A requirement's distribution name, normalised (PEP 503): "pytest-qt>=4.5" -> "pytest-qt"."""
    return re.sub(r"[-_.]+", "-", re.split(r"[<>=!~\[ ;]", requirement, maxsplit=1)[0]).lower()


def test_tools() -> dict[str, set[str]]:
    """The test extra's distributions (pyproject.toml) that the app itself does not need, each
    with the names it may leave in a bundle: its dist-info name and, where this Python has it
    installed, its import names."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    runtime = {dist_name(r) for r in project["dependencies"] + extras["postgres"]}
    tools = {dist_name(r) for r in extras["test"]} - runtime - {BUILD_TOOL}
    names: dict[str, set[str]] = {tool: {tool.replace("-", "_")} for tool in tools}
    for module, dists in importlib.metadata.packages_distributions().items():
        for dist in dists:
            if dist_name(dist) in names:
                names[dist_name(dist)].add(module)
    return names


def test_tools_in(internal: Path) -> Iterator[str]:
    """The test tools whose modules or metadata a bundle's library folder holds."""
    for tool, names in sorted(test_tools().items()):
        # a package folder, or a module file (an extension module: NAME.cpython-…so / .pyd)
        found = any((internal / n).exists() or any(internal.glob(f"{n}.*")) for n in names)
        metadata = (p.name.split("-")[0] for p in internal.glob("*.dist-info"))
        if found or any(dist_name(m) == tool for m in metadata):
            yield tool


class Failed(Exception):
    pass


def ok(text: str) -> None:
    passed.append(text)
    print(f"check_bundle: ok   {text}", flush=True)


def run(command: Sequence[str | Path], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [str(c) for c in command],
        check=False,  # the caller reads the status: a failure is a finding, not a crash
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=timeout,
    )


def same(name: str, frozen: str, source: str) -> None:
    if frozen != source:
        diff = difflib.unified_diff(source.splitlines(), frozen.splitlines(), "unfrozen", "built")
        raise Failed(f"{name} differs:\n" + "\n".join(list(diff)[:20]))
    ok(name)


def resource_folder(exe: Path) -> Path:
    """Where the spec put resources/: _internal beside the program, or the .app's Resources."""
    for folder in (
        exe.parent / "_internal",
        exe.parent.parent / "Resources",
        exe.parent.parent / "Frameworks",
    ):
        if (folder / "director_resources").is_dir():
            return folder / "director_resources"
    raise Failed(f"no director_resources folder near {exe}")


def files_under(folder: Path) -> list[str]:
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    )


def check(exe: Path, work: Path) -> None:
    source = [sys.executable, "-m", "director.cli"]
    for args in (
        ["--version"],
        ["met", "--json"],
        ["replay", RECORD],
        ["replay", "--json", RECORD],
    ):
        built, unfrozen = run([exe, *args]), run([*source, *args])
        if built.returncode != 0:
            raise Failed(f"{' '.join(map(str, args))}: status {built.returncode}\n{built.stderr}")
        shown = " ".join(a.name if isinstance(a, Path) else a for a in args)
        same(f"{shown} ({len(built.stdout)} characters)", built.stdout, unfrozen.stdout)

    bad = run([exe, str(work / "no such event.tandem")])
    if bad.returncode != 2 or len(bad.stderr.splitlines()) != 1:
        raise Failed(f"a file argument that is no event: status {bad.returncode}\n{bad.stderr}")
    ok("a file argument that is no event: status 2, one line")

    bundled = resource_folder(exe)
    shipped = files_under(bundled)
    in_source = "\n".join(files_under(ROOT / "resources"))
    same(f"resources ({len(shipped)} files)", "\n".join(shipped), in_source)
    named = sorted(
        {
            "/".join(re.findall(r'"([^"]+)"', m.group(1)))
            for path in (ROOT / "director").rglob("*.py")
            for m in NAMED.finditer(path.read_text(encoding="utf-8"))
        }
    )
    missing = [n for n in named if not (bundled / n).exists()]
    if missing:
        raise Failed(f"the code uses resources that do not exist: {', '.join(missing)}")
    ok(f"every resource the code names ({len(named)}) is in the bundle")

    # built by the release recipe (build.py's release venv): no test tool came along
    extra = list(test_tools_in(bundled.parent))
    if extra:
        raise Failed(f"the bundle carries test tools of the development venv: {', '.join(extra)}")
    ok("no test tool in the bundle (built from the release venv)")

    event, simulated, pdf = work / "cli.tandem", work / "sim.tandem", work / "standings.pdf"
    club = work / "cli.club"
    for args in (
        ["new", event, "--name", "Bundle check", "--length", "5"],
        ["check", event],
        ["simulate", simulated, "--teams", "4", "--rounds", "2"],
        ["report", "standings", simulated, "-o", pdf],
        ["club", "new", club],  # the club's own migrations
        ["club", "ratings", club],
    ):
        done = run([exe, *args])
        if done.returncode != 0:
            raise Failed(f"{args[0]}: status {done.returncode}\n{done.stderr}")
    if not pdf.read_bytes().startswith(b"%PDF"):
        raise Failed("report standings did not write a PDF")
    ok("new, check, simulate, report, club new (migrations and fonts in the bundle)")
    check_serve([exe], simulated)

    count = "from director.services.reports import KINDS; print(len(KINDS))"
    kinds = run([sys.executable, "-c", count])
    gui = run([exe, "--smoke-test", work / "gui"])
    if gui.returncode != 0:
        raise Failed(f"--smoke-test: status {gui.returncode}\n{gui.stdout}\n{gui.stderr}")
    pdfs = len(list((work / "gui").glob("*.pdf")))
    if pdfs != int(kinds.stdout):
        raise Failed(f"--smoke-test made {pdfs} PDFs, not {kinds.stdout.strip()}\n{gui.stdout}")
    last = gui.stdout.strip().splitlines()[-1].removeprefix("smoke: ")
    ok(f"GUI offscreen: event opened, {pdfs} reports, no Qt warning ({last})")


def check_serve(command: Sequence[str | Path], event: Path) -> None:
    """`serve` answers the players' phones: the pages, a board clock's page, their scripts
    (the web server's modules and resources/web/ in the bundle) and the JSON API."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    serve = [*map(str, command), "serve", str(event), "--host", "127.0.0.1", "--port", "0"]
    server = subprocess.Popen(serve, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().decode().strip()
        if not url.startswith("http://127.0.0.1:"):
            raise Failed(f"serve printed no address: {url!r}")
        pages = {"": "text/html", "clock/bundle-check/1": "text/html"}
        pages |= {"api/standings": "application/json", "api/clock-time": "application/json"}
        for name in ("app.js", "clock.js", "clock_engine.js", "nosleep.min.js"):
            pages[f"static/{name}"] = "javascript"
        for page, kind in pages.items():
            try:
                with urllib.request.urlopen(url + page, timeout=30) as answer:
                    body, shown = answer.read(), answer.headers["Content-Type"]
            except urllib.error.HTTPError as refused:
                raise Failed(f"serve: /{page} answered {refused.code}") from None
            if kind not in shown:
                raise Failed(f"serve: /{page} answered {shown}, not {kind}")
            if page.startswith("static/"):
                source = (ROOT / "resources" / "web" / page[7:]).read_text(encoding="utf-8")
                same(f"/{page}", body.decode(), source)
        ok(f"serve: the phones' pages, a board clock and {len(pages)} addresses answer")
    finally:
        server.terminate()
        _, err = server.communicate(timeout=60)
    stopped = server.returncode in (0, -signal.SIGTERM) or sys.platform == "win32"
    if not stopped or b"Traceback" in err:
        raise Failed(f"serve stopped with status {server.returncode}\n{err.decode()}")


def main(argv: Sequence[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    exe = Path(argv[0]).resolve()
    if not exe.is_file():
        print(f"check_bundle: no program at {exe} (build it: python installer/build.py)")
        return 2
    with tempfile.TemporaryDirectory(prefix="tandem-check-") as work:
        try:
            check(exe, Path(work))
        except Failed as exc:
            print(f"check_bundle: FAIL {exc}", file=sys.stderr)
            return 1
    print(f"check_bundle: all {len(passed)} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
