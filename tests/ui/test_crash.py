"""The exception hook: a person's error shows its words; a bug is logged and reported."""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox
from pytestqt.qtbot import QtBot
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from director.domain.errors import UserError
from director.ui import crash
from tests.ui.app_helpers import OFFSCREEN_NOISE

pytestmark = pytest.mark.qt_log_ignore(OFFSCREEN_NOISE)


def raised(exc: BaseException) -> tuple[type[BaseException], BaseException, object]:
    try:
        raise exc
    except BaseException as caught:  # the hook gets whatever escaped
        return type(caught), caught, caught.__traceback__


def test_a_user_error_shows_its_message_and_logs_nothing(qtbot: QtBot, tmp_path: Path) -> None:
    kind, exc, tb = raised(UserError("the event file is read-only"))
    box = crash.handle_exception(kind, exc, tb, tmp_path)  # type: ignore[arg-type]
    assert box is not None
    qtbot.addWidget(box)
    assert box.isVisible()
    assert box.text() == "the event file is read-only"
    assert box.icon() is QMessageBox.Icon.Warning
    assert list(tmp_path.iterdir()) == []


def _a_real_locked_database_failure(folder: Path) -> BaseException:
    """SQLite's own "database is locked" (SQLITE_BUSY): another connection holds the file."""
    folder.mkdir()
    holder = sqlite3.connect(folder / "ev.tandem", isolation_level=None)
    holder.execute("CREATE TABLE t (x)")
    holder.execute("BEGIN EXCLUSIVE")
    engine = create_engine(f"sqlite:///{folder / 'ev.tandem'}", connect_args={"timeout": 0})
    try:
        with engine.connect() as connection:
            connection.execute(text("INSERT INTO t VALUES (1)"))
    except OperationalError as exc:
        return exc
    finally:
        engine.dispose()
        holder.close()
    raise AssertionError("the second connection was not refused")


def test_a_known_database_failure_is_a_message_not_a_bug(qtbot: QtBot, tmp_path: Path) -> None:
    kind, exc, tb = raised(_a_real_locked_database_failure(tmp_path / "db"))
    box = crash.handle_exception(kind, exc, tb, tmp_path)  # type: ignore[arg-type]
    assert box is not None
    qtbot.addWidget(box)
    assert "busy in another program" in box.text()
    assert [p.name for p in tmp_path.iterdir()] == ["db"]  # no crash log beside it


def test_a_bug_is_logged_with_its_traceback_and_reported(qtbot: QtBot, tmp_path: Path) -> None:
    kind, exc, tb = raised(ZeroDivisionError("division by zero"))
    box = crash.handle_exception(kind, exc, tb, tmp_path / "logs")  # type: ignore[arg-type]
    assert box is not None
    qtbot.addWidget(box)
    (log,) = (tmp_path / "logs").iterdir()
    text = log.read_text(encoding="utf-8")
    assert text.startswith("Tandem Director ")
    assert "Traceback (most recent call last)" in text
    assert "ZeroDivisionError: division by zero" in text
    assert "please report" in box.windowTitle()
    assert str(log) in box.informativeText()
    assert "Your event is safe" in box.informativeText()
    assert box.detailedText() == text


def test_the_log_goes_to_the_user_log_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert crash.log_folder() == tmp_path / "tandem-director" / "log"


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_reaches_the_hook(
    qtbot: QtBot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    crash.install(tmp_path)

    class Sender(QObject):
        poke = Signal()

    def broken() -> None:
        raise KeyError("no such team")

    sender = Sender()
    sender.poke.connect(broken)
    sender.poke.emit()
    (log,) = tmp_path.iterdir()
    assert "KeyError: 'no such team'" in log.read_text(encoding="utf-8")
    for box in list(crash._open_boxes):
        qtbot.addWidget(box)
