"""The push hub: named channels fanned out to every subscriber, thread-safe to publish.

A message is `(channel, data)` where data is JSON-ready. Each channel keeps its latest
message: a subscriber gets the latest of every channel it asks for at once, so a phone that
lost Wi-Fi and reconnects is up to date with its first read (nothing to replay). A channel
nobody watches may keep none (`forget`): the push stream then reads it for its first message
and offers it with `publish_first`. Channel
names are the pages' words: "pairings", "standings", "crosstable", "match:12"; the clock
issue adds "clock:12" and so on.

Publishing may come from any thread (the change watcher, a route's worker thread, the GUI);
delivery happens on the server's event loop. A message is encoded once, as bytes every stream
sends; a stream that is idle and whose connection has nothing waiting to go out is written to
at once, in the delivery itself (`Subscription.direct`), the others get it queued. A subscriber
too slow to keep up gets each channel's newest message only, not the ones it replaced: the
latest state is what a page shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Message:
    channel: str
    data: object
    seq: int  # the hub's running number: a client can tell old from new
    sse: bytes = b""  # the message as one Server-Sent Event, encoded once for every subscriber
    body: bytes = b"null"  # its data as JSON, encoded once for every read of it (`/api/latest`)
    chunk: bytes = b""  # `sse` framed as one HTTP/1.1 chunk, for the streams written directly

    @classmethod
    def make(cls, channel: str, data: object, seq: int) -> Message:
        """Encoded on the publisher's thread: the event loop only copies bytes out."""
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        sse = f"id: {seq}\nevent: {channel}\ndata: {body}\n\n".encode()
        return cls(channel, data, seq, sse, body.encode(), b"%x\r\n%b\r\n" % (len(sse), sse))


END = Message("", None, 0)  # queued to every subscriber when the server stops: the stream ends


Direct = Callable[[Message], bool]  # writes a message to the stream now (True), or cannot


@dataclass(eq=False)
class Subscription:
    channels: frozenset[str]
    # writes a message straight to the stream's connection when it can (`offer`)
    direct: Direct | None = None
    # each channel's newest message not yet sent, in the order they were published: a stream
    # that fell behind sends a channel's newest state once, never the states it replaced (at
    # most one message per channel waits, so a slow phone costs no more memory than a quick one)
    _waiting: dict[str, Message] = field(default_factory=dict)
    _ready: asyncio.Event = field(default_factory=asyncio.Event)
    # a message taken by `next` is being sent: nothing is written past it until `next` again
    _sending: bool = False

    def wants(self, channel: str) -> bool:
        return channel in self.channels or any(
            c.endswith("*") and channel.startswith(c[:-1]) for c in self.channels
        )

    async def next(self, timeout: float) -> Message | None:
        """The next message, or None after `timeout` seconds without one. Waits without a
        task of its own (`asyncio.wait_for` made one per message, for each of a room's
        3,000 streams)."""
        self._sending = False  # the one taken before has been sent
        if not self._waiting:
            self._ready.clear()
            try:
                async with asyncio.timeout(timeout):
                    await self._ready.wait()
            except TimeoutError:
                self._sending = True  # the keep-alive comment
                return None
        self._sending = True
        channel = next(iter(self._waiting))
        return self._waiting.pop(channel)

    def offer(self, message: Message) -> bool:
        """Written now (True) when the stream is idle and its connection can take it at once
        (no message of its own waits or is being sent, so none is overtaken); else queued."""
        direct = self.direct
        if direct is None or self._waiting or self._sending or not direct(message):
            self.put(message)
            return False
        return True

    def put(self, message: Message) -> None:
        self._waiting.pop(message.channel, None)  # the state it replaces: never sent now
        self._waiting[message.channel] = message
        self._ready.set()


