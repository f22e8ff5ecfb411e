"""Benchmark a room full of phones (issue 26): slips confirmed while 300, 1,000 and 3,000
viewers watch the pairings, on loopback only.

Run: `python tests/benchmarks/bench_phone_room.py [--sizes 300,1000,3000] [--seconds 180]`.

For each size: a fresh event of 16 matches with slips accepted automatically, served by the
real `tandem-director serve` on 127.0.0.1 in its own process; a viewers' process opens that
many push streams on the pairings (from 127.0.0.2, 127.0.0.3, ...: at most 250 per address,
as phones behind a few hotspots, all on loopback). Each viewer reads its own stream's bytes
and stamps each pairings message as it arrives; the scores in them are read after the run, once
per distinct message, so that the viewers' process, on the same cores as the server, does not
decide the figure (the server's CPU time and the viewers' are printed side by side). Then 4
rounds of results: the 16 winning teams send a slip each at once, then the 16 losing teams
confirm at once. Figures printed:

1. confirm tap → the new score on every viewer: p50, p99 (targets p50 < 300 ms, p99 < 1 s);
2. slip writes that failed (any answer but 200; nothing is resent here), target 0;
3. viewers refused (a stream not opened), target 0 below 3,000;
4. the server's memory (resident, and its peak).

Bounded: `--seconds` per size (default 180), then it stops and says so. Figures only; the
exit status is 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import secrets
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import zlib
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # the tests package

MATCHES = 16
RESULTS = 4  # per match: both boards of pairs 1 and 2, single games (no match ends)
PER_ADDRESS = 250


def raise_files() -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# --- the viewers' process ------------------------------------------------------------------
#
# One asyncio loop with a plain Protocol per viewer: the bytes each viewer receives are
# de-chunked and cut into events as they arrive, and each pairings event is stamped with its
# arrival time and the checksum of its data; the data are decoded once per distinct message
# after the run. Decoding JSON in each of 3,000 viewers as it arrived cost the viewers'
# process as much CPU as the server (4.0 s against 4.3 s), on the same two cores, and the
# last viewer read a message long after the server had sent it.

PAIRINGS = b"\nevent: pairings\n"


class _Viewer(asyncio.Protocol):
    """One phone's push stream, read as bytes: every pairings event's (arrival, checksum)."""

    def __init__(self, request: bytes, bodies: dict[int, bytes], opened: asyncio.Future[int]):
        self.request, self.bodies, self.opened = request, bodies, opened
        self.raw = bytearray()  # as received: the head, then the chunks' framing
        self.stream = bytearray()  # the de-chunked body: events separated by a blank line
        self.head = True
        self.arrivals: list[tuple[int, int]] = []
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        now = time.monotonic_ns()
        self.raw += data
        if self.head and self.transport is not None:
            end = self.raw.find(b"\r\n\r\n")
            if end < 0:
                return
            code = int(self.raw[9:12]) if self.raw.startswith(b"HTTP/1.1 ") else 0
            self.opened.set_result(code)
            if code != 200:
                self.transport.close()
                return
            del self.raw[: end + 4]
            self.head = False
        while (eol := self.raw.find(b"\r\n")) >= 0:  # chunked: "size\r\n" data "\r\n"
            size = int(self.raw[:eol], 16)
            if len(self.raw) < eol + 2 + size + 2:
                break
            self.stream += self.raw[eol + 2 : eol + 2 + size]
            del self.raw[: eol + 2 + size + 2]
        while (end := self.stream.find(b"\n\n")) >= 0:
            event = bytes(self.stream[: end + 1])
            del self.stream[: end + 2]
            if PAIRINGS in event:
                data = event[event.index(b"\ndata: ") + 7 : -1]
                crc = zlib.crc32(data)
                self.bodies.setdefault(crc, data)
                self.arrivals.append((now, crc))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_result(0)


def _scores(data: bytes) -> list[str]:
    """The "match:A-B" keys a pairings message shows."""
    return [f"{m['id']}:{m['score']['A']}-{m['score']['B']}" for m in json.loads(data)["matches"]]


async def _viewers(port: int, count: int) -> None:
    raise_files()
    loop = asyncio.get_running_loop()
    request = (f"GET /events?ch=pairings HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
               "Accept: text/event-stream\r\n\r\n").encode()  # fmt: skip
    bodies: dict[int, bytes] = {}
    viewers: list[_Viewer] = []
    opened: list[asyncio.Future[int]] = []
    for i in range(count):
        source = f"127.0.0.{2 + i // PER_ADDRESS}"
        future: asyncio.Future[int] = loop.create_future()
        viewer = _Viewer(request, bodies, future)
        try:
            await loop.create_connection(lambda v=viewer: v, "127.0.0.1", port,
                                         local_addr=(source, 0))  # fmt: skip
        except OSError:
            future.set_result(0)
        viewers.append(viewer)
        opened.append(future)
        if i % 100 == 99:
            await asyncio.sleep(0.05)  # a room fills over seconds, not in one instant
    status = list(await asyncio.gather(*opened))
    print(json.dumps({"connected": status.count(200), "refused": count - status.count(200)}),
          flush=True)  # fmt: skip
    await loop.run_in_executor(None, sys.stdin.readline)  # "done"
    keys = {crc: _scores(data) for crc, data in bodies.items()}
    seen = []
    for viewer, code in zip(viewers, status, strict=True):
        if viewer.transport is not None:
            viewer.transport.close()
        firsts: dict[str, int] = {}
        for at, crc in viewer.arrivals:
            for key in keys[crc]:
                firsts.setdefault(key, at)
        if code == 200 or firsts:
            seen.append(firsts)
    print(json.dumps(seen), flush=True)


# --- the slips' side -----------------------------------------------------------------------


def post(url: str, body: dict[str, object], source: str = "127.0.0.1") -> int:
    """POST from `source` (each team's phone its own loopback address, as on the Wi-Fi)."""
    parts = urllib.parse.urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}"
    connection = http.client.HTTPConnection(
        str(parts.hostname), parts.port, timeout=30, source_address=(source, 0)
    )
    try:
        connection.request("POST", parts.path, json.dumps(body),
                           {"Content-Type": "application/json", "Origin": origin})  # fmt: skip
        return connection.getresponse().status
    except OSError:
        return 0
    finally:
        connection.close()


