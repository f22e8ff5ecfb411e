"""A child that publishes one big event to a club again and again, its results flipped each time,
printing the number of each publication once it is committed (killed by the parent meanwhile)."""

from __future__ import annotations

import sys
from dataclasses import replace
from datetime import date

from director.domain.rating import Outcome
from director.services import club
from director.store.club import open_club

MATCHES = 2000


def results(flipped: bool) -> club.EventResults:
    one, other = (Outcome.B_WON, Outcome.A_WON) if flipped else (Outcome.A_WON, Outcome.B_WON)
    matches = tuple(
        club.EventMatch(
            1 + i // 50,
            1 + i % 50,
            (f"P{i % 97}",),
            (f"Q{i % 89}",),
            0,
            0,
            one if i % 3 else other,
            5,
        )  # fmt: skip
        for i in range(MATCHES)
    )
    return club.EventResults("kill-test", "Kill night", date(2026, 3, 5), 40, "individual",
                             matches)  # fmt: skip


def main() -> None:
    db = open_club(sys.argv[1], make_backup=False)
    base = results(False)
    for n in range(1, 10_000):
        event = results(n % 2 == 1) if n > 1 else base
        event = replace(event, name=f"Kill night {n}")
        with db.Session() as s, s.begin():
            club.publish(s, event, club.match_event(s, event))
        print(n, flush=True)


if __name__ == "__main__":
    main()
