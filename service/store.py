"""Persistence: the SQLAlchemy tables, the engine, the event store and its unit of work.

Layout (the schema itself is created only by the Alembic migrations in ``migrations/``):

- ``events``: the source of truth. One row per event, primary key ``(game_id, seq)``
  with ``seq`` gap-free and 1-based (``seq`` == the state's version after the event).
  ``type`` and ``version`` (the event's schema number) have their own columns and
  ``payload`` holds only ``Event.to_dict()["data"]``; the full dict is rebuilt as
  ``{"type": type, "v": version, "data": payload}`` and upcast on load.
- ``games``: a read model for listing and for the token check, rewritten in the same
  transaction as the events it summarises (and rebuildable from them).
- ``high_scores``: RULES E. Entries from a game carry ``(game_id, seat)``, unique, so a
  game's ``high_scores_entered`` event is recorded exactly once. ``game_id`` is a
  foreign key ``ON DELETE SET NULL``: deleting a game keeps its high score (the table
  is history; only the link to the replay goes).

Concurrency (RULES V3): an append names the version it was decided on. Inside one
write transaction it first updates the games row ``WHERE version = <expected>`` (a
compare-and-set: on PostgreSQL the row lock makes a concurrent writer wait and then
re-check the condition; on SQLite a write transaction is ``BEGIN IMMEDIATE``, which
takes the database's write lock up front), then inserts the events. A games row at
another version means `VersionConflict`; the primary key on ``(game_id, seq)`` is the
last word: a duplicate ``IntegrityError`` is also turned into `VersionConflict`. Either
way the whole transaction is rolled back, so nothing is written. This holds across
threads and processes (nothing process-local decides who wins).

SQLite pragmas on every connection: ``journal_mode=WAL``, ``foreign_keys=ON``,
``busy_timeout=30000`` and ``synchronous=FULL``. FULL is a deliberate choice: a move
acknowledged to a player is on disk even after a power cut (NORMAL in WAL mode may
lose the last commits then; it never corrupts). FULL costs about 2.5k commits/s on
this disk against 7k/s for NORMAL, far more than a turn-based game needs.
``SQUARES_SQLITE_SYNCHRONOUS=NORMAL`` overrides it (benchmarks compare both).

Snapshots: `SnapshotCache` is a per-store (so per-process) LRU of folded states keyed
by ``(game_id, version)``. Loading a game reads the current version from its games
row, takes the newest cached state at or before it and folds only the newer events.
Cached states are never mutated (``apply_all`` works on a copy) and states handed to
callers are copies. Because the key includes the version and events are immutable,
the cache cannot give a wrong answer across processes; clearing it changes nothing.
"""

from __future__ import annotations

import itertools
import json
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX
    fcntl = None  # type: ignore[assignment]

from alembic import command as alembic_command
from alembic.config import Config as AlembicConfig
from sqlalchemy import (
    JSON,
    CheckConstraint,
    DateTime,
    Engine,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    TypeDecorator,
    UniqueConstraint,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from . import config
from .domain.events import Event, GameOver, HighScoresEntered, event_from_dict
from .domain.state import CorruptStream, GameState, apply_all, fold
from .errors import GameNotFound, HighScoreNotFound, VersionConflict

SNAPSHOT_CAPACITY = 512
SQLITE_BUSY_TIMEOUT_MS = 30_000


def utcnow() -> datetime:
    return datetime.now(UTC)


# -- tables -------------------------------------------------------------------


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on both databases (SQLite keeps naive text)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not stored")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


Payload = JSON().with_variant(JSONB(), "postgresql")

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class EventRecord(Base):
    __tablename__ = "events"
    __table_args__ = (
        CheckConstraint("seq >= 1", name="seq_positive"),
        {"sqlite_with_rowid": False},  # one b-tree clustered by (game_id, seq)
    )

    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    type: Mapped[str] = mapped_column(String(40))
    version: Mapped[int] = mapped_column(Integer)
    payload: Mapped[dict[str, Any]] = mapped_column(Payload)
    recorded_at: Mapped[datetime] = mapped_column(UTCDateTime())


class GameRecord(Base):
    __tablename__ = "games"
    __table_args__ = (
        Index(None, "created_at"),
    )

    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    status: Mapped[str] = mapped_column(String(16))  # active | finished
    mode: Mapped[str] = mapped_column(String(32))
    difficulty: Mapped[str] = mapped_column(String(32))
    player_name: Mapped[str] = mapped_column(String(64))
    second_name: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime())  # the last event's time
    finished_at: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    version: Mapped[int] = mapped_column(Integer)
    score1: Mapped[int] = mapped_column(Integer)
    score2: Mapped[int] = mapped_column(Integer)
    squares1: Mapped[int] = mapped_column(Integer)
    squares2: Mapped[int] = mapped_column(Integer)
    ownerless: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    turn: Mapped[int] = mapped_column(Integer)
    stage: Mapped[int] = mapped_column(Integer)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    token_hash: Mapped[str] = mapped_column(String(128))
    token_salt: Mapped[str] = mapped_column(String(64))


