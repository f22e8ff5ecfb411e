"""The audit log: corrections, overrides, restores, each with its reason."""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from director.store import models


def station_name() -> str:
    return os.environ.get("TANDEM_STATION") or socket.gethostname()


def log(
    session: Session,
    action: str,
    target: str,
    before: Any = None,
    after: Any = None,
    reason: str = "",
) -> None:
    session.add(
        models.AuditEntry(
            station=station_name(),
            action=action,
            target=target,
            before="" if before is None else json.dumps(before, ensure_ascii=False, default=str),
            after="" if after is None else json.dumps(after, ensure_ascii=False, default=str),
            reason=reason,
        )
    )


@dataclass(frozen=True)
class AuditLine:
    at: datetime
    station: str
    action: str
    target: str
    before: str
    after: str
    reason: str


def entries(session: Session) -> list[AuditLine]:
    rows = session.scalars(select(models.AuditEntry).order_by(models.AuditEntry.id))
    return [
        AuditLine(r.at, r.station, r.action, r.target, r.before, r.after, r.reason) for r in rows
    ]
