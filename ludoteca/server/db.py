"""The store's tables (SQLAlchemy 2 declarative models) and the engine factory.

The action log ``moves`` is the source of truth of every table: ``(table_id, seq)`` is its
primary key, so no two commands can ever claim the same place in a table's history. A table's
match is rebuilt by replaying that log; the ``seats`` rows hold the clocks' deadlines, so a
restarted server resumes them.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    event,
    false,
)
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

from ludoteca.server.table.state import LogEntry as LogEntry
from ludoteca.server.table.state import utcnow as utcnow


class UTCDateTime(TypeDecorator[datetime]):
    """Timestamps stored in UTC and read back timezone-aware on every database (SQLite keeps
    no zone)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(32), unique=True)
    """The sign-in name, unique without regard to case (stored as typed, looked up lowered)."""
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    display_name: Mapped[str] = mapped_column(String(40))
    name_fold: Mapped[str] = mapped_column(String(64), unique=True)
    """The sign-in name folded (``names.fold``): no two accounts' names look alike."""
    display_fold: Mapped[str] = mapped_column(String(64), index=True)
    """The display name folded: no one displays a name that looks like another's."""
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    language: Mapped[str] = mapped_column(String(5), default="en")
    webhook_url: Mapped[str | None] = mapped_column(String(500), nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    seen_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    """Last use of one of its sessions (to the hour): unused guests are purged."""
    deleted_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    """Deleted by its owner (or purged): the row stays, anonymous, for the history."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True, default=None)
    """The confirmed address (one waiting for confirmation is in its ``email_tokens`` row)."""
    email_key: Mapped[str | None] = mapped_column(String(254), unique=True, nullable=True,
                                                 default=None)
    """The address lowered: one account per address."""
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    """An IANA zone (``Europe/Madrid``): quiet hours are the player's own clock's."""
    quiet_start: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    """Quiet hours, minutes after midnight in ``time_zone`` (None: none); no email then."""
    quiet_end: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    notify: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True, default=None)
    """``{event: {channel: bool}}`` the player changed; the rest are ``notify.DEFAULTS``."""


class Session(Base):
    __tablename__ = "sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Table(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    mode: Mapped[str] = mapped_column(String(8))
    """``live`` (a time bank per seat plus an increment per move) or ``turn`` (hours a move)."""
    bank_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    increment_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    turn_hours: Mapped[float] = mapped_column(Float, default=0.0)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    hints: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The coach's hints are allowed (never with ``rated``): docs/analysis.md."""
    invite: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(10), index=True)
    """``open`` (seats to fill), ``playing``, ``finished`` or ``abandoned``."""
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    zombie: Mapped[bool] = mapped_column(Boolean, default=False)
    """A bot took over a seat (out of time or left): the match is not rated."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(16), nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(16), nullable=True)
    tournament: Mapped[str | None] = mapped_column(String(16), nullable=True, default=None)
    """The tournament whose director opened this table (None: opened in the lobby)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class Seat(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True, index=True)
    bot: Mapped[str | None] = mapped_column(String(16), nullable=True)
    """The bot level playing this seat from the start (None: a person)."""
    zombie: Mapped[bool] = mapped_column(Boolean, default=False)
    bank_seconds: Mapped[float] = mapped_column(Float, default=0.0)
    """Live tables: time left in the bank when the seat's current decision began."""
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    """When the seat's current decision runs out of time (None: not its decision)."""
    reserved_for: Mapped[int | None] = mapped_column(Integer, nullable=True, default=None)
    """The person this free seat is kept for (a challenge): nobody else, and no bot, takes it."""


class Move(Base):
    """One entry of a table's log: an action, an undo, or a bot taking over a seat."""

    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))
    """``act``, ``undo`` (takes back the seat's last action) or ``note`` (a notice in ``action``,
    such as ``{"type": "takeover"}``: a bot took the seat over; older logs wrote ``zombie``)."""
    action: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Lease(Base):
    """Which process runs a live table's clocks and bots (several processes, issue 16): held
    until ``expires_at`` and renewed by its owner; any process may take an expired one."""

    __tablename__ = "table_leases"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    owner: Mapped[str] = mapped_column(String(80))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)


class Analysis(Base):
    """A finished match's post-game analysis (ludoteca/analysis): asked for by a player, made
    part by part in the bot processes; ``result`` holds the parts made so far while it runs
    (so a restarted server goes on from there) and the whole analysis once ``status`` is
    ``done``."""

    __tablename__ = "analyses"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(16))
    """``running``, ``done`` or ``failed``."""
    done: Mapped[int] = mapped_column(Integer, default=0)
    total: Mapped[int] = mapped_column(Integer)
    budget: Mapped[int] = mapped_column(Integer)
    seed: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    requested_by: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True
    )
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)


