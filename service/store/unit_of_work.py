"""The unit of work: one transaction's repositories, and the one append path.

A `UnitOfWork` (handed out by `event_store.EventStore.unit_of_work()`, whose block's
end commits the transaction) holds ``uow.games``, ``uow.events``,
``uow.high_scores``, ``uow.invitations``, ``uow.viewers``, ``uow.queries``,
``uow.players`` (a player's games and records), ``uow.credentials`` (passkeys,
sessions, recovery codes, WebAuthn ceremonies), and for
followers ``uow.log`` (events in global order), ``uow.checkpoints`` and
``uow.reviews``, ``uow.daily`` (the daily challenge's games, whose rows
`append` keeps up with their games) and ``uow.ratings`` (the players' ratings, which
`append` moves when its events end a rated game: `domain.rated_games`). Snapshots (`snapshots`) are published only after the commit, so the
cache never holds a state that was not committed.

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

from collections.abc import Sequence
from typing import Any

from sqlalchemy.engine import Connection

from ..domain.events import Event, SeatClaimed
from ..domain.fold import apply_all, fold, moves_score
from ..domain.ranking import HERE
from ..domain.rated_games import rated_end
from ..domain.state import CorruptStream, GameState
from ..errors import VersionConflict
from ..ops import metrics
from . import pg_append
from .checkpoints import CheckpointRepository
from .credentials import CredentialRepository
from .daily import DailyRepository
from .events import EventRepository, StoredEvent
from .games import GameRepository, StoredGame, finished_at, summary_of
from .high_scores import HighScoreRepository, enters_high_scores
from .invitations import InvitationRepository
from .player_records import PlayerRecordRepository, placeholder
from .players import PlayerQueries
from .positions import EventLog
from .queries import Queries
from .ratings import RatingRepository
from .reviews import ReviewRepository
from .schema import utcnow
from .snapshots import PendingSnapshots, SnapshotCache
from .summaries import seating_values, summary_values
from .viewers import ViewerRepository


def daily_row_moves(events: Sequence[Event], state_after: GameState) -> bool:
    """Whether `events` move a daily game's row: its date ranks by the human's score
    and the end, so the row is written when either moves (most moves move neither)."""
    return state_after.daily is not None and (state_after.over or moves_score(events, 1))


def writes_beyond_the_row(events: Sequence[Event], state_after: GameState) -> bool:
    """Whether appending `events` writes more than the events and the games row: high
    scores, a claimed seat's names, a daily game's row, a rated game's ratings."""
    return (enters_high_scores(events) or any(isinstance(e, SeatClaimed) for e in events)
            or daily_row_moves(events, state_after)
            or rated_end(events, state_after) is not None)


class UnitOfWork:
    """One database transaction; every store operation of a use case goes through it."""

    def __init__(self, conn: Connection, snapshots: SnapshotCache, name_secret: str = "") -> None:
        self._conn = conn
        self._postgres = conn.dialect.name == "postgresql"
        self.games = GameRepository(conn)
        self.events = EventRepository(conn)
        self.high_scores = HighScoreRepository(conn)
        self.invitations = InvitationRepository(conn)
        self.viewers = ViewerRepository(conn)
        self.queries = Queries(conn)
        self.players = PlayerQueries(conn)
        self.player_records = PlayerRecordRepository(conn, name_secret)
        self.credentials = CredentialRepository(conn)  # passkeys, sessions, codes
        self.log = EventLog(conn)
        self.checkpoints = CheckpointRepository(conn)
        self.reviews = ReviewRepository(conn)
        self.daily = DailyRepository(conn)  # the daily challenge's games
        self.ratings = RatingRepository(conn)
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
            state.daily = self.daily.date_of_game(game_id)  # its seed stays secret
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
        seating = self.seating(state)
        self.games.add(summary_of(game_id, state, stored, seating, origin),
                       seating=seating, token_hash=token_hash,
                       token_salt=token_salt, seed_commitment=state.game.seed_commitment,
                       creator=creator, seed_secret=seed_secret, signature=signature)
        self.events.insert(stored)
        self.high_scores.record(stored, state, self.shown_name, origin)
        self.snapshots.put(game_id, state.copy())
        self.appended.append(([s.event for s in stored], state.game.mode))
        return stored

    def shown_name(self, name: str, player: int | None) -> str:
        """A human seat's name as pages show it: its player record's (a forgotten
        record's placeholder), or its name in text unless that was forgotten."""
        if player is not None:
            return self.player_records.shown_names({player}).get(player, placeholder(player))
        if not name:
            return name  # an open seat
        return self.player_records.forgotten_placeholder(name) or name

    def seating(self, state: GameState) -> dict[str, Any]:
        """The games row's `summaries.seating_values` for `state`."""
        return seating_values(state, self.shown_name)

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
        if any(isinstance(s.event, SeatClaimed) for s in stored):
            self.games.reseat(game_id, self.seating(state_after))
        self.high_scores.record(stored, state_after, self.shown_name)
        if daily_row_moves(events, state_after):
            self.daily.follow(game_id, state_after.scores[0],
                              stored[-1].recorded_at if state_after.over else None)
        rated = rated_end(events, state_after)  # no query unless a rated game ends
        if rated is not None:
            self.ratings.record(game_id, rated, stored[-1].recorded_at)
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
