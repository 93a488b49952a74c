"""What every use case shares: the store, loading a game, the token check, and
playing the computer's turn (also to finish one a crash left undone)."""

from __future__ import annotations

from typing import Self

from .. import config, security
from ..domain import ai
from ..domain.players import play_turn
from ..domain.state import GameState, apply_all
from ..errors import BadSetting, TokenInvalid, TokenMissing, VersionConflict
from ..store import EventStore, StoredGame, make_engine
from .hints import HintCache
from .results import MoveResult


def is_computer_turn(state: GameState) -> bool:
    return not state.over and state.seat_info(state.turn).kind == "computer"


def computer_owes_a_turn(state: GameState) -> bool:
    """In a vs_computer game the computer moves right after the human's turn ends;
    a state at its turn means that write was lost (a crash between the two)."""
    return state.game.mode == "vs_computer" and is_computer_turn(state)


class ServiceBase:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._hints = HintCache()
        self._invite_ttl_seconds: int | None = None

    @property
    def invite_ttl_seconds(self) -> int:
        """How long an online game's invitation lasts: ``SQUARES_INVITE_TTL_SECONDS``
        (read when needed, so a bad value troubles only online games) unless set."""
        if self._invite_ttl_seconds is not None:
            return self._invite_ttl_seconds
        try:
            return config.invite_ttl_seconds()
        except ValueError as exc:
            raise BadSetting(str(exc)) from None

    @invite_ttl_seconds.setter
    def invite_ttl_seconds(self, seconds: int) -> None:
        self._invite_ttl_seconds = seconds

    @classmethod
    def from_url(cls, url: str | None = None) -> Self:
        """Services on `url` (None: `config.database_url()`); migrate it first."""
        return cls(EventStore(make_engine(url or config.database_url())))

    def _load(self, game_id: str, at: int | None = None) -> tuple[StoredGame, GameState]:
        with self.store.unit_of_work(write=False) as uow:
            return uow.state(game_id, at)

    def _load_settled(self, game_id: str) -> tuple[StoredGame, GameState]:
        """The game now, after playing a computer turn that a crash left owed."""
        game, state = self._load(game_id)
        if computer_owes_a_turn(state):
            self._computer_turn(game_id, state)  # None: another writer played it
            game, state = self._load(game_id)
        return game, state

    def _computer_turn(self, game_id: str, state: GameState) -> MoveResult | None:
        """Append the computer's turn from `state`; None if another writer was first
        (the version check makes this idempotent)."""
        level = state.seat_info(state.turn).level or state.game.difficulty
        events = play_turn(state, ai.strategy_for(level))
        after = apply_all(state, events)
        try:
            stored = self.store.append(game_id, state.version, events, after)
        except VersionConflict:
            return None
        return MoveResult(game_id, stored, after.copy())

    def _token_seats(self, game: StoredGame, token: str | None) -> tuple[int, ...]:
        """The seats `token` may move: the creator's token moves every human seat,
        except in an online game, where each seat has its own token (the invited
        seat's is kept with its invitation). `TokenMissing`/`TokenInvalid` else."""
        if token is None or token == "":
            raise TokenMissing("this game needs its token")
        online = game.summary.mode == "online"
        if security.token_matches(token, game.token_salt, game.token_hash):
            return (1,) if online else (1, 2)
        if online:
            with self.store.unit_of_work(write=False) as uow:
                invitation = uow.invitations.get(game.summary.game_id)
            if (invitation is not None and invitation.token_hash is not None
                    and invitation.token_salt is not None
                    and security.token_matches(token, invitation.token_salt,
                                               invitation.token_hash)):
                return (2,)
        raise TokenInvalid("wrong token for this game")
