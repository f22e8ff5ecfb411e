"""The push hub on its own event loop: what a stream that fell behind is sent."""

from __future__ import annotations

import asyncio

from director.web.hub import END, PushHub


def test_a_stream_behind_is_sent_each_channels_newest_state_once() -> None:
    """Three pairings published while a stream was busy writing: it sends the newest one only
    (the page shows the latest state; older states cost a slow room's server for nothing),
    in the order the messages sent were published, and then waits again."""

    async def run() -> list[object]:
        hub = PushHub()
        hub.bind(asyncio.get_running_loop())
        with hub.subscription(["pairings", "standings"]) as sub:
            for data in ({"score": 1}, "standings", {"score": 2}, {"score": 3}):
                hub.publish("standings" if data == "standings" else "pairings", data)
            await asyncio.sleep(0)  # the deliveries run on this loop
            sent = []
            while (message := await sub.next(0.05)) is not None:
                sent.append(message.data)
            hub.end_streams()
            await asyncio.sleep(0)
            assert await sub.next(1.0) is END
        return sent

    assert asyncio.run(run()) == ["standings", {"score": 3}]
