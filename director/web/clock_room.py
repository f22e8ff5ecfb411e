"""The phone clocks of every table as the desk sees them, and what the desk tells them.

In memory, on the server: each board's state as its stored log leaves it (updated by every
log request), the start of a match's two boards, and the director's commands (pause, resume,
restore a time). A match's start and commands go out on the push channel `clock:N`; the hub
keeps its latest message, so a phone that was away gets them when it is back and carries out
each command once (by its id). What a phone did arrives in its log, which is the record: a
command is only a request until the phone's log shows it.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from director.domain.clock import BoardClock, ClockEvent, EventKind
from director.domain.rules import Side, TimeControl
from director.services.phone_clocks import Appended
from director.web.hub import PushHub

# the start goes out this long before the instant both boards start at: every phone has it in
# time on a club's Wi-Fi, and both log the very same start instant
START_LEAD_NS = 400_000_000
KEEP_COMMANDS = 20  # per match
# a phone carries out a command only this soon after it was given: one that comes back after a
# long outage does not pause or restore a game that has moved on (the desk gives it again)
COMMAND_LIFE_NS = 60_000_000_000


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
    source: Callable[[], int] = time.monotonic_ns
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _starts: dict[int, dict[str, Any]] = field(default_factory=dict)
    _commands: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    _reasons: dict[str, str] = field(default_factory=dict)  # adjust command id -> reason
    _live: dict[tuple[int, int], BoardLive] = field(default_factory=dict)
    # told (from a server thread) that a match's phone clocks changed: the desk's view
    listeners: list[Callable[[int], None]] = field(default_factory=list)

    def channel(self, match_id: int) -> dict[str, Any]:
        with self._lock:
            return {
                "start": self._starts.get(match_id),
                "commands": list(self._commands.get(match_id, [])),
            }

    def publish(self, match_id: int) -> None:
        self.hub.publish(f"clock:{match_id}", self.channel(match_id))

    def schedule_start(self, match_id: int, pair: int) -> dict[str, Any]:
        """Both boards of the match start at one instant, a little ahead of now."""
        start = {
            "id": secrets.token_hex(8),
            "pair": pair,
            "at_ns": str(self.source() + START_LEAD_NS),
        }
        with self._lock:
            self._starts[match_id] = start
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
        if kind not in (EventKind.PAUSE, EventKind.RESUME, EventKind.ADJUST):
            raise ValueError(f"a phone clock takes no {kind} command")
        if (kind is EventKind.ADJUST) != (side is not None and remaining_ns is not None):
            raise ValueError("a time restore names a side and the new time, nothing else does")
        ident = secrets.token_hex(8)
        command: dict[str, Any] = {
            "id": ident,
            "issued_ns": str(self.source()),
            "board": board,
            "kind": kind.value,
            "side": None if side is None else side.value,
            "value": None if remaining_ns is None else str(remaining_ns),
        }
        with self._lock:
            kept = self._commands.setdefault(match_id, [])
            kept.append(command)
            del kept[:-KEEP_COMMANDS]
            if kind is EventKind.ADJUST:
                self._reasons[ident] = reason
        self.publish(match_id)
        return command

    def reason_for(self, match_id: int, e: ClockEvent) -> str | None:
        """The reason of the director's restore that this adjustment carried out (once)."""
        with self._lock:
            for c in self._commands.get(match_id, []):
                matches = (c["board"], c["side"], c["value"]) == (
                    e.board,
                    None if e.side is None else e.side.value,
                    str(e.value),
                )
                if matches and c["id"] in self._reasons:
                    return self._reasons.pop(c["id"])
        return None

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