class HighScoreRecord(Base):
    __tablename__ = "high_scores"
    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        Index(None, "score"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(64))
    score: Mapped[int] = mapped_column(Integer)
    difficulty: Mapped[str] = mapped_column(String(32))
    game_id: Mapped[str | None] = mapped_column(
        String(64), ForeignKey("games.game_id", ondelete="SET NULL"), nullable=True
    )
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())


metadata = Base.metadata
events_table = EventRecord.__table__
games_table = GameRecord.__table__
high_scores_table = HighScoreRecord.__table__

# Statements of the hot paths, built once (SQLAlchemy then reuses their cache keys).
_PROGRESS_COLUMNS = (
    "status", "updated_at", "version", "score1", "score2", "squares1", "squares2",
    "ownerless", "round", "turn", "stage", "winner",
)
_SELECT_GAME = select(games_table).where(games_table.c.game_id == bindparam("gid"))
_SELECT_GAME_FOR_UPDATE = _SELECT_GAME.with_for_update()
_SELECT_VERSION = select(games_table.c.version).where(games_table.c.game_id == bindparam("gid"))
_INSERT_EVENTS = insert(events_table)
_INSERT_HIGH_SCORES = insert(high_scores_table)
_UPDATE_PROGRESS = {
    finished: update(games_table)
    .where(games_table.c.game_id == bindparam("gid"),
           games_table.c.version == bindparam("expected"))
    .values({c: bindparam(f"new_{c}")
             for c in _PROGRESS_COLUMNS + (("finished_at",) if finished else ())})
    for finished in (False, True)
}
_EVENT_COLUMNS = (
    events_table.c.seq, events_table.c.type, events_table.c.version, events_table.c.payload,
    events_table.c.recorded_at,
)
_SELECT_EVENTS = (
    select(*_EVENT_COLUMNS)
    .where(events_table.c.game_id == bindparam("gid"), events_table.c.seq > bindparam("after"),
           events_table.c.seq <= bindparam("upto"))
    .order_by(events_table.c.seq)
)


# -- engine ---------------------------------------------------------------------


def _json_dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def sqlite_synchronous() -> str:
    value = os.environ.get("SQUARES_SQLITE_SYNCHRONOUS", "FULL").upper()
    if value not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"SQUARES_SQLITE_SYNCHRONOUS={value!r}")
    return value


def make_engine(url: str | None = None) -> Engine:
    """An engine for `url` (default `config.database_url()`), SQLite pragmas set."""
    url = config.sqlalchemy_url(url or config.database_url())
    if url.startswith("sqlite"):
        config.ensure_sqlite_dir(url)
        engine = create_engine(url, json_serializer=_json_dumps)
        _configure_sqlite(engine)
        return engine
    return create_engine(url, json_serializer=_json_dumps, pool_pre_ping=True)


def _configure_sqlite(engine: Engine) -> None:
    synchronous = sqlite_synchronous()
    locked_error = engine.dialect.loaded_dbapi.OperationalError

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy's begin() emit BEGIN itself (see _on_begin), so a write
        # transaction can take the write lock up front.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        # Switching a new file to WAL needs its exclusive lock, and SQLite answers
        # "database is locked" at once (no busy wait) when two processes open a new
        # file together (two workers migrating it): try again for a while.
        for attempt in itertools.count(1):
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except locked_error as exc:
                if "locked" not in str(exc) or attempt >= 200:
                    raise
                time.sleep(0.01)
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get("squares_write")
        conn.connection.dbapi_connection.execute(  # type: ignore[union-attr]
            "BEGIN IMMEDIATE" if write else "BEGIN"
        )


