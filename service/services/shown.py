"""What the use cases hand back shows seats by name (`domain.seat_names`): the names
of the game's row now (a player record's name, a forgotten player's placeholder),
never the records. Moves are decided on the stored states; only what goes back to a
caller is shown."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from ..domain.seat_names import NAMING_EVENTS, SeatNames, shown_event, shown_state
from ..domain.state import GameState
from ..store import StoredEvent, StoredGame, UnitOfWork
from ..store.summaries import seat_names
from .results import MoveResult


def names(game: StoredGame) -> SeatNames:
    return seat_names(game.summary)


def shown_stored(stored: Sequence[StoredEvent], seats: SeatNames) -> list[StoredEvent]:
    """`stored` with its seats named `seats`."""
    return [dataclasses.replace(s, event=shown_event(s.event, seats))
            if isinstance(s.event, NAMING_EVENTS) else s for s in stored]


def shown(state: GameState, seats: SeatNames) -> GameState:
    """A copy of `state` with its seats named `seats`."""
    return shown_state(state.copy(), seats)


def shown_result(game_id: str, stored: Sequence[StoredEvent], after: GameState,
                 seats: SeatNames) -> MoveResult:
    return MoveResult(game_id, shown_stored(stored, seats), shown(after, seats))


def shown_now(uow: UnitOfWork, game_id: str, state: GameState,
              stored: Sequence[StoredEvent]) -> tuple[GameState, list[StoredEvent]]:
    """A state and events just written (a new game, a claimed seat), named as the
    game's row names its seats now."""
    seats = names(uow.games.get(game_id))
    return shown(state, seats), shown_stored(stored, seats)
