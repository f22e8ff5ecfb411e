"""An open club register in the GUI: its database and one background worker of its own.

Like `EventContext` for an event: every call runs off the GUI thread (`ui/background.py`), in
its own session, and the club's lock is held while it is open (`store.club.open_club`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from PySide6.QtCore import QObject
from sqlalchemy.orm import Session

from director.store.club import open_club
from director.store.engine import EventDatabase
from director.ui.background import Background

P = ParamSpec("P")
T = TypeVar("T")


class ClubContext(QObject):
    def __init__(self, db: EventDatabase, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db = db
        self.background = Background(db, self)

    @classmethod
    def open(cls, target: str, parent: QObject | None = None) -> ClubContext:
        return cls(open_club(target), parent)

    @property
    def title(self) -> str:
        return self.db.title

    def read(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        return self.background.call(service, False, *args, **kwargs)

    def write(
        self, service: Callable[Concatenate[Session, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """A service in its own transaction, committed when it returns."""
        return self.background.call(service, True, *args, **kwargs)

    def close(self) -> None:
        self.background.stop()
        self.db.close()