def alembic_config(url: str) -> AlembicConfig:
    cfg = AlembicConfig()
    cfg.set_main_option("script_location", str(config.MIGRATIONS_DIR))
    cfg.attributes["url"] = url
    return cfg


def migrate(url: str | None = None, revision: str = "head") -> None:
    """Run Alembic ``upgrade <revision>`` (default head) on `url`."""
    alembic_command.upgrade(alembic_config(url or config.database_url()), revision)


def downgrade(url: str | None = None, revision: str = "base") -> None:
    """Run Alembic ``downgrade <revision>`` (default base: drops every table)."""
    alembic_command.downgrade(alembic_config(url or config.database_url()), revision)


# -- records handed out -----------------------------------------------------------


@dataclass(frozen=True)
class StoredEvent:
    game_id: str
    seq: int  # 1-based; equals the state's version after this event
    event: Event
    recorded_at: datetime


@dataclass(frozen=True)
class GameRow:
    game_id: str
    status: str
    mode: str
    difficulty: str
    player_name: str
    second_name: str
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    version: int
    score1: int
    score2: int
    squares1: int
    squares2: int
    ownerless: int
    round: int
    turn: int
    stage: int
    winner: int | None
    token_hash: str
    token_salt: str


@dataclass(frozen=True)
class HighScoreRow:
    id: int
    name: str
    score: int
    difficulty: str
    game_id: str | None
    seat: int | None
    created_at: datetime


READ_MODEL_FIELDS = (
    "status",
    "mode",
    "difficulty",
    "player_name",
    "second_name",
    "created_at",
    "updated_at",
    "finished_at",
    "version",
    "score1",
    "score2",
    "squares1",
    "squares2",
    "ownerless",
    "round",
    "turn",
    "stage",
    "winner",
)


def read_model_values(state: GameState, stored: Sequence[StoredEvent]) -> dict[str, Any]:
    """The games-row columns (all but the token) for `state`, the fold of `stored`.

    `stored` must hold at least the events whose times the row records: the first
    (created_at), the last (updated_at) and game_over (finished_at) when present.
    """
    finished_at = next(
        (s.recorded_at for s in reversed(stored) if isinstance(s.event, GameOver)), None
    )
    return {
        "status": "finished" if state.over else "active",
        "mode": state.game.mode,
        "difficulty": state.game.difficulty,
        "player_name": state.seats[0].name,
        "second_name": state.seats[1].name,
        "created_at": stored[0].recorded_at,
        "updated_at": stored[-1].recorded_at,
        "finished_at": finished_at,
        "version": state.version,
        "score1": state.scores[0],
        "score2": state.scores[1],
        "squares1": state.squares[0],
        "squares2": state.squares[1],
        "ownerless": state.ownerless,
        "round": state.round,
        "turn": state.turn,
        "stage": state.stage,
        "winner": state.winner if state.over else None,
    }


def stored_from_row(game_id: str, seq: int, type_: str, version: int, payload: Any,
                    recorded_at: datetime) -> StoredEvent:
    event = event_from_dict({"type": type_, "v": version, "data": payload})
    return StoredEvent(game_id, seq, event, recorded_at)


# -- snapshots ------------------------------------------------------------------


