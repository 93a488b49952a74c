"""The unit of work: one transaction, its repositories, and the one append path.

`EventStore.unit_of_work()` opens a transaction and hands out a `UnitOfWork` with
``uow.games``, ``uow.events``, ``uow.high_scores``, ``uow.invitations``,
``uow.viewers``, ``uow.queries``, and for followers ``uow.log`` (events in global
order), ``uow.checkpoints`` and ``uow.reviews``; the block's
end commits it, an exception rolls it back. Snapshots (`snapshots`) are published
only after the commit, so the cache never holds a state that was not committed.

Concurrency (RULES V3): `UnitOfWork.append` names the version its events were
decided on. It first compare-and-sets the game's row (`games.GameRepository.advance`,
which tells a late writer the current version before anything is written), then
inserts the events, whose primary key ``(game_id, seq)`` is the last word
(`events.EventRepository.insert`); on PostgreSQL both are one statement
(`pg_append`). Either refusal is a `VersionConflict` and the whole transaction is
rolled back. Nothing process-local decides who wins, so this holds across threads,
workers and servers.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager

from sqlalchemy import Engine
from sqlalchemy.engine import Connection
from sqlalchemy.exc import SQLAlchemyError

from ..domain.events import Event
from ..domain.fold import apply_all, fold
from ..domain.ranking import HERE
from ..domain.state import CorruptStream, GameState
from ..errors import DatabaseUnavailable, ServiceError, VersionConflict
from ..ops import metrics
from . import pg_append
from .checkpoints import CheckpointRepository
from .engine import REQUEST, Patience, begin_sqlite, make_engine, patience_of, write_engine
from .events import EventRepository, SequenceTaken, StoredEvent
from .games import GameRepository, StoredGame, finished_at, summary_of
from .high_scores import HighScoreRepository, enters_high_scores
from .invitations import InvitationRepository
from .migrations import schema_problem
from .notifications import Listener, listen
from .outages import database_outage, first_line
from .positions import EventLog
from .queries import Queries
from .reviews import ReviewRepository
from .schema import summary_values, utcnow
from .snapshots import SNAPSHOT_CAPACITY, PendingSnapshots, SnapshotCache
from .viewers import ViewerRepository
from .writer_queue import writer_queue


class UnitOfWork:
    """One database transaction; every store operation of a use case goes through it."""

    def __init__(self, conn: Connection, snapshots: SnapshotCache) -> None:
        self._conn = conn
        self._postgres = conn.dialect.name == "postgresql"
        self.games = GameRepository(conn)
        self.events = EventRepository(conn)
        self.high_scores = HighScoreRepository(conn)
        self.invitations = InvitationRepository(conn)
        self.viewers = ViewerRepository(conn)
        self.queries = Queries(conn)
        self.log = EventLog(conn)
        self.checkpoints = CheckpointRepository(conn)
        self.reviews = ReviewRepository(conn)
        self.snapshots = PendingSnapshots(snapshots)
        # (events, the game's mode) appended here: counted once committed
        self.appended: list[tuple[list[Event], str]] = []

    # reading ------------------------------------------------------------------
    def state(self, game_id: str, at: int | None = None) -> tuple[StoredGame, GameState]:
        """The game's row and its state after event `at` (default: the current
        version): the newest snapshot at or before it plus the events since.
        The state is the caller's own copy, and knows a ranked game's secret seed
        (for the rules and the AI; readers never show it). Only current states are
        cached: replay steps of the past would push the live games' states out of
        the LRU."""
        game = self.games.get(game_id)
        state = self._state(game, game_id, at)
        if game.seed_secret is not None and state.secret_seed is None:
            state.know_secret_seed(game.seed_secret)
        return game, state

    def _state(self, game: StoredGame, game_id: str, at: int | None) -> GameState:
        target = game.summary.version if at is None else at
        snapshot = self.snapshots.latest(game_id, target)
        if snapshot is not None and snapshot.version == target:
            return snapshot.copy()
        after = snapshot.version if snapshot is not None else 0
        stored = self.events.load(game_id, after=after, upto=target)
        if len(stored) != target - after:
            raise CorruptStream(f"game {game_id}: events {after + 1}..{target} "
                                "are not all stored")
        events = [s.event for s in stored]
        state = apply_all(snapshot, events) if snapshot is not None else fold(events)
        if target == game.summary.version:
            self.snapshots.put(game_id, state)
            return state.copy()
        return state

    # writing ------------------------------------------------------------------
    def add_game(self, game_id: str, events: Sequence[Event], state: GameState, *,
                 token_hash: str, token_salt: str, creator: str | None = None,
                 seed_secret: str | None = None, origin: str = HERE,
                 signature: str | None = None) -> list[StoredEvent]:
        """Store a new game: its first events, its row and any high scores;
        `creator`: the keyed hash of the address that created it (API games);
        `seed_secret`: a ranked game's secret seed; `origin` and `signature`: where
        an imported game comes from (`domain.ranking`) and the signature it came with."""
        if state.version != len(events):
            raise ValueError("the state must be the fold of the events")
        stored = _stamp(game_id, 0, events)
        self.games.add(summary_of(game_id, state, stored, origin), token_hash=token_hash,
                       token_salt=token_salt, seed_commitment=state.game.seed_commitment,
                       creator=creator, seed_secret=seed_secret, signature=signature)
        self.events.insert(stored)
        self.high_scores.record(stored, state, origin)
        self.snapshots.put(game_id, state.copy())
        self.appended.append(([s.event for s in stored], state.game.mode))
        return stored

    def append(self, game_id: str, expected_version: int, events: Sequence[Event],
               state_after: GameState) -> list[StoredEvent]:
        """Append `events`, decided at `expected_version`; `state_after` is their
        result. `VersionConflict` when the game is at another version (nothing is
        written), `GameNotFound` when there is no such game."""
        if not events:
            return []
        if state_after.version != expected_version + len(events):
            raise ValueError("state_after must be the state after the appended events")
        stored = _stamp(game_id, expected_version, events)
        values = summary_values(state_after, stored[-1].recorded_at, finished_at(stored))
        try:
            if self._postgres:  # the same writes in one statement, one round trip
                pg_append.append(self._conn, expected_version, stored, values)
            else:
                self.games.advance(game_id, expected_version, values)
                self.events.insert(stored)
        except VersionConflict:
            metrics.version_conflict("append")
            raise
        self.high_scores.record(stored, state_after)
        self.snapshots.put(game_id, state_after.copy())
        self.appended.append(([s.event for s in stored], state_after.game.mode))
        return stored

    def delete_game(self, game_id: str) -> None:
        """A game's events and row; its high scores stay (their game_id becomes NULL)."""
        self.games.get(game_id, for_update=True)
        self.events.delete(game_id)
        self.invitations.delete(game_id)
        self.games.delete(game_id)
        self.snapshots.forget(game_id)


def _stamp(game_id: str, after: int, events: Sequence[Event]) -> list[StoredEvent]:
    now = utcnow()
    return [StoredEvent(game_id, after + i, e, now) for i, e in enumerate(events, start=1)]


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
                    uow = UnitOfWork(conn, self.snapshots)
                    yield uow
                uow.snapshots.publish()
                metrics.events_committed(uow.appended)
        except SequenceTaken as exc:
            metrics.version_conflict("append")
            current = self.current_version(exc.game_id)
            raise VersionConflict(
                f"game {exc.game_id}: another writer appended first",
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
        # PostgreSQL: an append that enters no high scores is one statement
        # (`pg_append`), its own transaction
        one_statement = not self._sqlite and not enters_high_scores(events)
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
