"""The event store of one database: its engine, its snapshot cache, its transactions.

`EventStore.unit_of_work()` opens a transaction and hands out a `UnitOfWork`
(`unit_of_work`: the repositories and the one append path); the block's end commits
it, an exception rolls it back, and the store's errors become the service layer's
there (`DatabaseUnavailable` for an outage, `VersionConflict` for a taken sequence).
Its other methods are one transaction each, and the readiness check.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from ..domain.events import Event
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import DatabaseUnavailable, ServiceError, VersionConflict
from ..ops import metrics
from .engine import REQUEST, Patience, begin_sqlite, make_engine, patience_of, write_engine
from .events import SequenceTaken, StoredEvent
from .migrations import schema_problem
from .notifications import Listener, listen
from .outages import database_outage, first_line
from .snapshots import SNAPSHOT_CAPACITY, SnapshotCache
from .unit_of_work import UnitOfWork, writes_beyond_the_row
from .writer_queue import writer_queue


class EventStore:
    """The store of one database: its engine, its snapshot cache, its transactions."""

    def __init__(self, engine: Engine, *, snapshot_capacity: int = SNAPSHOT_CAPACITY) -> None:
        self.engine = engine
        self._sqlite = engine.dialect.name == "sqlite"
        self._write_engine = write_engine(engine)
        # PostgreSQL: a read runs each statement on its own (autocommit), without the
        # BEGIN and COMMIT round trips. At READ COMMITTED each statement sees the
        # data committed when it starts, inside a transaction or not, so a read sees
        # nothing else (a read with a `timeout_s` keeps its transaction: SET LOCAL).
        # So does an append that is one statement (`append`).
        self._autocommit_engine = engine.execution_options(isolation_level="AUTOCOMMIT")
        self.snapshots = SnapshotCache(snapshot_capacity)
        # the key of the forgotten names' keyed hashes (`player_records`): the services
        # set it from their settings
        self.name_secret = ""
        self._writers = writer_queue(engine, patience_of(engine).lock_s)

    @classmethod
    def from_url(cls, url: str, patience: Patience = REQUEST) -> EventStore:
        return cls(make_engine(url, patience))

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @contextmanager
    def unit_of_work(self, *, write: bool = True, timeout_s: float | None = None,
                     one_statement: bool = False) -> Iterator[UnitOfWork]:
        """A transaction: committed when the block ends, rolled back if it raises;
        its snapshots are published, and its events counted, after the commit.
        `timeout_s`: on PostgreSQL no statement of it runs longer (then it is
        cancelled: `DatabaseUnavailable`), for reads that others wait for (the live
        feed's); SQLite's reads never wait for a writer (WAL). An outage of the
        database (`outages`) is raised as `DatabaseUnavailable`. `one_statement`: the
        block runs one statement (or none), which is its own transaction on
        PostgreSQL, without BEGIN and COMMIT (a read's is, unless `timeout_s`)."""
        try:
            autocommit = one_statement or (not write and timeout_s is None)
            with self._connection(write, autocommit) as conn:
                with conn.begin():
                    if self._sqlite:
                        begin_sqlite(conn)
                    elif timeout_s is not None:
                        conn.exec_driver_sql(
                            f"SET LOCAL statement_timeout = {max(1, round(timeout_s * 1000))}")
                    uow = UnitOfWork(conn, self.snapshots, self.name_secret)
                    yield uow
                uow.snapshots.publish()
                metrics.events_committed(uow.appended)
        except SequenceTaken as exc:
            metrics.version_conflict("append")
            current = self.current_version(exc.game_id)
            raise VersionConflict(
                english("game {game_id}: another writer appended first", game_id=exc.game_id),
                current_version=current if current is not None else 0,
            ) from None
        except Exception as exc:
            # The one place where the store's errors become the service layer's.
            if not isinstance(exc, ServiceError) and database_outage(exc):
                metrics.database_error("outage")
                raise DatabaseUnavailable(first_line(exc)) from exc
            if isinstance(exc, SQLAlchemyError):
                metrics.database_error("error")  # a bug in a statement: a 500
            raise

    @contextmanager
    def _connection(self, write: bool, autocommit: bool) -> Iterator[Connection]:
        if write and self._writers is not None:
            with self._writers.held(), self._write_engine.connect() as conn:
                yield conn
            return
        engine: Engine
        if autocommit and not self._sqlite:
            engine = self._autocommit_engine
        elif write:
            engine = self._write_engine
        else:
            engine = self.engine
        with engine.connect() as conn:
            yield conn

    def listen(self) -> AbstractContextManager[Listener]:
        """PostgreSQL: a listener for the games' new events, on a connection of its
        own (`notifications.listen`; the live feed's)."""
        url = self.engine.url.set(drivername="postgresql")
        return listen(url.render_as_string(hide_password=False))

    def readiness_problem(self) -> str | None:
        """Why this store cannot serve now, or None: a short public reason that names
        only the failing part ("the database does not answer", "the database schema
        is not the newest migration: at revision X, not Y"). The driver's error text,
        with its host and port, goes to the log, never into the reason."""
        import logging

        log = logging.getLogger(__name__)
        try:
            with self.engine.connect() as conn:
                problem = schema_problem(conn)
        except SQLAlchemyError as exc:
            detail = str(getattr(exc, "orig", None) or exc).strip().splitlines()
            log.warning("not ready: the database does not answer: %s: %s",
                        type(exc).__name__, detail[0] if detail else "")
            return "the database does not answer"
        if problem is None:
            return None
        log.warning("not ready: %s", problem)
        # only our own revision ids: how far behind, without anything of the server
        return ("the database schema is not the newest migration: "
                + problem.removeprefix("the schema is "))

    def current_version(self, game_id: str) -> int | None:
        with self.unit_of_work(write=False) as uow:
            return uow.events.last_seq(game_id)

    # convenience wrappers, one transaction each
    def append(self, game_id: str, expected_version: int, events: Sequence[Event],
               state_after: GameState) -> list[StoredEvent]:
        # PostgreSQL: an append that writes only the events and the games row is one
        # statement (`pg_append`), its own transaction
        one_statement = not self._sqlite and not writes_beyond_the_row(events, state_after)
        with self.unit_of_work(one_statement=one_statement) as uow:
            return uow.append(game_id, expected_version, events, state_after)

    def add_game(self, game_id: str, events: Sequence[Event], state: GameState, *,
                 token_hash: str, token_salt: str,
                 seed_secret: str | None = None) -> list[StoredEvent]:
        with self.unit_of_work() as uow:
            return uow.add_game(game_id, events, state, token_hash=token_hash,
                                token_salt=token_salt, seed_secret=seed_secret)

    def load(self, game_id: str, after: int = 0, upto: int | None = None) -> list[StoredEvent]:
        with self.unit_of_work(write=False) as uow:
            if upto is None:
                upto = uow.games.get(game_id).summary.version
            return uow.events.load(game_id, after=after, upto=upto)

    def load_state(self, game_id: str, at: int | None = None) -> GameState:
        with self.unit_of_work(write=False) as uow:
            return uow.state(game_id, at)[1]

    def dispose(self) -> None:
        self.engine.dispose()
