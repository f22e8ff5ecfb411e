"""Writes a match's clock events to the event database off the display thread (RULES §7).

A press must switch the clock at once, and a commit with `synchronous=FULL` waits for the
disk. So the clock window only queues its new events; this thread takes everything queued,
writes it in one transaction with its own session (SQLite's WAL lets it write while the GUI
reads) and commits at once. Between a press and its commit lies only the queue: the checkpoint
about every 0.5 s bounds what a crash can lose.

It imports no Qt, so the kill test's child and the benchmarks use exactly this writer; its
session and its failure's words come from the same door as every other call (`store.work`):
its own thread, because a press must never queue behind a page's read.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy.exc import SQLAlchemyError

from director.domain.clock import ClockEvent
from director.services.clocks import append_events
from director.store.engine import EventDatabase
from director.store.work import failure_of, in_session

log = logging.getLogger(__name__)

RETRY_S = 0.25  # a locked or busy database: try the same batch again after this
SLOW_S = 4.0  # a write not answered after this is shown as "not answering" (as ui.background)
NOT_ANSWERING = (
    "the database is not answering: the clocks keep time, and the presses are saved once it "
    "answers; nothing is lost while this window stays open"
)


@dataclass
class WriterStats:
    """What the writer has done, for the window's status line and the benchmarks."""

    batches: int = 0
    rows: int = 0
    commit_ns: list[int] = field(default_factory=list)  # each batch's write + commit
    retries: int = 0


class ClockWriter:
    """Appends one match's clock events in order, each batch committed as soon as it is taken.

    `put` never blocks. `failure` is the last write problem in words (None once a write
    succeeds again); the window shows it. `close` waits for the queue to drain.
    """

    def __init__(
        self, db: EventDatabase, match_id: int, next_seq: int, *, slow_s: float = SLOW_S
    ) -> None:
        self.db = db
        self.match_id = match_id
        self.next_seq = next_seq  # the seq of the next event handed to put()
        self.failure: str | None = None
        self.slow_s = slow_s
        self._writing_since: float | None = None  # monotonic start of the write in progress
        self.stats = WriterStats()
        self._queue: queue.SimpleQueue[tuple[int, ClockEvent] | None] = queue.SimpleQueue()
        self._closing = threading.Event()
        self._idle = threading.Condition()
        self._pending = 0
        self._thread = threading.Thread(target=self._run, name=f"clock-writer-{match_id}")
        self._thread.daemon = True  # a kill loses at most the queue, which the log bounds
        self._thread.start()

    def put(self, events: Sequence[ClockEvent]) -> None:
        """Queue events in logged order; they get consecutive seq numbers."""
        if self._closing.is_set():
            log.error(
                "clock writer, match %s: closed, %d events dropped", self.match_id, len(events)
            )
            return
        with self._idle:
            self._pending += len(events)
        for e in events:
            self._queue.put((self.next_seq, e))
            self.next_seq += 1

    @property
    def problem(self) -> str | None:
        """What the window shows: the last write's failure, or that a write has waited on the
        database for `slow_s` (a hung server or drive), else None."""
        started = self._writing_since
        if started is not None and time.monotonic() - started > self.slow_s:
            return NOT_ANSWERING
        return self.failure

    @property
    def pending(self) -> int:
        """Events queued and not yet committed."""
        return self._pending

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued event is committed; False on timeout."""
        with self._idle:
            return self._idle.wait_for(lambda: self._pending == 0, timeout)

    def close(self, timeout: float = 5.0) -> bool:
        """Write what is queued, then stop the thread; False if that took too long."""
        done = self.flush(timeout)
        self._closing.set()
        self._queue.put(None)
        self._thread.join(timeout)
        return done and not self._thread.is_alive()

    # -- the thread ---------------------------------------------------------------------

    def _take_batch(self) -> list[tuple[int, ClockEvent]] | None:
        first = self._queue.get()
        if first is None:
            return None
        batch = [first]
        while True:
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                return batch
            if item is None:
                self._queue.put(None)  # stop after this batch
                return batch
            batch.append(item)

    def _run(self) -> None:
        while True:
            batch = self._take_batch()
            if batch is None:
                return
            while not self._write(batch):
                if self._closing.is_set():
                    log.error(
                        "clock writer, match %s: %d events not saved", self.match_id, self._pending
                    )
                    return
                time.sleep(RETRY_S)
            with self._idle:
                self._pending -= len(batch)
                self._idle.notify_all()

    def _write(self, batch: list[tuple[int, ClockEvent]]) -> bool:
        start = time.perf_counter_ns()
        self._writing_since = time.monotonic()
        try:
            in_session(self.db, append_events, True, self.match_id, batch[0][0],
                       [e for _, e in batch])  # fmt: skip
        except (SQLAlchemyError, OSError) as exc:
            known = failure_of(exc, self.db)
            failure = f"the clock log could not be saved: {known or exc}"
            if failure != self.failure:
                log.warning("clock writer, match %s: %s", self.match_id, failure)
            self.failure = failure
            self.stats.retries += 1
            return False
        finally:
            self._writing_since = None
        self.stats.commit_ns.append(time.perf_counter_ns() - start)
        self.stats.batches += 1
        self.stats.rows += len(batch)
        self.failure = None
        return True