class PushHub:
    """Channels and their subscribers; `publish` from any thread once `bind` has run."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._latest: dict[str, Message] = {}
        self._subscribers: set[Subscription] = set()
        # who asked for each channel by name, and who asked with a wildcard ("clock:*"): a
        # message is offered to those only, not to each of a room's 3,000 phones in turn
        self._named: dict[str, set[Subscription]] = {}
        self._wild: set[Subscription] = set()
        self._per_address: Counter[str] = Counter()
        self._forgotten: Counter[str] = Counter()  # per channel: see `forgotten`
        self._loop: asyncio.AbstractEventLoop | None = None
        self._seq = 0
        self._ending = False
        self.written_directly = 0  # messages written straight to a stream, for tests and benches

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        """The server's event loop, where deliveries run (a server started again binds anew)."""
        self._loop = loop
        self._ending = False

    def end_streams(self) -> None:
        """The server is stopping: every subscription gets END (and one made from now on gets
        it at once), so each push stream ends as a finished response instead of being cancelled
        under its phone. From any thread."""
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop has already stopped
            loop.call_soon_threadsafe(self._end)

    def _end(self) -> None:
        self._ending = True
        for sub in list(self._subscribers):
            sub.put(END)

    @property
    def subscriber_count(self) -> int:
        return len(self._subscribers)

    def streams_of(self, address: str) -> int:
        """The push streams open from one client address."""
        return self._per_address[address]

    def latest(self, channel: str) -> Message | None:
        with self._lock:
            return self._latest.get(channel)

    def listened(self, channel: str) -> bool:
        """Whether a stream asked for the channel, by name or by a wildcard (from any thread)."""
        return bool(self._named.get(channel)) or any(s.wants(channel) for s in list(self._wild))

    def forget(self, channel: str) -> None:
        """Nobody watches the channel: its kept message is dropped, not built again at each
        change (whoever asks for it later has it read afresh: `publish_first`)."""
        with self._lock:
            self._latest.pop(channel, None)
            self._forgotten[channel] += 1

    def forgotten(self, channel: str) -> int:
        """How often the channel's kept message was dropped: taken before a read, so that
        `publish_first` can tell a read that a change has overtaken."""
        with self._lock:
            return self._forgotten[channel]

    def publish(self, channel: str, data: object) -> None:
        with self._lock:
            self._seq += 1
            seq = self._seq
        message = Message.make(channel, data, seq)
        with self._lock:
            if seq > getattr(self._latest.get(channel), "seq", 0):
                self._latest[channel] = message
        self._send(message)

    def publish_first(self, channel: str, data: object, forgotten: int) -> None:
        """Publish data read when `forgotten(channel)` was `forgotten`: refused if a message
        of the channel has been kept since (the change watcher's is as new or newer), or if the
        channel was dropped again (a change the read may have missed; a stream's subscription
        keeps the watcher publishing instead, an `/api/latest` read has none)."""
        with self._lock:
            if channel in self._latest or self._forgotten[channel] != forgotten:
                return
            self._seq += 1
            message = Message.make(channel, data, self._seq)
            self._latest[channel] = message
        self._send(message)

    def _send(self, message: Message) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return  # kept as the latest: the first subscriber gets it
        with contextlib.suppress(RuntimeError):  # the loop is shutting down: nobody listens
            loop.call_soon_threadsafe(self._deliver, message)

    def _deliver(self, message: Message) -> None:
        channel = message.channel
        for sub in list(self._named.get(channel, ())):
            self._offer(sub, message)
        for sub in list(self._wild):
            if channel not in sub.channels and sub.wants(channel):
                self._offer(sub, message)

    def _offer(self, sub: Subscription, message: Message) -> None:
        self.written_directly += 1  # counted before the bytes go out: whoever read them sees it
        if not sub.offer(message):
            self.written_directly -= 1

    @contextlib.contextmanager
    def subscription(
        self, channels: Iterable[str], address: str = "", direct: Direct | None = None
    ) -> Iterator[Subscription]:
        """Subscribe (on the server's loop): the latest message of each channel asked for is
        queued at once, then every new one, until the block ends; counted per `address`.
        `direct`: writes a message to the stream now, once its answer's head has gone out."""
        sub = Subscription(frozenset(channels), direct)
        self._subscribers.add(sub)
        for channel in sub.channels:
            if channel.endswith("*"):
                self._wild.add(sub)
            else:
                self._named.setdefault(channel, set()).add(sub)
        self._per_address[address] += 1
        try:
            with self._lock:
                current = sorted(
                    (m for c, m in self._latest.items() if sub.wants(c)), key=lambda m: m.seq
                )
            for message in current:
                sub.put(message)
            if self._ending:
                sub.put(END)
            yield sub
        finally:
            self._subscribers.discard(sub)
            self._wild.discard(sub)
            for channel in sub.channels:
                named = self._named.get(channel)
                if named is not None:
                    named.discard(sub)
                    if not named:
                        del self._named[channel]
            self._per_address[address] -= 1
            if self._per_address[address] <= 0:
                del self._per_address[address]