class SnapshotCache:
    """An LRU of folded states keyed by ``(game_id, version)``; only ever a cache.

    Besides the LRU order, the states are indexed per game, so finding a game's
    newest state at or before a version looks at that game's entries only.
    """

    def __init__(self, capacity: int = SNAPSHOT_CAPACITY) -> None:
        self.capacity = capacity
        self._states: OrderedDict[tuple[str, int], GameState] = OrderedDict()
        self._by_game: dict[str, dict[int, GameState]] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._states)

    def put(self, game_id: str, state: GameState) -> None:
        """Keep `state` (the caller hands it over and never mutates it again)."""
        if self.capacity <= 0:
            return
        with self._lock:
            key = (game_id, state.version)
            self._states[key] = state
            self._states.move_to_end(key)
            self._by_game.setdefault(game_id, {})[state.version] = state
            while len(self._states) > self.capacity:
                (gid, version), _ = self._states.popitem(last=False)
                versions = self._by_game[gid]
                del versions[version]
                if not versions:
                    del self._by_game[gid]

    def latest(self, game_id: str, at_most: int) -> GameState | None:
        """The cached state of `game_id` with the highest version <= `at_most`."""
        with self._lock:
            versions = self._by_game.get(game_id)
            if not versions:
                return None
            exact = versions.get(at_most)
            if exact is not None:
                self._states.move_to_end((game_id, at_most))
                return exact
            best = max((v for v in versions if v <= at_most), default=None)
            return None if best is None else versions[best]

    def forget(self, game_id: str) -> None:
        with self._lock:
            for version in self._by_game.pop(game_id, {}):
                del self._states[(game_id, version)]

    def clear(self) -> None:
        with self._lock:
            self._states.clear()
            self._by_game.clear()


# -- unit of work -------------------------------------------------------------------


class _DriverStatement:
    """A prebuilt Core statement compiled once for a positional (``qmark``) dialect and
    run on the DBAPI cursor of the unit of work's own connection, inside its
    transaction: the SQL and the bind processing (JSON, UTC datetimes) are
    SQLAlchemy's, only its per-execution bookkeeping is skipped. Used for the two
    statements of `UnitOfWork.append` on SQLite, where that bookkeeping otherwise
    costs as much as the commit itself (see benchmarks/store.py)."""

    def __init__(self, statement: Any, dialect: Any) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql: str = compiled.string
        self.names: tuple[str, ...] = tuple(compiled.positiontup or ())
        self.processors = {}
        for name, bind in compiled.binds.items():
            processor = bind.type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                self.processors[name] = processor

    def run(self, conn: Connection, rows: Sequence[dict[str, Any]]) -> int:
        processors = self.processors
        params = [
            tuple(
                processors[name](row[name]) if name in processors else row[name]
                for name in self.names
            )
            for row in rows
        ]
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            if len(params) == 1:
                cursor.execute(self.sql, params[0])
            else:
                cursor.executemany(self.sql, params)
            return int(cursor.rowcount)
        finally:
            cursor.close()


class _FastAppend:
    """The driver-level statements of an append, for dialects with qmark params."""

    def __init__(self, dialect: Any) -> None:
        self.integrity_error: type[Exception] = dialect.dbapi.IntegrityError
        self.insert_events = _DriverStatement(_INSERT_EVENTS, dialect)
        self.update_progress = {
            finished: _DriverStatement(statement, dialect)
            for finished, statement in _UPDATE_PROGRESS.items()
        }

    @staticmethod
    def usable(dialect: Any) -> bool:
        return bool(dialect.name == "sqlite" and dialect.paramstyle == "qmark")


class _SequenceTaken(Exception):
    def __init__(self, game_id: str) -> None:
        super().__init__(game_id)
        self.game_id = game_id


