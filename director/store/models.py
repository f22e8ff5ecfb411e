"""The event database: SQLAlchemy 2 typed models, portable between SQLite and PostgreSQL.

One database holds one event. Enumerations are stored as their rule-book strings (plain
VARCHAR, no native enum types) so the same migrations run on both back ends. Rows that several
stations may edit carry a `version` column for optimistic concurrency.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    true,
)
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship, validates

from director.domain.rules import ALL_BOARDS
from director.domain.teamlist import name_key

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


# a stored board is a board of some format (RULES §1, §10)
BOARD_CHECK = f"board IN ({', '.join(str(b) for b in ALL_BOARDS)})"


def utcnow() -> datetime:
    return datetime.now(UTC)


NAME_KEY_LENGTH = 400  # a name of 100 characters folds (NFKC, case) to at most a few times that


def _name_key_of_row(context: DefaultExecutionContext) -> str:
    """The key of the name a Core INSERT writes (the bulk team import): `name_key` below."""
    parameters: dict[str, object] = context.get_current_parameters()  # type: ignore[no-untyped-call]
    return name_key(str(parameters["name"]))


def _name_key_column() -> Mapped[str]:
    """What a team's or player's name is compared by (`teamlist.name_key`), under a unique
    index: two stations writing at once cannot both register one name (#27 §3). Set from the
    name on every ORM assignment (`_keep_name_key`) and every Core insert (the default)."""
    return mapped_column(
        String(NAME_KEY_LENGTH), default=_name_key_of_row, server_default="", unique=True,
        index=True,
    )  # fmt: skip


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Event(Base):
    __tablename__ = "event"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    venue: Mapped[str] = mapped_column(String(200), default="")
    event_date: Mapped[str] = mapped_column(String(10), default="")  # ISO date, "" if unset
    # the report header (RULES-free facts): the last day, who organises, who directs
    end_date: Mapped[str] = mapped_column(String(10), default="", server_default="")
    organiser: Mapped[str] = mapped_column(String(200), default="", server_default="")
    director: Mapped[str] = mapped_column(String(200), default="", server_default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # RULES §10: tandem or individual (every file older than the format is Tandem)
    format: Mapped[str] = mapped_column(String(20), default="tandem", server_default="tandem")
    # RULES §2-§6: how a match is scored
    match_length: Mapped[int] = mapped_column(Integer)
    scoring: Mapped[str] = mapped_column(String(30))
    winner_required: Mapped[bool] = mapped_column(Boolean)
    one_cube_threshold: Mapped[int] = mapped_column(Integer)
    no_cube_at_one_away: Mapped[bool] = mapped_column(Boolean)
    agreed_lower_forfeit: Mapped[bool] = mapped_column(Boolean)
    # RULES §7: the clock
    time_base_s: Mapped[int] = mapped_column(Integer)
    time_increment_s: Mapped[int] = mapped_column(Integer)
    clock_mode: Mapped[str] = mapped_column(String(20))
    # RULES §8: standings and pairings
    pairing_system: Mapped[str] = mapped_column(String(20))
    rounds: Mapped[int] = mapped_column(Integer)
    round_one: Mapped[str] = mapped_column(String(20))
    late_entry: Mapped[str] = mapped_column(String(20))
    avoid_same_club: Mapped[bool] = mapped_column(Boolean)
    double_round_robin: Mapped[bool] = mapped_column(Boolean)
    consolation: Mapped[bool] = mapped_column(Boolean)
    # RULES §11: the knockout's bracket plan as JSON (plan_to_json); "" reads as the old
    # single bracket, or single + consolation when `consolation` is on (revision 0010)
    bracket_plan: Mapped[str] = mapped_column(Text, default="", server_default="")
    match_points: Mapped[str] = mapped_column(String(20))
    tie_breaks: Mapped[str] = mapped_column(String(200))  # comma-separated, in order
    paper: Mapped[str] = mapped_column(String(10))
    random_seed: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=1)

    __mapper_args__ = {"version_id_col": version}


class Team(Base):
    __tablename__ = "team"
    __table_args__ = (UniqueConstraint("name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = _name_key_column()
    club: Mapped[str] = mapped_column(String(100), default="")
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seed: Mapped[int] = mapped_column(Integer)
    joined_round: Mapped[int] = mapped_column(Integer, default=1)
    withdrawn_after_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    paid: Mapped[bool] = mapped_column(Boolean, default=False)
    present: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=1)

    players: Mapped[list[Player]] = relationship(
        back_populates="team", order_by="Player.board", cascade="all, delete-orphan"
    )

    __mapper_args__ = {"version_id_col": version}

    @validates("name")
    def _keep_name_key(self, _key: str, value: str) -> str:
        self.name_key = name_key(value)
        return value


class Player(Base):
    __tablename__ = "player"
    __table_args__ = (
        UniqueConstraint("team_id", "board"),
        CheckConstraint(BOARD_CHECK, name="board"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    team_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    board: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(100))
    name_key: Mapped[str] = _name_key_column()
    # the person picked from the club's register (its id there, RULES §12): the event keeps
    # it and needs no club to run; publishing uses it instead of matching the name (0011)
    person_id: Mapped[int | None] = mapped_column(Integer, nullable=True)

    team: Mapped[Team] = relationship(back_populates="players")

    @validates("name")
    def _keep_name_key(self, _key: str, value: str) -> str:
        self.name_key = name_key(value)
        return value


class Round(Base):
    __tablename__ = "round"
    __table_args__ = (UniqueConstraint("number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    number: Mapped[int] = mapped_column(Integer)
    published: Mapped[bool] = mapped_column(Boolean, default=False)
    paired_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Match(Base):
    __tablename__ = "match"

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int | None] = mapped_column(
        ForeignKey("round.id", ondelete="CASCADE"), nullable=True, index=True
    )
    table_no: Mapped[int] = mapped_column(Integer, default=0)
    # knockout (RULES §11): the bracket, the round in it and the slot from the top of its
    # sheet, apart from the table it is played at; NULL outside a knockout (revision 0010)
    bracket: Mapped[str | None] = mapped_column(String(30), nullable=True)
    bracket_round: Mapped[int | None] = mapped_column(Integer, nullable=True)
    slot: Mapped[int | None] = mapped_column(Integer, nullable=True)
    team_a_id: Mapped[int] = mapped_column(ForeignKey("team.id"), index=True)
    team_b_id: Mapped[int | None] = mapped_column(ForeignKey("team.id"), nullable=True, index=True)
    # rule 4′ as it applies to this match: the event's option, forced on in knockout
    winner_required: Mapped[bool] = mapped_column(Boolean)
    # the rules the match was paired with (#28): the event's options when its round was
    # paired, kept here so a later change of the event's options leaves its games' meaning
    format: Mapped[str] = mapped_column(String(20), default="tandem", server_default="tandem")
    # (the server defaults are MatchRules()' and TimeControl()'s: revision 0006 adds these
    # columns without rebuilding the table, then copies the event's options into them)
    match_length: Mapped[int] = mapped_column(Integer, server_default="5")
    scoring: Mapped[str] = mapped_column(String(30), server_default="standard")
    one_cube_threshold: Mapped[int] = mapped_column(Integer, server_default="2")
    no_cube_at_one_away: Mapped[bool] = mapped_column(Boolean, server_default=false())
    agreed_lower_forfeit: Mapped[bool] = mapped_column(Boolean, server_default=true())
    time_base_s: Mapped[int] = mapped_column(Integer, server_default="120")
    time_increment_s: Mapped[int] = mapped_column(Integer, server_default="12")
    clock_mode: Mapped[str] = mapped_column(String(20), server_default="fischer")
    # a team that did not show: the other wins by forfeit (0-0 game points)
    forfeit_by: Mapped[str | None] = mapped_column(String(1), nullable=True)
    # an individual match's player whose match reserve ran out after its games (RULES §10;
    # revision 0012): the match is lost on time, the winner's score raised to its length
    lost_on_time: Mapped[str | None] = mapped_column(String(1), nullable=True)
    # the scoreline as last computed from the games; `check` re-derives and compares
    score_a: Mapped[int] = mapped_column(Integer, default=0)
    score_b: Mapped[int] = mapped_column(Integer, default=0)
    final_a: Mapped[int] = mapped_column(Integer, default=0)
    final_b: Mapped[int] = mapped_column(Integer, default=0)
    pip_a: Mapped[int] = mapped_column(Integer, default=0)
    pip_b: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[str] = mapped_column(String(12), default="unfinished")
    notes: Mapped[str] = mapped_column(Text, default="", server_default="")  # the director's
    version: Mapped[int] = mapped_column(Integer, default=1)

    games: Mapped[list[Game]] = relationship(
        back_populates="match", order_by="Game.seq", cascade="all, delete-orphan"
    )
    pairs: Mapped[list[Pair]] = relationship(
        back_populates="match", order_by="Pair.number", cascade="all, delete-orphan"
    )

    __mapper_args__ = {"version_id_col": version}


class Pair(Base):
    """One pair of games (RULES §1): its number, when it started, and the live cubes.

    The pair's cube board is not stored: the domain derives it from the games and the live
    offers (RULES §4), so a corrected game or a withdrawn offer cannot leave a stale one."""

    __tablename__ = "pair"
    __table_args__ = (UniqueConstraint("match_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    # the live cube of each board while its game is played (survives a crash of the desk)
    cube1_value: Mapped[int] = mapped_column(Integer, default=1)
    cube1_owner: Mapped[str | None] = mapped_column(String(1), nullable=True)
    cube1_offered_by: Mapped[str | None] = mapped_column(String(1), nullable=True)
    cube2_value: Mapped[int] = mapped_column(Integer, default=1)
    cube2_owner: Mapped[str | None] = mapped_column(String(1), nullable=True)
    cube2_offered_by: Mapped[str | None] = mapped_column(String(1), nullable=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    match: Mapped[Match] = relationship(back_populates="pairs")


class Game(Base):
    __tablename__ = "game"
    __table_args__ = (
        UniqueConstraint("match_id", "seq"),
        CheckConstraint(BOARD_CHECK, name="board"),
        CheckConstraint("cube >= 1", name="cube"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    pair_id: Mapped[int] = mapped_column(ForeignKey("pair.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)  # finish order within the match (rule 4′)
    pair_number: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    winner: Mapped[str] = mapped_column(String(1))
    end: Mapped[str] = mapped_column(String(10))
    cube: Mapped[int] = mapped_column(Integer, default=1)
    level: Mapped[str | None] = mapped_column(String(12), nullable=True)
    loser_borne_off: Mapped[int | None] = mapped_column(Integer, nullable=True)
    agreed_level: Mapped[str | None] = mapped_column(String(12), nullable=True)
    winner_left: Mapped[int | None] = mapped_column(Integer, nullable=True)
    loser_left: Mapped[int | None] = mapped_column(Integer, nullable=True)
    loser_home: Mapped[int | None] = mapped_column(Integer, nullable=True)
    loser_outfield: Mapped[int | None] = mapped_column(Integer, nullable=True)
    loser_in_winner_home_or_bar: Mapped[int | None] = mapped_column(Integer, nullable=True)
    loser_pips: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # each side's remaining clock time when the game ended (RULES §7), if a clock ran
    clock_a_ns: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    clock_b_ns: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # where the match's clock log stood when the game was recorded: its clock events with a
    # lower seq came before the game. Wall clocks cannot say it (stations' clocks differ).
    clock_seq: Mapped[int] = mapped_column(Integer)
    version: Mapped[int] = mapped_column(Integer, default=1)

    match: Mapped[Match] = relationship(back_populates="games")

    __mapper_args__ = {"version_id_col": version}


class ClockEvent(Base):
    """Every press, pause, resume, adjustment, flag and reset of a match's clocks (RULES §7)."""

    __tablename__ = "clock_event"
    __table_args__ = (UniqueConstraint("match_id", "seq"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(20))
    t_ns: Mapped[int] = mapped_column(BigInteger)  # monotonic time of the event
    board: Mapped[int | None] = mapped_column(Integer, nullable=True)
    side: Mapped[str | None] = mapped_column(String(1), nullable=True)
    value: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)  # an adjustment's why
    wall_time: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class AuditEntry(Base):
    """Who changed what and why: corrections, overrides, restores."""

    __tablename__ = "audit"

    id: Mapped[int] = mapped_column(primary_key=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    station: Mapped[str] = mapped_column(String(100), default="")
    action: Mapped[str] = mapped_column(String(50))
    target: Mapped[str] = mapped_column(String(100), default="")
    before: Mapped[str] = mapped_column(Text, default="")
    after: Mapped[str] = mapped_column(Text, default="")
    reason: Mapped[str] = mapped_column(Text, default="")


class Meta(Base):
    """Key/value facts about the file itself (clean-shutdown flag, app version)."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(50), primary_key=True)
    value: Mapped[str] = mapped_column(Text, default="")


class ForbiddenPair(Base):
    """Two teams the director asked not to pair (Swiss; a strong soft constraint)."""

    __tablename__ = "forbidden_pair"
    __table_args__ = (UniqueConstraint("team_low_id", "team_high_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    team_low_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)
    team_high_id: Mapped[int] = mapped_column(ForeignKey("team.id", ondelete="CASCADE"), index=True)


class SlipToken(Base):
    """The secret in a team's QR code: it lets a phone send result slips for that match only,
    as that team (`side`), and confirm the other team's.

    A team has at most one live token per match (the newest not revoked); revoking a table's
    tokens and issuing new ones locks out every phone that had the old QR codes. A token of a
    file older than per-team tokens names no side and opens nothing.
    """

    __tablename__ = "slip_token"
    __table_args__ = (UniqueConstraint("token"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    token: Mapped[str] = mapped_column(String(64))
    side: Mapped[str | None] = mapped_column(String(1), nullable=True)  # "A" or "B"
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Slip(Base):
    """One game's result as the players sent it from their phones, until the desk decides.

    `uid` is made by the phone: a slip sent twice (a retry after lost Wi-Fi) is the same slip.
    """

    __tablename__ = "slip"
    __table_args__ = (
        UniqueConstraint("uid"),
        CheckConstraint(BOARD_CHECK, name="board"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    uid: Mapped[str] = mapped_column(String(64))
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    token_id: Mapped[int] = mapped_column(ForeignKey("slip_token.id", ondelete="CASCADE"))
    pair_number: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    game: Mapped[str] = mapped_column(Text)  # the game as a match-record game (FORMATS.md)
    entered_side: Mapped[str] = mapped_column(String(1))
    entered_device: Mapped[str] = mapped_column(String(64))
    confirmed_device: Mapped[str | None] = mapped_column(String(64), nullable=True)
    status: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str] = mapped_column(Text, default="")  # why it was refused or disputed
    game_id: Mapped[int | None] = mapped_column(Integer, nullable=True)  # once recorded
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class ClockCommand(Base):
    """The desk's word to a match's phone clocks (RULES §7): start both boards, or pause,
    resume or restore a time on one board. Kept here so a restart of the table service loses
    none; the phone's clock log records what it carried out.

    `ident` is what the phones know a command by (each carries it out once); `at_ns` is the
    instant both boards start (a start) or when it was given (the others), on the serving
    computer's monotonic clock; `audited` is set once a time restore's reason is in the audit.
    """

    __tablename__ = "clock_command"
    __table_args__ = (UniqueConstraint("ident"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    ident: Mapped[str] = mapped_column(String(32))
    match_id: Mapped[int] = mapped_column(ForeignKey("match.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    board: Mapped[int | None] = mapped_column(Integer, nullable=True)  # None: the start
    side: Mapped[str | None] = mapped_column(String(1), nullable=True)
    value: Mapped[int | None] = mapped_column(BigInteger, nullable=True)  # a restore's new time
    pair_number: Mapped[int | None] = mapped_column(
        Integer, nullable=True
    )  # the pair a start starts
    at_ns: Mapped[int] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(Text, default="")
    audited: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
