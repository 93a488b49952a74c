"""What every use case shares: the store, loading a game, the token check, the
settings, playing the computer's turn (also to finish one a crash left undone) and
abandoning a game past its time (`domain.retention`) when it is next read or played."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Generic, Self, TypeVar, overload

from ..domain import ai, daily
from ..domain.commands import Abandon
from ..domain.events import Event
from ..domain.fold import apply_all
from ..domain.players import play_turn
from ..domain.retention import abandon_reason
from ..domain.rules import decide
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import TokenInvalid, TokenMissing, VersionConflict
from ..ops import metrics
from ..ops.settings import Settings
from ..store import REQUEST, EventStore, Patience, StoredGame, UnitOfWork, make_engine, utcnow
from . import security
from .hints import HintCache
from .results import MoveResult
from .shown import names, shown_result

T = TypeVar("T")


def is_computer_turn(state: GameState) -> bool:
    return not state.over and state.seat_info(state.turn).kind == "computer"


def computer_owes_a_turn(state: GameState) -> bool:
    """In a vs_computer game the computer's turn is appended with the move that ends
    the human's; a state at its turn was stored when the two were separate writes
    and a crash came between them."""
    return state.game.mode == "vs_computer" and is_computer_turn(state)


def computer_turn(state: GameState) -> list[Event]:
    """The events of the whole turn of the computer seat to move (timed in the metrics)."""
    level = state.seat_info(state.turn).level or state.game.difficulty
    return play_turn(state, metrics.TimedStrategy(ai.strategy_for(level), level))


class ServiceCore:
    """What the use cases share, one per `Services`: the store, the settings, the
    hint cache and the clock, and the settings they read, each its own attribute (a
    test may change one on one instance)."""

    def __init__(self, store: EventStore, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings if settings is not None else Settings.from_env()
        store.name_secret = self.settings.client_salt
        self.hints = HintCache()
        self.clock: Callable[[], datetime] = utcnow  # "now" for retention (tests set it)
        self.abandon_after: timedelta = self.settings.abandon_after
        self.active_games_per_client: int = self.settings.active_games_per_client
        self.invite_ttl_seconds: int = self.settings.invite_ttl_seconds


class _Shared(Generic[T]):
    """An attribute of the `ServiceCore` of the same name, read and set through it."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, on: None, owner: type) -> Self: ...

    @overload
    def __get__(self, on: OnCore, owner: type | None = None) -> T: ...

    def __get__(self, on: OnCore | None, owner: type | None = None) -> T | Self:
        if on is None:  # looked up on the class
            return self
        value: T = getattr(on.core, self.name)
        return value

    def __set__(self, on: OnCore, value: T) -> None:
        setattr(on.core, self.name, value)


class OnCore:
    """Reads (and sets) the shared core's attributes as its own."""

    core: ServiceCore
    store = _Shared[EventStore]()
    settings = _Shared[Settings]()
    clock = _Shared[Callable[[], datetime]]()
    abandon_after = _Shared[timedelta]()
    active_games_per_client = _Shared[int]()
    invite_ttl_seconds = _Shared[int]()

    @classmethod
    def core_from_url(cls, url: str | None = None, patience: Patience = REQUEST,
                      settings: Settings | None = None) -> ServiceCore:
        settings = settings if settings is not None else Settings.from_env()
        engine = make_engine(url or settings.database_url, patience,
                             settings.sqlite_synchronous)
        return ServiceCore(EventStore(engine), settings)