class UnitOfWork:
    """One database transaction; every store operation of a use case goes through it."""

    def __init__(self, conn: Connection, store: EventStore) -> None:
        self.conn = conn
        self.store = store

    # reading ----------------------------------------------------------------
    def game(self, game_id: str, *, for_update: bool = False) -> GameRow:
        query = _SELECT_GAME_FOR_UPDATE if for_update else _SELECT_GAME
        row = self.conn.execute(query, {"gid": game_id}).first()
        if row is None:
            raise GameNotFound(f"no game {game_id!r}", game_id=game_id)
        return GameRow(**row._mapping)

    def find_game(self, game_id: str) -> GameRow | None:
        try:
            return self.game(game_id)
        except GameNotFound:
            return None

    def events(self, game_id: str, after: int = 0, upto: int | None = None,
               limit: int | None = None) -> list[StoredEvent]:
        query = _SELECT_EVENTS if limit is None else _SELECT_EVENTS.limit(limit)
        params = {"gid": game_id, "after": after, "upto": 2**31 - 1 if upto is None else upto}
        return [
            stored_from_row(game_id, seq, type_, version, payload, recorded_at)
            for seq, type_, version, payload, recorded_at in self.conn.execute(query, params)
        ]

    def state(self, game_id: str, at: int | None = None) -> tuple[GameRow, GameState]:
        """The games row and the state after event `at` (default: the current version).

        The returned state is the caller's own copy.
        """
        row = self.game(game_id)
        target = row.version if at is None else at
        cache = self.store.snapshots
        snapshot = cache.latest(game_id, target)
        after = snapshot.version if snapshot is not None else 0
        if after == target and snapshot is not None:
            return row, snapshot.copy()
        stored = self.events(game_id, after=after, upto=target)
        if len(stored) != target - after or (stored and stored[-1].seq != target):
            raise CorruptStream(
                f"game {game_id}: events {after + 1}..{target} are not all stored"
            )
        events = [s.event for s in stored]
        state = apply_all(snapshot, events) if snapshot is not None else fold(events)
        cache.put(game_id, state)
        return row, state.copy()

    def current_version(self, game_id: str) -> int | None:
        return self.conn.execute(_SELECT_VERSION, {"gid": game_id}).scalar()

    # writing ---------------------------------------------------------------
    def add_game(self, game_id: str, events: Sequence[Event], state: GameState, *,
                 token_hash: str, token_salt: str) -> list[StoredEvent]:
        """Store a new game: its first events, its games row and any high scores."""
        if state.version != len(events):
            raise ValueError("the state must be the fold of the events")
        now = utcnow()
        stored = [StoredEvent(game_id, i, e, now) for i, e in enumerate(events, start=1)]
        values = read_model_values(state, stored)
        try:
            self.conn.execute(
                insert(games_table),
                [{"game_id": game_id, "token_hash": token_hash, "token_salt": token_salt,
                  **values}],
            )
        except IntegrityError as exc:
            raise _SequenceTaken(game_id) from exc
        self._insert_events(stored)
        self._insert_high_scores(stored)
        self.store.snapshots.put(game_id, state.copy())
        return stored

    def append(self, game_id: str, expected_version: int, events: Sequence[Event],
               state_after: GameState) -> list[StoredEvent]:
        """Append `events` decided at `expected_version`; `state_after` is their result.

        Raises `VersionConflict` (and the transaction writes nothing) when the game
        is no longer at `expected_version`, `GameNotFound` when it does not exist.
        """
        if not events:
            return []
        if state_after.version != expected_version + len(events):
            raise ValueError("state_after must be the state after the appended events")
        now = utcnow()
        stored = [
            StoredEvent(game_id, expected_version + i, e, now)
            for i, e in enumerate(events, start=1)
        ]
        # Compare-and-set on the games row first: it takes the row's write lock
        # (PostgreSQL re-checks the WHERE clause after a concurrent writer commits;
        # SQLite holds the database write lock since BEGIN IMMEDIATE).
        values = read_model_values(state_after, stored)
        finished = values["finished_at"] is not None
        params = {f"new_{c}": values[c] for c in _PROGRESS_COLUMNS}
        if finished:
            params["new_finished_at"] = values["finished_at"]
        params.update(gid=game_id, expected=expected_version)
        fast = self.store.fast_append
        if fast is not None:
            updated = fast.update_progress[finished].run(self.conn, [params])
        else:
            updated = self.conn.execute(_UPDATE_PROGRESS[finished], params).rowcount
        if updated != 1:
            current = self.current_version(game_id)
            if current is None:
                raise GameNotFound(f"no game {game_id!r}", game_id=game_id)
            raise VersionConflict(
                f"game {game_id} is at version {current}, not {expected_version}",
                current_version=current,
            )
        # The primary key (game_id, seq) is the last word (RULES V3).
        self._insert_events(stored)
        self._insert_high_scores(stored)
        self.store.snapshots.put(game_id, state_after.copy())
        return stored

    def _insert_events(self, stored: Sequence[StoredEvent]) -> None:
        rows = []
        for s in stored:
            raw = s.event.to_dict()
            rows.append({
                "game_id": s.game_id, "seq": s.seq, "type": raw["type"], "version": raw["v"],
                "payload": raw["data"], "recorded_at": s.recorded_at,
            })
        fast = self.store.fast_append
        try:
            if fast is not None:
                try:
                    fast.insert_events.run(self.conn, rows)
                except fast.integrity_error as exc:
                    raise _SequenceTaken(stored[0].game_id) from exc
            else:
                self.conn.execute(_INSERT_EVENTS, rows)
        except IntegrityError as exc:
            raise _SequenceTaken(stored[0].game_id) from exc

    def _insert_high_scores(self, stored: Sequence[StoredEvent]) -> None:
        rows = [
            {"name": entry.name, "score": entry.score, "difficulty": entry.difficulty,
             "game_id": s.game_id, "seat": entry.seat, "created_at": s.recorded_at}
            for s in stored
            if isinstance(s.event, HighScoresEntered)
            for entry in s.event.entries
        ]
        if rows:
            self.conn.execute(_INSERT_HIGH_SCORES, rows)

    def delete_game(self, game_id: str) -> None:
        self.game(game_id, for_update=True)
        self.conn.execute(delete(events_table).where(events_table.c.game_id == game_id))
        self.conn.execute(delete(games_table).where(games_table.c.game_id == game_id))
        self.store.snapshots.forget(game_id)

    def write_read_model(self, game_id: str, values: dict[str, Any], *,
                         token_hash: str, token_salt: str) -> None:
        """Insert or overwrite a games row (rebuilding the read model)."""
        if self.find_game(game_id) is None:
            self.conn.execute(
                insert(games_table),
                [{"game_id": game_id, "token_hash": token_hash, "token_salt": token_salt,
                  **values}],
            )
        else:
            self.conn.execute(
                update(games_table).where(games_table.c.game_id == game_id).values(**values)
            )

    # high scores ------------------------------------------------------------
    def high_scores(self, limit: int | None = None,
                    game_id: str | None = None) -> list[HighScoreRow]:
        t = high_scores_table
        query = select(t).order_by(t.c.score.desc(), t.c.created_at, t.c.id)
        if game_id is not None:
            query = query.where(t.c.game_id == game_id)
        if limit is not None:
            query = query.limit(limit)
        return [HighScoreRow(**row._mapping) for row in self.conn.execute(query)]

    def add_high_score(self, name: str, score: int, difficulty: str,
                       game_id: str | None = None, seat: int | None = None) -> HighScoreRow:
        now = utcnow()
        new_id = self.conn.execute(
            insert(high_scores_table)
            .values(name=name, score=score, difficulty=difficulty, game_id=game_id,
                    seat=seat, created_at=now)
            .returning(high_scores_table.c.id)
        ).scalar_one()
        return HighScoreRow(new_id, name, score, difficulty, game_id, seat, now)

    def remove_high_score(self, entry_id: int) -> None:
        t = high_scores_table
        if self.conn.execute(delete(t).where(t.c.id == entry_id)).rowcount != 1:
            raise HighScoreNotFound(f"no high score {entry_id}", id=entry_id)

    def reset_high_scores(self) -> None:
        """RULES E2: back to the default table (the same rows the first migration adds)."""
        self.conn.execute(delete(high_scores_table))
        now = utcnow()
        self.conn.execute(
            insert(high_scores_table),
            [
                {"name": name, "score": score, "difficulty": config.DEFAULT_HIGH_SCORE_DIFFICULTY,
                 "game_id": None, "seat": None, "created_at": now}
                for name, score in config.DEFAULT_HIGH_SCORES
            ],
        )

    def game_ids(self) -> list[str]:
        """Every game id that has a games row or events."""
        ids = set(self.conn.execute(select(games_table.c.game_id)).scalars())
        ids.update(self.conn.execute(select(events_table.c.game_id).distinct()).scalars())
        return sorted(ids)

    def count(self, query: Any) -> int:
        return int(self.conn.execute(select(func.count()).select_from(query.subquery()))
                   .scalar_one())


