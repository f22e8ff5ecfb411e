"""The desk is warned early when backups run short of disk, and a backup that does not fit is
told while the change stays saved (issue 14, item 10). A real small disk: a tmpfs (root)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pytestqt.qtbot import QtBot

from director.services import rounds
from director.services.backups import list_backups
from director.services.teams import add_team
from director.store.engine import open_event
from director.ui.context import EventContext
from tests.reliability.media import IS_ROOT, fill, small_disk
from tests.ui.app_helpers import OFFSCREEN_NOISE

pytestmark = [
    pytest.mark.qt_log_ignore(OFFSCREEN_NOISE),
    pytest.mark.skipif(not IS_ROOT, reason="a real small disk needs root (a tmpfs)"),
]


@pytest.mark.parametrize(
    ("leave", "made"), [(2_400_000, True), (900_000, False)], ids=["fits", "does not fit"]
)
def test_a_milestone_backup_short_of_disk_is_told_and_the_round_is_paired(
    qtbot: QtBot, tmp_path: Path, template_event: Path, leave: int, made: bool
) -> None:
    with small_disk(tmp_path / "stick", size="4m") as stick:
        event = stick / "event.tandem"
        shutil.copy(template_event, event)
        ctx = EventContext(open_event(str(event), make_backup=False))
        try:
            for i in range(4):
                ctx.change(add_team, f"Team {i}", (f"A{i}", f"B{i}"))
            fill(stick, leave=leave)
            notices: list[str] = []
            ctx.notified.connect(notices.append)
            ctx.change(rounds.pair_next_round)
            assert ctx.read(rounds.get_round, 1).matches  # the change is saved either way
        finally:
            ctx.close()
        backups = [b.reason for b in list_backups(event)]
        assert backups == (["round 1 paired"] if made else [])
        assert len(notices) == 1, notices
        if made:  # early: the backup still fitted, the next ones may not
            assert notices[0].startswith(f"the disk of {event.name} is nearly full")
        else:
            assert notices[0].startswith("the automatic backup failed: no backup made")
