"""Seats as readers see them: the names a game's read model gives its seats (a player
record's name, or a forgotten player's placeholder), put in place of what the events
hold (a player record, or a name in text from before records).

The rules never read a seat's name, so a state or an event with shown names decides
and folds as the stored one does; `ranking` keeps shown names out of new events (an
entry of a seat with a player record names the record, not the name). Shown events
carry no player record: a reader gets names, never the records behind them.
"""

from __future__ import annotations

import dataclasses

from .events import Event, GameCreated, HighScoresEntered, Seat, SeatClaimed
from .state import GameState

SeatNames = tuple[str, str]  # seat 1's and seat 2's names as shown
NAMING_EVENTS = (GameCreated, SeatClaimed, HighScoresEntered)


def _shown_seat(seat: Seat, name: str) -> Seat:
    if seat.kind != "human" or not seat.taken:
        return seat
    return dataclasses.replace(seat, name=name, player=None)


def shown_state(state: GameState, names: SeatNames) -> GameState:
    """`state` (the caller's copy) as the fold of its shown events: its human seats
    named `names`, without their records. For readers only: a move is decided on the
    stored state, whose seats name their records (a shown state would write names
    into the events it decides)."""
    assert isinstance(state.game, GameCreated)
    state.game = shown_event(state.game, names)  # type: ignore[assignment]
    state.seats = (_shown_seat(state.seats[0], names[0]), _shown_seat(state.seats[1], names[1]))
    return state


def shown_event(event: Event, names: SeatNames) -> Event:
    """`event` with the names of its seats `names` (the events that name a seat)."""
    if isinstance(event, GameCreated):
        first, second = event.seats
        return dataclasses.replace(event, seats=(_shown_seat(first, names[0]),
                                                 _shown_seat(second, names[1])))
    if isinstance(event, SeatClaimed):
        return dataclasses.replace(event, name=names[event.seat - 1], player=None)
    if isinstance(event, HighScoresEntered):
        return dataclasses.replace(event, entries=tuple(
            dataclasses.replace(e, name=names[e.seat - 1], player=None) for e in event.entries))
    return event
