"""The phone clocks of every table as the desk sees them, and what the desk tells them.

Each board's state as its stored log leaves it is kept in memory (updated by every log
request: after a restart the phones' next requests rebuild it). The start of a match's two
boards and the director's commands (pause, resume, restore a time) are stored in the event
(`services.phone_clocks`), so a restart of the service loses none, and go out on the push
channel `clock:N`; the hub keeps its latest message, and a phone that was away gets them when
it is back (its page asks for them too) and carries out each command once (by its id). What a
phone did arrives in its log, which is the record: a command is only a request until the
phone's log shows it.

The room's methods read and write the event on the calling thread: call them from a worker
thread (the routes do), never from the event loop.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from sqlalchemy.orm import Session

from director.domain.clock import BoardClock, EventKind
from director.domain.rules import Side, TimeControl
from director.services import phone_clocks
from director.services.phone_clocks import Appended
from director.web.hub import PushHub

P = ParamSpec("P")
T = TypeVar("T")

# the start goes out this long before the instant both boards start at: every phone has it in
# time on a club's Wi-Fi, and both log the very same start instant
START_LEAD_NS = 400_000_000


class SessionRun(Protocol):
    """Runs a service in its own transaction (`WebContext.session_run`)."""

    def __call__(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T: ...


@dataclass(frozen=True)
class BoardLive:
    """One phone clock's board as the desk last heard of it."""

    match_id: int
    board: int
    state: BoardClock
    time_control: TimeControl
    stored: int  # events of the board in the desk's log
    heard_ns: int  # monotonic instant of the last log request


@dataclass
class ClockRoom:
    hub: PushHub
    run: SessionRun
    source: Callable[[], int] = time.monotonic_ns
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _live: dict[tuple[int, int], BoardLive] = field(default_factory=dict)
    # told (from a server thread) that a match's phone clocks changed: the desk's view
    listeners: list[Callable[[int], None]] = field(default_factory=list)

    def channel(self, match_id: int) -> dict[str, Any]:
        return self.run(phone_clocks.clock_channel, match_id)

    def publish(self, match_id: int) -> None:
        self.hub.publish(f"clock:{match_id}", self.channel(match_id))

    def schedule_start(self, match_id: int) -> dict[str, Any]:
        """Both boards of the match start at one instant, a little ahead of now; refused
        (ClockRefused) unless each board waits with its first mover set."""
        at = self.source() + START_LEAD_NS
        start = self.run(phone_clocks.schedule_start, match_id, at)
        self.publish(match_id)
        self._notify(match_id)
        return start

    def command(
        self,
        match_id: int,
        board: int,
        kind: EventKind,
        side: Side | None = None,
        remaining_ns: int | None = None,
        reason: str = "",
    ) -> dict[str, Any]:
        """The director's pause, resume or time restore for one phone clock (RULES §7)."""
        command = self.run(
            phone_clocks.give_command,
            match_id,
            kind,
            board,
            side,
            remaining_ns,
            reason,
            issued_ns=self.source(),
        )
        self.publish(match_id)
        return command

    def heard(self, appended: Appended) -> None:
        live = BoardLive(
            appended.match_id,
            appended.board,
            appended.state,
            appended.time_control,
            appended.stored,
            self.source(),
        )
        with self._lock:
            self._live[(appended.match_id, appended.board)] = live
        self._notify(appended.match_id)

    def live(self) -> dict[tuple[int, int], BoardLive]:
        with self._lock:
            return dict(self._live)

    def _notify(self, match_id: int) -> None:
        for listener in list(self.listeners):
            listener(match_id)