class _WriterQueue:
    """Writers of one SQLite file queue on an ``flock`` of ``<database>-writers``
    before ``BEGIN IMMEDIATE`` and keep it until their commit (or rollback) is done.

    SQLite's own busy handler makes a writer that finds the write lock taken sleep
    1, 2, 5, ... ms before it looks again, so under load the lock sits idle while
    writers sleep. The kernel wakes a writer queued on the ``flock`` as soon as the
    previous one is done. Only a queue in front of SQLite's lock: whoever does not
    take it (another program) still meets the lock and the busy timeout, so nothing
    depends on it for correctness. One descriptor per process and thread (``flock``
    excludes separate open files, also inside one process); re-entrant per thread.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()

    def _lock_file(self) -> _LockFile | None:
        local = self._local
        pid = os.getpid()
        held: _LockFile | None = getattr(local, "file", None)
        if held is None or held.pid != pid:  # first use in this thread, or a fork
            try:
                held = _LockFile(os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644), pid)
            except OSError:  # e.g. a read-only directory: no queue, SQLite still locks
                return None
            local.file = held
        return held

    @contextmanager
    def held(self) -> Iterator[None]:
        lock = self._lock_file()
        if lock is None:
            yield
            return
        if lock.depth == 0:
            fcntl.flock(lock.fd, fcntl.LOCK_EX)
        lock.depth += 1
        try:
            yield
        finally:
            lock.depth -= 1
            if lock.depth == 0:
                fcntl.flock(lock.fd, fcntl.LOCK_UN)


class _LockFile:
    """One thread's descriptor of the queue file (closed with the thread or the store)."""

    __slots__ = ("fd", "pid", "depth")

    def __init__(self, fd: int, pid: int) -> None:
        self.fd, self.pid, self.depth = fd, pid, 0

    def __del__(self) -> None:
        if self.pid == os.getpid():
            os.close(self.fd)


