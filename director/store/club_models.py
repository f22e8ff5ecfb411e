"""The club's register: its own schema in its own file, never attached to an event (RULES §12).

Persons carry a permanent id; a name change keeps the old name as an alias. Each published
event keeps its results whole (`ClubEvent` and its `ClubMatch`es), so publishing an event again
replaces exactly its rows. Ratings are never stored: they are recomputed from these results.
`meta` has the event file's shape, so the same lock, open mark and backups serve both files.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from director.store.models import NAMING_CONVENTION, utcnow


class ClubBase(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class ClubMeta(ClubBase):
    """Key/value facts about the file (the open mark, backup facts): the event file's shape."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(50), primary_key=True)
    value: Mapped[str] = mapped_column(Text, default="")


class Person(ClubBase):
    __tablename__ = "person"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), index=True)
    club: Mapped[str] = mapped_column(String(100), default="")
    country: Mapped[str] = mapped_column(String(60), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Alias(ClubBase):
    """A name the person was known by before (a result published under it still matches)."""

    __tablename__ = "alias"

    id: Mapped[int] = mapped_column(primary_key=True)
    person_id: Mapped[int] = mapped_column(ForeignKey("person.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(100), index=True)


class ClubSeason(ClubBase):
    __tablename__ = "season"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100), unique=True)
    first_day: Mapped[str] = mapped_column(String(10))  # ISO dates, both included
    last_day: Mapped[str] = mapped_column(String(10))


class ClubEvent(ClubBase):
    """One published event; `identity` stays the same when it is corrected and published again."""

    __tablename__ = "club_event"

    id: Mapped[int] = mapped_column(primary_key=True)
    identity: Mapped[str] = mapped_column(String(64), unique=True)
    name: Mapped[str] = mapped_column(String(200))
    event_date: Mapped[str] = mapped_column(String(10))
    rounds: Mapped[int] = mapped_column(Integer)
    format: Mapped[str] = mapped_column(String(12))  # tandem / individual
    published_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ClubMatch(ClubBase):
    """A finished match of a published event: its round, finish order, persons and result."""

    __tablename__ = "club_match"
    __table_args__ = (UniqueConstraint("event_id", "round", "finish"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[int] = mapped_column(ForeignKey("club_event.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    finish: Mapped[int] = mapped_column(Integer)
    length: Mapped[int] = mapped_column(Integer)
    a1: Mapped[int] = mapped_column(ForeignKey("person.id"), index=True)
    a2: Mapped[int | None] = mapped_column(ForeignKey("person.id"), nullable=True)
    b1: Mapped[int | None] = mapped_column(ForeignKey("person.id"), nullable=True, index=True)
    b2: Mapped[int | None] = mapped_column(ForeignKey("person.id"), nullable=True)
    score_a: Mapped[int] = mapped_column(Integer, default=0)
    score_b: Mapped[int] = mapped_column(Integer, default=0)
    outcome: Mapped[str] = mapped_column(String(4))  # domain.rating.Outcome
    unrated: Mapped[str | None] = mapped_column(String(40), nullable=True)  # Unrated, None rated
    reason: Mapped[str] = mapped_column(Text, default="")