ROUND_TRIPS: list[float] = []  # ms from a slip write sent to its answer


def together(calls: list[tuple[str, dict[str, object], str]]) -> list[tuple[int, int]]:
    """POST each at once (one thread each): (status, monotonic ns when sent)."""
    gate = threading.Barrier(len(calls))
    out: list[tuple[int, int]] = [(0, 0)] * len(calls)

    def run(i: int) -> None:
        gate.wait()
        sent = time.monotonic_ns()
        out[i] = (post(*calls[i]), sent)
        ROUND_TRIPS.append((time.monotonic_ns() - sent) / 1e6)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def rss_kb(pid: int) -> tuple[int, int]:
    """The process's resident memory now and at its peak, in kB (Linux)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]), int(fields["VmHWM"].split()[0])


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system, Linux): the work done, whatever the
    machine's load made of the clock time."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def event_file(folder: Path) -> tuple[Path, list[int], dict[tuple[int, str], str]]:
    from director.domain.rules import EventOptions, MatchRules, Side
    from director.services import rounds, slips
    from director.services.events import create_event
    from director.services.teams import add_team
    from director.store.engine import create_database

    path = folder / "room.tandem"
    db = create_database(str(path))
    with db.Session() as s, s.begin():
        create_event(s, "Room bench", EventOptions(match=MatchRules(7)))
        for i in range(1, 2 * MATCHES + 1):
            add_team(s, f"Team {i:02}", (f"P{i}a", f"P{i}b"))
        matches = [m.id for m in rounds.pair_next_round(s).value.matches]
        slips.set_auto_accept(s, True)
        tokens = {}
        for m in matches:
            for side in Side:
                token = slips.token_for(s, m, side)
                assert token is not None
                tokens[(m, side.value)] = token
    db.close()
    return path, matches, tokens


def one_size(viewers: int, seconds: float) -> tuple[bool, str]:
    ROUND_TRIPS.clear()
    folder = Path(tempfile.mkdtemp(prefix="bench-room-"))
    path, matches, tokens = event_file(folder)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-c", "import sys; from director.cli import main; sys.exit(main())",
         "serve", str(path), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None
    url = server.stdout.readline().strip()
    assert url == f"http://127.0.0.1:{port}/", (url, server.stderr and server.stderr.read())
    idle_kb = rss_kb(server.pid)[0]
    started = time.monotonic()
    crowd = subprocess.Popen(
        [sys.executable, __file__, "--viewers-of", str(port), "--count", str(viewers)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert crowd.stdout is not None and crowd.stdin is not None
    room = json.loads(crowd.stdout.readline())
    connected_kb = rss_kb(server.pid)[0]
    time.sleep(1.0)  # every viewer has had the pairings once
    cpu_before = cpu_seconds(server.pid), cpu_seconds(crowd.pid)
    confirms: list[tuple[str, int]] = []  # (the score it makes, when the confirm was sent)
    failed = writes = 0
    refusals: Counter[int] = Counter()
    score = dict.fromkeys(matches, 0)
    timed_out = False
    for result in range(RESULTS):
        if time.monotonic() - started > seconds:
            timed_out = True
            break
        pair, board = 1 + result // 2, 1 + result % 2
        game = {"pair": pair, "board": board, "winner": "A", "end": "bear-off",
                "level": "single", "cube": 1}  # fmt: skip
        uids = {m: secrets.token_hex(16) for m in matches}
        sent = together([(f"{url}api/slip/{tokens[(m, 'A')]}",
                          {"uid": uids[m], "device": secrets.token_hex(16), "game": game},
                          f"127.0.1.{1 + 2 * n}") for n, m in enumerate(matches)])  # fmt: skip
        answered = together([(f"{url}api/slip/{tokens[(m, 'B')]}/answer",
                              {"uid": uids[m], "device": secrets.token_hex(16), "agree": True},
                              f"127.0.1.{2 + 2 * n}") for n, m in enumerate(matches)])  # fmt: skip
        writes += len(sent) + len(answered)
        failed += sum(1 for status, _ in sent + answered if status != 200)
        refusals.update(status for status, _ in sent + answered if status != 200)
        for m, (status, at) in zip(matches, answered, strict=True):
            if status == 200:
                score[m] += 1
                confirms.append((f"{m}:{score[m]}-0", at))
        time.sleep(0.5)
    time.sleep(2.0)  # the last results reach every viewer
    busy_kb, peak_kb = rss_kb(server.pid)
    cpu = cpu_seconds(server.pid) - cpu_before[0], cpu_seconds(crowd.pid) - cpu_before[1]
    crowd.stdin.write("done\n")
    crowd.stdin.flush()
    seen = json.loads(crowd.stdout.readline())
    crowd.wait(60)
    server.terminate()
    server.wait(30)

    latencies, missing = [], 0
    for firsts in seen:
        for key, at in confirms:
            if key in firsts:
                latencies.append((firsts[key] - at) / 1e6)
            else:
                missing += 1
    p50 = statistics.median(latencies) if latencies else float("nan")
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) > 1 else float("nan")
    ok = (not timed_out and not failed and not missing and p50 < 300 and p99 < 1000
          and (viewers >= 3000 or room["refused"] == 0))  # fmt: skip
    lines = (
        f"{viewers} viewers: {room['connected']} connected, {room['refused']} refused; "
        f"{len(confirms)} results confirmed, {failed} of {writes} slip writes failed"
        + (f" (statuses {dict(refusals)})" if refusals else "")
        + (" (stopped at the time bound)" if timed_out else ""),
        f"   confirm -> visible on every viewer: p50 {p50:.0f} ms, p99 {p99:.0f} ms over "
        f"{len(latencies)} updates ({missing} never seen)",
        f"   a slip write's answer: p50 {statistics.median(ROUND_TRIPS):.0f} ms, "
        f"max {max(ROUND_TRIPS):.0f} ms\n"
        f"   CPU time during the results: server {cpu[0]:.1f} s, viewers {cpu[1]:.1f} s; "
        f"load average {os.getloadavg()[0]:.1f}\n"
        f"   server memory: {idle_kb / 1024:.0f} MB idle, {connected_kb / 1024:.0f} MB with the "
        f"viewers, {busy_kb / 1024:.0f} MB after the results, peak {peak_kb / 1024:.0f} MB",
    )
    return ok, "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="300,1000,3000")
    parser.add_argument("--seconds", type=float, default=180.0)
    parser.add_argument("--viewers-of", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.viewers_of:
        asyncio.run(_viewers(args.viewers_of, args.count))
        return 0
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    raise_files()
    everything = True
    for size in (int(s) for s in args.sizes.split(",")):
        ok, text = one_size(size, args.seconds)
        print(text, flush=True)
        everything &= ok
    print("targets met" if everything else "OUT OF BOUNDS")
    return 0 if everything else 1


if __name__ == "__main__":
    sys.exit(main())
