"""Benchmark a room of phones reloading one match after a push (issue 26): `/api/matches/N`
and both teams' `/api/slip/TOKEN`, on loopback only.

Run: `python tests/benchmarks/bench_match_reads.py [--viewers 300] [--changes 4]`.

A fresh event of 16 matches (slips accepted automatically) served by the real
`tandem-director serve` on 127.0.0.1 in its own process. For each change: one table's slip is
sent and confirmed (the result is recorded), then at once `--viewers` phones read that match
(`/api/matches/N`) and as many read its slip page (each team's token in turn), 50 at a time.
Printed: each read's answer time p50 / p99, the reads per second, and the server's CPU time
per read (the work done, whatever the machine's load made of the clock time); every answer
is checked (status 200, the new score, the token's own side). Figures only; exit status 1 when
an answer was wrong.
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
from pathlib import Path

from bench_phone_room import cpu_seconds, event_file, free_port, post, raise_files

AT_ONCE = 50  # connections at a time: a room's reloads arrive together, not all in one instant


async def _get(port: int, path: str, source: str) -> tuple[int, bytes, float]:
    sent = time.monotonic()
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n".encode()
    )
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    status = int(head[9:12]) if head.startswith(b"HTTP/1.1 ") else 0
    return status, body, (time.monotonic() - sent) * 1000


async def _reads(port: int, paths: list[str]) -> list[tuple[int, bytes, float]]:
    gate = asyncio.Semaphore(AT_ONCE)

    async def one(path: str, source: str) -> tuple[int, bytes, float]:
        async with gate:
            return await _get(port, path, source)

    # each phone its own address (as on the Wi-Fi): the service's per-address limits stay out
    return await asyncio.gather(
        *(one(p, f"127.0.{2 + i // 250}.{1 + i % 250}") for i, p in enumerate(paths))
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--viewers", type=int, default=300)
    parser.add_argument("--changes", type=int, default=4)
    args = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    raise_files()
    folder = Path(tempfile.mkdtemp(prefix="bench-reads-"))
    path, matches, tokens = event_file(folder)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from director.cli import main; sys.exit(main())",
         "serve", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    assert url == f"http://127.0.0.1:{port}/", url
    wrong = 0
    times: dict[str, list[float]] = {"match": [], "slip": []}
    cpu = {"match": 0.0, "slip": 0.0}
    wall = {"match": 0.0, "slip": 0.0}
    for change in range(args.changes):
        match_id = matches[change % len(matches)]
        pair, board = 1 + change // (2 * len(matches)), 1 + (change // len(matches)) % 2
        game = {"pair": pair, "board": board, "winner": "A", "end": "bear-off",
                "level": "single", "cube": 1}  # fmt: skip
        uid = secrets.token_hex(16)
        a, b = tokens[(match_id, "A")], tokens[(match_id, "B")]
        statuses = (
            post(f"{url}api/slip/{a}", {"uid": uid, "device": secrets.token_hex(16), "game": game}),
            post(f"{url}api/slip/{b}/answer",
                 {"uid": uid, "device": secrets.token_hex(16), "agree": True}),
        )  # fmt: skip
        if statuses != (200, 200):
            print(f"change {change + 1}: the slip was refused {statuses}")
            wrong += 1
            continue
        for kind in ("match", "slip"):
            if kind == "match":
                paths = [f"/api/matches/{match_id}"] * args.viewers
            else:
                paths = [f"/api/slip/{(a, b)[i % 2]}" for i in range(args.viewers)]
            before, started = cpu_seconds(server.pid), time.monotonic()
            answers = asyncio.run(_reads(port, paths))
            wall[kind] += time.monotonic() - started
            cpu[kind] += cpu_seconds(server.pid) - before
            for i, (status, body, ms) in enumerate(answers):
                times[kind].append(ms)
                data = json.loads(body) if status == 200 else {}
                if kind == "match":
                    ok = status == 200 and data["score"]["A"] >= 1
                else:
                    ok = (
                        status == 200
                        and data["side"] == "AB"[i % 2]
                        and any(
                            s["uid"] == uid and s["status"] == "accepted" for s in data["slips"]
                        )
                    )
                if not ok and wrong < 5:
                    print(f"wrong {kind} answer: {status} {body[:300]!r}")
                wrong += not ok
    server.terminate()
    server.wait(30)
    for kind, route in (("match", "/api/matches/N"), ("slip", "/api/slip/TOKEN")):
        ms, reads = times[kind], len(times[kind])
        if not reads:
            continue
        print(
            f"{route}: {reads} reads ({args.viewers} after each of {args.changes} changes): "
            f"p50 {statistics.median(ms):.0f} ms, "
            f"p99 {statistics.quantiles(ms, n=100)[98]:.0f} ms, "
            f"{reads / wall[kind]:.0f} reads/s, server CPU {cpu[kind] * 1000 / reads:.2f} ms a read"
        )
    print(f"wrong answers: {wrong}; load average {os.getloadavg()[0]:.1f}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