class Chat(Base):
    __tablename__ = "chat"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class Result(Base):
    """One finished match, written with its last log entry (``log_writer``): what the rating
    pools are a projection of (``pools.py``), and what a recompute replays, in ``id`` order."""

    __tablename__ = "results"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(
        ForeignKey("tables.id", ondelete="CASCADE"), unique=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    rated: Mapped[bool] = mapped_column(Boolean)
    """Created rated and no seat taken over: the match asks to count (``pools`` says where)."""
    finished_at: Mapped[datetime] = mapped_column(UTCDateTime)
    outcome: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The table's result as the match ended (``Outcome.to_json``)."""
    rated_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    """When the pools took it in (None: not yet, or not rated)."""
    pools: Mapped[list[str] | None] = mapped_column(JSON, nullable=True)
    """The pools it counted in, decided when it was rated (``[]``: none would take it)."""
    changes: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    """Per pool and participant ``[mu, sigma, new mu, new sigma]``: a bot's anchor as used."""


class ResultSeat(Base):
    """One seat of a finished match: who played it (``user:<id>`` or ``bot:<level>@<version>``),
    its side (index in the outcome's ``teams``), the side's rank over sides, and its score."""

    __tablename__ = "result_seats"

    table_id: Mapped[str] = mapped_column(
        ForeignKey("results.table_id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    participant: Mapped[str] = mapped_column(String(40), index=True)
    side: Mapped[int] = mapped_column(Integer)
    rank: Mapped[int] = mapped_column(Integer)
    score: Mapped[int] = mapped_column(Integer)


class PoolRating(Base):
    """A participant's rating in one pool of one game: ``all`` (people, all-time),
    ``season:<id>`` or ``bots`` (people against bots). Bots have no rows: their rating is the
    shipped ladder's anchor."""

    __tablename__ = "pool_ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    pool: Mapped[str] = mapped_column(String(40), primary_key=True)
    participant: Mapped[str] = mapped_column(String(40), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), nullable=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)


class Tournament(Base):
    """A tournament (docs/tournaments.md); ``status`` and ``round`` are the director's state."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(32), index=True)
    players: Mapped[int] = mapped_column(Integer)
    """The table size (``format.table_size``)."""
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    format: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``pairing.Format.to_json``."""
    rated: Mapped[bool] = mapped_column(Boolean)
    mode: Mapped[str] = mapped_column(String(8))
    """``live`` or ``turn``, with the clock's settings as a table has them."""
    bank_seconds: Mapped[float] = mapped_column(Float)
    increment_seconds: Mapped[float] = mapped_column(Float)
    turn_hours: Mapped[float] = mapped_column(Float)
    round_minutes: Mapped[float] = mapped_column(Float)
    """How long a round lasts at most: its tables still playing then are decided."""
    starts_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    """None: it starts when ``max_entrants`` have registered."""
    min_entrants: Mapped[int] = mapped_column(Integer)
    max_entrants: Mapped[int] = mapped_column(Integer)
    invite: Mapped[str | None] = mapped_column(String(32), nullable=True)
    """Invite-only: the code a person registers with (None: open to everyone)."""
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(12), index=True)
    """``registering``, ``running``, ``finished`` or ``cancelled``."""
    created_by: Mapped[int] = mapped_column(ForeignKey("users.id"))
    round: Mapped[int] = mapped_column(Integer, default=0)
    """The round being played (0: none paired yet)."""
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """One more at each write to it or its entrants, rounds or games (its page's cache key)."""
    round_deadline: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    """An arena's end (its start plus ``format.minutes``): nothing is paired from then on."""


class TournamentEntrant(Base):
    """Someone in a tournament: ``user:<id>`` or a bot identity ``bot:<level>@<version>``."""

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    participant: Mapped[str] = mapped_column(String(40), primary_key=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id"), nullable=True, index=True)
    rating: Mapped[float] = mapped_column(Float, default=0.0)
    """The rating at registration, for seeding."""
    registered_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    withdrawn_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class TournamentRound(Base):
    """A round's draw, written once (its primary key): pairing a round is idempotent."""

    __tablename__ = "tournament_rounds"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    draw: Mapped[dict[str, Any]] = mapped_column(JSON)
    """``model.RoundDraw.to_json``: its tables and byes."""
    paired_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class TournamentGame(Base):
    """One table of a round: its seats (participants), its table (an id derived from the
    tournament, round and board, so it is created once) and, once decided, its result."""

    __tablename__ = "tournament_games"

    tournament_id: Mapped[str] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    board: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16), unique=True)
    seats: Mapped[list[str]] = mapped_column(JSON)
    opened: Mapped[bool] = mapped_column(Boolean, default=False)
    """Its table exists (the director opened it)."""
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True),
                                                          nullable=True)
    """``model.GameResult.to_json`` (None, SQL's NULL: not decided yet)."""
    decided_by: Mapped[str | None] = mapped_column(String(10), nullable=True)
    """``played``, ``forfeit`` or ``deadline``."""
    decided_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)


