"""The recently opened event files, newest first, kept in the app's settings."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QSettings

KEY = "recent/events"
LIMIT = 10


@dataclass(frozen=True)
class RecentEvent:
    path: str
    name: str

    @property
    def exists(self) -> bool:
        return Path(self.path).is_file()


class RecentEvents:
    def __init__(self, settings: QSettings) -> None:
        self.settings = settings

    def entries(self) -> list[RecentEvent]:
        raw = self.settings.value(KEY, "")
        if not raw:
            return []
        import json  # only with events to list: the first start has none

        try:
            items = json.loads(str(raw))
        except ValueError:
            return []  # a damaged setting is forgotten, not fatal
        return [
            RecentEvent(str(i["path"]), str(i.get("name", "")))
            for i in items
            if isinstance(i, dict) and "path" in i
        ][:LIMIT]

    def _store(self, entries: list[RecentEvent]) -> None:
        import json

        data = [{"path": e.path, "name": e.name} for e in entries[:LIMIT]]
        self.settings.setValue(KEY, json.dumps(data))

    def add(self, path: str, name: str) -> None:
        path = str(Path(path).resolve())
        rest = [e for e in self.entries() if e.path != path]
        self._store([RecentEvent(path, name), *rest])

    def remove(self, path: str) -> None:
        self._store([e for e in self.entries() if e.path != path])

    def clear(self) -> None:
        self._store([])
