"""Backups keep within the disk's space and never push out round milestones (item 10)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from director.domain.errors import UserError
from director.domain.rules import End, Level, Side
from director.domain.scoring import Game
from director.services.backups import backup_after_pairing, backup_after_round, list_backups
from director.services.games import record_game
from director.services.matches import create_match
from director.services.teams import add_team
from director.store.backup import (
    KEEP,
    RESERVE_FACTOR,
    RESERVE_MIN,
    backup_now,
    event_size,
    space_warning,
)
from director.store.engine import EventDatabase, open_event
from tests.reliability.media import IS_ROOT, fill, small_disk


def _add(db: EventDatabase, name: str) -> None:
    with db.Session() as session, session.begin():
        add_team(session, name, (f"A of {name}", f"B of {name}"))


def test_backups_at_opening_never_push_out_the_round_milestones(event_path: Path) -> None:
    db = open_event(str(event_path), make_backup=False)
    try:
        for round_number in range(1, 13):
            for step, when in enumerate(("open", "paired", "open", "finished", "open")):
                _add(db, f"Team {round_number}.{step}")
                if when == "open":
                    backup_now(db, "open")
                elif when == "paired":
                    backup_after_pairing(db, round_number)
                else:
                    backup_after_round(db, round_number)
    finally:
        db.close()
    reasons = [b.reason for b in list_backups(event_path)]
    milestones = [r for r in reasons if r.startswith("round")]
    assert len(milestones) == KEEP  # the last five rounds, paired and finished
    assert milestones[0] == "round 12 finished" and milestones[-1] == "round 8 paired"
    assert reasons.count("open") == 3


@pytest.mark.skipif(not IS_ROOT, reason="a real small disk needs root (a tmpfs)")
def test_on_a_nearly_full_disk_backups_give_way_and_results_are_still_entered(
    tmp_path: Path, template_event: Path
) -> None:
    with small_disk(tmp_path / "stick", size="4m") as stick:
        event = stick / "event.tandem"
        shutil.copy(template_event, event)
        db = open_event(str(event), make_backup=False)
        try:
            with db.Session() as session, session.begin():
                ids = [
                    add_team(session, f"Team {i}", (f"A{i}", f"B{i}")).value.id for i in range(16)
                ]
                matches = [
                    create_match(session, ids[2 * i], ids[2 * i + 1]).value.id for i in range(8)
                ]
            # room for the reserve kept for the event and about three backups beyond it, so
            # that some backups are made and later ones push out the oldest (the event file's
            # size grows with its schema: a fixed 1.6 MB let none be made once it had)
            size = event_size(event)
            fill(stick, leave=max(RESERVE_MIN, RESERVE_FACTOR * size) + 3 * size)
            failures = 0
            for n in range(1, 9):
                try:
                    backup_after_round(db, n)
                except UserError as refused:
                    assert "nearly full" in str(refused)
                    failures += 1
                game = Game(1, 1, Side.A, End.BEAR_OFF, level=Level.SINGLE)
                with db.Session() as session, session.begin():  # never refused for a backup
                    record_game(session, matches[n - 1], game)
            assert failures < 8  # some backups were made, the oldest giving way
            assert space_warning(event)
        finally:
            db.close()
        assert list_backups(event)  # the newest milestone stays
        again = open_event(str(event), make_backup=False)
        again.close()