def _writer_queue(engine: Engine) -> _WriterQueue | None:
    if engine.dialect.name != "sqlite" or fcntl is None:
        return None
    database = engine.url.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return _WriterQueue(os.path.abspath(database) + "-writers")


# -- the store ---------------------------------------------------------------------


class EventStore:
    """The event store of one database; `unit_of_work()` opens a transaction."""

    def __init__(self, engine: Engine, *, snapshot_capacity: int = SNAPSHOT_CAPACITY) -> None:
        self.engine = engine
        # the same pool; its connections begin with BEGIN IMMEDIATE on SQLite
        self._write_engine = engine.execution_options(squares_write=True)
        self.snapshots = SnapshotCache(snapshot_capacity)
        self.fast_append = _FastAppend(engine.dialect) if _FastAppend.usable(engine.dialect) else None
        self._writers = _writer_queue(engine)

    @classmethod
    def from_url(cls, url: str | None = None) -> EventStore:
        return cls(make_engine(url))

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def unit_of_work(self, *, write: bool = True) -> Iterator[UnitOfWork]:
        """A transaction: committed when the block ends, rolled back if it raises.

        ``write=True`` takes SQLite's write lock at BEGIN (``BEGIN IMMEDIATE``), so
        concurrent writers queue on the busy timeout instead of failing mid-way.
        """
        try:
            if write and self._writers is not None:
                with self._writers.held(), self._write_engine.connect() as conn, conn.begin():
                    yield UnitOfWork(conn, self)
            else:
                engine = self._write_engine if write else self.engine
                with engine.connect() as conn, conn.begin():
                    yield UnitOfWork(conn, self)
        except _SequenceTaken as exc:
            current = self.current_version(exc.game_id)
            raise VersionConflict(
                f"game {exc.game_id}: another writer appended first",
                current_version=current if current is not None else 0,
            ) from None

    def current_version(self, game_id: str) -> int | None:
        with self.engine.connect() as conn:
            t = events_table
            seq = conn.execute(select(func.max(t.c.seq)).where(t.c.game_id == game_id)).scalar()
            return int(seq) if seq is not None else None

    # convenience wrappers, one transaction each
    def append(self, game_id: str, expected_version: int, events: Sequence[Event],
               state_after: GameState) -> list[StoredEvent]:
        with self.unit_of_work() as uow:
            return uow.append(game_id, expected_version, events, state_after)

    def add_game(self, game_id: str, events: Sequence[Event], state: GameState, *,
                 token_hash: str, token_salt: str) -> list[StoredEvent]:
        with self.unit_of_work() as uow:
            return uow.add_game(game_id, events, state, token_hash=token_hash,
                                token_salt=token_salt)

    def load(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        with self.unit_of_work(write=False) as uow:
            if upto is None:
                uow.game(game_id)
            return uow.events(game_id, after=after, upto=upto)

    def load_state(self, game_id: str, at: int | None = None) -> GameState:
        with self.unit_of_work(write=False) as uow:
            return uow.state(game_id, at)[1]

    def dispose(self) -> None:
        self.engine.dispose()
