"""Benchmark the table service: 32 slip phones and 200 viewers on loopback (issue 18).

Run: `QT_QPA_PLATFORM=offscreen python tests/benchmarks/bench_phones.py [--viewers 200]`.

The laptop's side runs in this process as in the app: the event, the table service in its own
thread, and a clock window on a match of its own. Another process holds the phones: 200
viewers on the pairings page's push stream, and the 32 slip phones of 16 matches × 2 boards
(each subscribed to its match's channels). For each of the 32 boards two phones send and
confirm a slip over HTTP, then the desk accepts it (a service call, as Enter in the window).

1. Result recorded (the desk's commit) → seen on every viewer's stream: median and p99
   (needs median < 300 ms, p99 < 1 s).
2. The desk's own response: key-down to side switched on the laptop's clock window, before
   the service is on and while the phones load it (needs median < 1 ms in both).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the tests package

MATCHES = 16
PRESSES = 200


# --- the phones' process -------------------------------------------------------------------


async def _stream(host: str, port: int, path: str, out: list[tuple[int, str]], ready: asyncio.Event,
                  counter: list[int], wanted: int) -> None:  # fmt: skip
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n"
                 .encode())  # fmt: skip
    await writer.drain()
    while (await reader.readline()) not in (b"\r\n", b""):
        pass  # the response headers
    counter[0] += 1
    if counter[0] == wanted:
        ready.set()
    event, data = "", ""
    while line := await reader.readline():
        text = line.decode().rstrip("\r\n")
        if text.startswith("event: "):
            event = text[7:]
        elif text.startswith("data: "):
            data = text[6:]
        elif not text and event:
            out.append((time.monotonic_ns(), data if event == "pairings" else event))
            event, data = "", ""


async def _phones(url: str, viewers: int, slip_channels: list[str]) -> None:
    host, port = url.split("//")[1].rstrip("/").split(":")
    seen: list[list[tuple[int, str]]] = [[] for _ in range(viewers)]
    others: list[tuple[int, str]] = []
    ready, counter = asyncio.Event(), [0]
    wanted = viewers + len(slip_channels)
    tasks = [asyncio.create_task(_stream(host, int(port), "/events?ch=pairings", seen[i], ready,
                                         counter, wanted)) for i in range(viewers)]  # fmt: skip
    tasks += [asyncio.create_task(_stream(host, int(port), f"/events?{q}", others, ready, counter,
                                          wanted)) for q in slip_channels]  # fmt: skip
    await ready.wait()
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # the laptop says: done
    for task in tasks:
        task.cancel()
    # per viewer: when each match's score first reached each value
    out = []
    for stream in seen:
        firsts: dict[str, int] = {}
        for stamp, data in stream:
            for m in json.loads(data)["matches"]:
                key = f"{m['id']}:{m['score']['A']}-{m['score']['B']}"
                firsts.setdefault(key, stamp)
        out.append(firsts)
    print(json.dumps({"viewers": out, "slip_messages": len(others)}), flush=True)


# --- the laptop ----------------------------------------------------------------------------


def percentile(values: list[float], p: int) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[p - 1]


def post(url: str, body: dict[str, object]) -> int:
    origin = url.split("/api/", maxsplit=1)[0]
    req = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json", "Origin": origin}
    )
    with urllib.request.urlopen(req, timeout=10) as response:
        return int(response.status)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=200)
    parser.add_argument("--phones-of", help=argparse.SUPPRESS)  # the phones' process
    parser.add_argument("--slips", default="", help=argparse.SUPPRESS)
    args, _ = parser.parse_known_args()
    if args.phones_of:
        asyncio.run(_phones(args.phones_of, args.viewers, args.slips.split(",")))
        return 0

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from director.domain.rules import EventOptions, Side, TimeControl
    from director.services import rounds, slips
    from director.services.events import create_event
    from director.services.matches import create_match
    from director.services.teams import add_team
    from director.store.engine import create_database
    from director.ui.clock.keys import press_action
    from director.ui.clock.launch import open_clock_window
    from director.ui.context import EventContext
    from director.web.server import TableService
    from tests.benchmarks.bench_clock_window import key_down

    app = QApplication.instance() or QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)
    folder = Path(tempfile.mkdtemp(prefix="bench-phones-"))
    db = create_database(str(folder / "bench.tandem"))
    with db.Session() as s, s.begin():
        create_event(s, "Phones bench", EventOptions(time_control=TimeControl(3600, 5)))
        for i in range(1, 2 * MATCHES + 1):
            add_team(s, f"Team {i:02}", (f"P{i}a", f"P{i}b"))
        matches = [m.id for m in rounds.pair_next_round(s).value.matches]
        a = add_team(s, "Clock A", ("Ca", "Cb")).value.id
        b = add_team(s, "Clock B", ("Cc", "Cd")).value.id
        clock_match = create_match(s, a, b, table=99).value.id
        tokens = {(m, side): slips.token_for(s, m, side) for m in matches for side in Side}
    ctx = EventContext(db)
    settings = QSettings(str(folder / "keys.ini"), QSettings.Format.IniFormat)
    window = open_clock_window(ctx, clock_match, settings=settings)
    window.show()
    app.processEvents()
    keys, clock = window.keymap, window.clock
    key_down(window, keys.key(press_action(1, Side.A)))
    key_down(window, keys.key(press_action(2, Side.B)))
    key_down(window, keys.key("start"))

    def presses(count: int) -> list[float]:
        out = []
        for i in range(count):
            board = 1 + i % 2
            side = clock.running_side(board)
            assert side is not None
            sent = time.perf_counter_ns()
            key_down(window, keys.key(press_action(board, side)))
            out.append((time.perf_counter_ns() - sent) / 1e6)
            assert clock.running_side(board) is side.other
            app.processEvents()
            time.sleep(0.005)
        return out

    quiet = presses(PRESSES)
    service = TableService(db, "127.0.0.1", 0)
    url = service.start()[0]
    channels = [f"ch=match:{m}&ch=slips:{m}" for m in matches for _board in (1, 2)]
    phones = subprocess.Popen(
        [sys.executable, __file__, "--phones-of", url, "--viewers", str(args.viewers),
         "--slips", ",".join(channels)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert phones.stdout is not None and phones.stdin is not None
    assert phones.stdout.readline().strip() == "ready"
    print(f"{args.viewers} viewers and {len(channels)} slip phones connected to {url}")
    recorded: list[tuple[str, int]] = []
    loaded: list[float] = []
    for n, match_id in enumerate(matches * 2):
        board = 1 if n < MATCHES else 2
        winner = "A" if board == 1 else "B"
        slip_url = f"{url}api/slip/{tokens[match_id, Side(winner)]}"  # the winners enter it
        uid = secrets.token_hex(16)
        game = {"pair": 1, "board": board, "winner": winner, "end": "bear-off",
                "level": "single", "cube": 1}  # fmt: skip
        assert post(slip_url, {"uid": uid, "device": secrets.token_hex(16), "game": game}) == 200
        other = f"{url}api/slip/{tokens[match_id, Side(winner).other]}"  # the losers confirm
        assert post(f"{other}/answer", {"uid": uid, "agree": True,
                                        "device": secrets.token_hex(16)}) == 200  # fmt: skip
        pending = next(p for p in ctx.read(slips.pending_slips) if p.uid == uid)
        match = ctx.change(slips.accept_slip, pending.id)
        committed = time.monotonic_ns()
        service.notify()  # what the window does on ctx.changed
        score = f"{match_id}:{match.outcome.final.a}-{match.outcome.final.b}"
        recorded.append((score, committed))
        loaded += presses(5)  # the director keeps working while the phones update
        deadline = time.monotonic() + 0.15
        while time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.005)
    time.sleep(1.5)
    phones.stdin.write("done\n")
    phones.stdin.flush()
    report = json.loads(phones.stdout.readline())
    phones.wait(30)
    service.stop()
    window.close()
    app.processEvents()
    ctx.close()

    latencies, missing = [], 0
    for firsts in report["viewers"]:
        for score, committed in recorded:
            if score in firsts:
                latencies.append((firsts[score] - committed) / 1e6)
            else:
                missing += 1
    med, p99 = statistics.median(latencies), percentile(latencies, 99)
    print(f"1. {len(recorded)} results x {args.viewers} viewers = {len(latencies)} updates seen"
          f" ({missing} missing); slip phones got {report['slip_messages']} pushes")  # fmt: skip
    print(f"   result recorded -> visible: median {med:.0f} ms, p99 {p99:.0f} ms,"
          f" max {max(latencies):.0f} ms  (needs median < 300 ms, p99 < 1000 ms)")  # fmt: skip
    q_med, l_med = statistics.median(quiet), statistics.median(loaded)
    print(f"2. key-down to side switched: service off median {q_med:.3f} ms"
          f" (p99 {percentile(quiet, 99):.3f}); phones loading median {l_med:.3f} ms"
          f" (p99 {percentile(loaded, 99):.3f})  (needs median < 1 ms)")  # fmt: skip
    ok = not missing and med < 300 and p99 < 1000 and q_med < 1 and l_med < 1
    print("all within bounds" if ok else "OUT OF BOUNDS")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