class ServiceBase(OnCore):
    """A use-case class: its methods, on the shared core."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core
        self._hints = core.hints

    @contextmanager
    def _reading(self, uow: UnitOfWork | None) -> Iterator[UnitOfWork]:
        """`uow` when there is one (its transaction), else a read transaction."""
        if uow is not None:
            yield uow
            return
        with self.store.unit_of_work(write=False) as reading:
            yield reading

    def _load(self, game_id: str, at: int | None = None) -> tuple[StoredGame, GameState]:
        with self.store.unit_of_work(write=False) as uow:
            return uow.state(game_id, at)

    def _load_settled(self, game_id: str) -> tuple[StoredGame, GameState]:
        """The game now, after abandoning it if it is past its time and playing a
        computer turn that a crash left owed."""
        game, state = self._settle_abandonment(*self._load(game_id))
        if computer_owes_a_turn(state):
            self._computer_turn(game_id, state)  # None: another writer played it
            game, state = self._load(game_id)
        return game, state

    def _due(self, game: StoredGame, state: GameState, now: datetime | None = None, *,
             uow: UnitOfWork | None = None) -> str | None:
        """Why the game is abandoned at `now` (default: the clock), or None
        (`domain.retention.abandon_reason`, with the invitation of an open seat, read
        in `uow` when given). A daily challenge game still running once its date is
        over is abandoned (``day_over``) by its next command or read: that date's seed
        is revealed then."""
        if state.over:
            return None
        if state.daily is not None and daily.is_over(state.daily, now or self.clock()):
            return "day_over"  # its seed is public now: the game cannot go on
        expires_at = None
        if state.open_seat is not None:
            with self._reading(uow) as reader:
                invitation = reader.invitations.get(game.summary.game_id)
            if invitation is not None and invitation.claimed_at is None:
                expires_at = invitation.expires_at
        return abandon_reason(state, last_event_at=game.summary.updated_at,
                              now=now or self.clock(), abandon_after=self.abandon_after,
                              invite_expires_at=expires_at)

    def _abandon(self, game_id: str, state: GameState, reason: str) -> MoveResult | None:
        """Append ``game_abandoned`` at `state`'s version; None if another writer was
        first (a move, or another process abandoning it: the version check lets one
        of them write)."""
        return self._append_at(game_id, state, decide(state, Abandon(reason)))

    def _settle_abandonment(self, game: StoredGame, state: GameState
                            ) -> tuple[StoredGame, GameState]:
        """The game after abandoning it if it is past its time (else as given)."""
        reason = self._due(game, state)
        if reason is None:
            return game, state
        self._abandon(game.summary.game_id, state, reason)
        return self._load(game.summary.game_id)

    def _computer_turn(self, game_id: str, state: GameState) -> MoveResult | None:
        """Append the computer's turn from `state`; None if another writer was first
        (the version check makes this idempotent)."""
        return self._append_at(game_id, state, computer_turn(state))

    def _append_at(self, game_id: str, state: GameState,
                   events: list[Event]) -> MoveResult | None:
        """Append `events` decided at `state`, if the game is still at its version;
        None when another writer was first (so a turn or an abandonment that two
        requests or processes both decide is written once)."""
        after = apply_all(state, events)
        try:
            stored = self.store.append(game_id, state.version, events, after)
        except VersionConflict:
            return None
        with self.store.unit_of_work(write=False) as uow:
            seats = names(uow.games.get(game_id))
        return shown_result(game_id, stored, after, seats)

    def _token_seats(self, game: StoredGame, token: str | None,
                     uow: UnitOfWork | None = None) -> tuple[int, ...]:
        """The seats `token` may move: the creator's token moves every human seat,
        except in an online game, where each seat has its own token (the invited
        seat's is kept with its invitation, read in `uow` when given; the creator sits
        in the other seat, seat 1 but in a rematch that swapped the seats).
        `TokenMissing`/`TokenInvalid` else."""
        if token is None or token == "":
            raise TokenMissing(english("this game needs its token"))
        online = game.summary.mode == "online"
        creator = security.token_matches(token, game.token_salt, game.token_hash)
        if creator and not online:
            return (1, 2)
        if online:
            with self._reading(uow) as reader:
                invitation = reader.invitations.get(game.summary.game_id)
            invited = 2 if invitation is None else invitation.seat
            if creator:
                return (3 - invited,)
            if (invitation is not None and invitation.token_hash is not None
                    and invitation.token_salt is not None
                    and security.token_matches(token, invitation.token_salt,
                                               invitation.token_hash)):
                return (invited,)
        raise TokenInvalid(english("wrong token for this game"))