class DirectorLease(Base):
    """Which process directs the tournaments, when several serve one arena: one row, taken
    and renewed as a table's lease is (``lease_store.py``)."""

    __tablename__ = "director_lease"

    name: Mapped[str] = mapped_column(String(16), primary_key=True)
    owner: Mapped[str] = mapped_column(String(80))
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class EmailToken(Base):
    """A link sent by email (confirm an address, reset a password): stored by hash, so a copy
    of the database opens nothing; it works once (``used_at``) and until ``expires_at``."""

    __tablename__ = "email_tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    """``confirm`` or ``reset``."""
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    email: Mapped[str] = mapped_column(String(254))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
    used_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, default=None)


class Outbox(Base):
    """An email to send: written before anyone is told it will be, so a restart sends it;
    the sender claims a row (``claimed_until``) before sending, marks it ``sent_at`` after,
    and retries a failure with backoff (``next_at``) until ``failed_at``."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    user_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True, index=True)
    to_addr: Mapped[str] = mapped_column(String(254))
    subject: Mapped[str] = mapped_column(String(300))
    text: Mapped[str] = mapped_column(Text)
    html: Mapped[str] = mapped_column(Text)
    headers: Mapped[dict[str, Any]] = mapped_column(JSON)
    kind: Mapped[str] = mapped_column(String(24))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    next_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    claimed_until: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True, index=True)
    failed_at: Mapped[datetime | None] = mapped_column(UTCDateTime, nullable=True)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)


class TurnMail(Base):
    """When a player was last emailed about a table's turn (at most one per interval)."""

    __tablename__ = "turn_mails"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(16), primary_key=True)
    mailed_at: Mapped[datetime] = mapped_column(UTCDateTime)


class ServerKey(Base):
    """A secret made once, shared by every process (the key that signs unsubscribe links)."""

    __tablename__ = "server_keys"

    name: Mapped[str] = mapped_column(String(32), primary_key=True)
    value: Mapped[str] = mapped_column(String(128))


def sync_url(url: str) -> str:
    """The URL as given, with the driver this package installs (for migrations)."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def async_url(url: str) -> str:
    """The URL with an asyncio driver: aiosqlite for SQLite, psycopg 3 for PostgreSQL."""
    url = sync_url(url)
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url.split("://", 1)[1]
    return url


SQLITE_READERS = 20
"""SQLite connections the async pool keeps open for reads (and as many again for a burst)."""


def make_engine(url: str) -> AsyncEngine:
    if url.startswith("sqlite"):
        # aiosqlite runs each connection in its own thread, and opening one waits on the event
        # loop for that thread to start: a burst of reads (an arena's wave) beyond a small pool
        # would open and close connections, holding up every table. The pool keeps a burst's.
        path = url.split("://", 1)[1].removeprefix("/").split("?", 1)[0]
        pool = ({} if path in ("", ":memory:") or "mode=memory" in url  # one shared connection
                else {"pool_size": SQLITE_READERS, "max_overflow": SQLITE_READERS})
        engine = create_async_engine(async_url(url), connect_args={"timeout": 30}, **pool)
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(async_url(url), pool_size=10, max_overflow=10, pool_pre_ping=True)


def make_sync_engine(url: str) -> Engine:
    """A blocking engine for SQLite's one writer thread (see ``Store.write``)."""
    engine = create_engine(sync_url(url), connect_args={"timeout": 30, "check_same_thread": False})
    event.listen(engine, "connect", _sqlite_pragmas)
    event.listen(engine, "connect", _no_checkpoints_in_commits)
    return engine


def _no_checkpoints_in_commits(dbapi_connection: Any, record: Any) -> None:
    # A commit that fills the log past 1000 pages would copy it into the database and
    # sync the file before returning; ``Store`` runs those checkpoints beside the writer.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


def _sqlite_pragmas(dbapi_connection: Any, record: Any) -> None:
    # WAL lets readers run beside the one writer; NORMAL syncs at checkpoints, which keeps a
    # committed move through a process crash (only a power cut can lose the last ones).
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()
