"""The phone clocks of every table as the desk sees them, and what the desk tells them.

Each board's state as its stored log leaves it is kept in memory (updated by every log
request: after a restart the phones' next requests rebuild it). The start of a match's two
boards and the director's commands (pause, resume, restore a time) are stored in the event
(`services.phone_clocks`), so a restart of the service loses none; once stored they go out on
the push channel `clock:N`. The hub keeps its latest message, and a phone that was away gets
them when it is back (its page reads them too) and carries out each command once (by its
id). What a phone did arrives in its log, which is the record: a command is only a request
until the phone's log shows it.

`schedule_start` and `command` are services (the caller's session and transaction, off the
GUI thread when the event is on a server) that return what they changed: the phones are told
once the transaction commits.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import event
from sqlalchemy.orm import Session

from director.domain.changes import Changed, Changes
from director.domain.clock import BoardClock, EventKind
from director.domain.rules import Side, TimeControl
from director.services import phone_clocks
from director.services.matches import get_match
from director.services.phone_clocks import Appended
from director.web.hub import PushHub

# the start goes out this long before the instant both boards start at: every phone has it in
# time on a club's Wi-Fi, and both log the very same start instant
START_LEAD_NS = 400_000_000
# a phone still times a board this long after its last log request (it sends every 2 s while
# running, and at each action)
OTHER_PHONE_NS = 30_000_000_000


@dataclass(frozen=True)
class BoardLive:
    """One phone clock's board as the desk last heard of it."""

    match_id: int
    board: int
    state: BoardClock
    time_control: TimeControl
    stored: int  # events of the board in the desk's log
    heard_ns: int  # monotonic instant of the last log request
    between_games: bool = False  # RULES §10: a match clock paused by a recorded game


@dataclass
class ClockRoom:
    hub: PushHub
    source: Callable[[], int] = time.monotonic_ns
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _live: dict[tuple[int, int], BoardLive] = field(default_factory=dict)
    # the phones heard timing each board: phone id -> monotonic instant last heard
    _phones: dict[tuple[int, int], dict[str, int]] = field(default_factory=dict)
    # told (from a server thread) that a match's phone clocks changed: the desk's view
    listeners: list[Callable[[int], None]] = field(default_factory=list)

    def schedule_start(self, session: Session, match_id: int) -> Changed[dict[str, Any]]:
        """Both boards of the match start at one instant, a little ahead of now; refused
        (ClockRefused) unless each board waits with its first mover set."""
        start = phone_clocks.schedule_start(session, match_id, self.source() + START_LEAD_NS)
        self._tell_on_commit(session, match_id)
        return Changed(start, Changes.clock(match_id))

    def command(
        self,
        session: Session,
        match_id: int,
        board: int,
        kind: EventKind,
        side: Side | None = None,
        remaining_ns: int | None = None,
        reason: str = "",
    ) -> Changed[dict[str, Any]]:
        """The director's pause, resume or time restore for one phone clock (RULES §7)."""
        command = phone_clocks.give_command(
            session, match_id, kind, board, side, remaining_ns, reason, issued_ns=self.source()
        )
        self._tell_on_commit(session, match_id)
        return Changed(command, Changes.clock(match_id))

    def pause_match(self, session: Session, match_id: int) -> Changed[None]:
        """One action, one transaction: every board's phone is told to pause (RULES §7)."""
        for board in get_match(session, match_id).rules.event_format.boards:
            self.command(session, match_id, board, EventKind.PAUSE)
        return Changed(None, Changes.clock(match_id))

    def _tell_on_commit(self, session: Session, match_id: int) -> None:
        """The phones hear of it only once it is stored: a phone's log carrying a restore out
        finds the restore's reason for the audit."""
        channel = phone_clocks.clock_channel(session, match_id)

        def committed(_session: Session) -> None:
            self.hub.publish(f"clock:{match_id}", channel)
            self._notify(match_id)

        event.listen(session, "after_commit", committed, once=True)

    def heard(self, appended: Appended) -> None:
        live = BoardLive(
            appended.match_id,
            appended.board,
            appended.state,
            appended.time_control,
            appended.stored,
            self.source(),
            appended.between_games,
        )
        with self._lock:
            self._live[(appended.match_id, appended.board)] = live
        self._notify(appended.match_id)

    def another_phone(self, match_id: int, board: int, phone: str) -> bool:
        """Note that `phone` times the board; whether another phone did so lately (two phones
        on one board each run a clock of their own: the second is told)."""
        now = self.source()
        with self._lock:
            heard = self._phones.setdefault((match_id, board), {})
            heard[phone] = now
            for other in [p for p, t in heard.items() if now - t > OTHER_PHONE_NS]:
                del heard[other]
            return len(heard) > 1

    def live(self) -> dict[tuple[int, int], BoardLive]:
        with self._lock:
            return dict(self._live)

    def _notify(self, match_id: int) -> None:
        for listener in list(self.listeners):
            listener(match_id)
