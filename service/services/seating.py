"""Who sits in a human seat: the player record a name plays under (`store.player_records`).

A name someone holds (a claimed name, or one that matches it: `domain.names.name_key`)
is its holder's: only their session plays under it, everyone else gets
``name_claimed``. A name nobody holds is a guest's: its guest record is found or made,
once it is no look-alike of a different name in the high score table (`names`).
A forgotten name is held by nobody until its hold ends (``free_at``).

A rated online game's seats are signed-in players', each under their own name (their
claimed record): its creator's when it is made, the friend's when they claim the
other seat, never the same player's twice (`check_rated_seat`, `check_rated_claim`).
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from ..domain.commands import NewGame
from ..domain.events import Seat
from ..domain.names import clean_name, name_key
from ..domain.start import HUMAN_MODES
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import RatedAgainstSelf, RatedNeedsSignIn
from ..store import UnitOfWork
from ..store.player_records import name_claimed
from .names import refuse_look_alike
from .results import SignedIn


def seat_player(uow: UnitOfWork, name: str, field: str, signed_in: SignedIn | None,
                now: datetime) -> int:
    """The player record a human seat named `name` takes (`clean_name` is applied):
    the signed-in player's own when the name matches theirs, else a guest record;
    `NameClaimed` when someone else holds the name, ``name_confusable`` for a
    look-alike of a table name."""
    name = clean_name(name, field)
    holder = uow.player_records.holder(name_key(name), now)
    if holder is not None:
        if signed_in is not None and holder.claimed and holder.id == signed_in.player_id:
            return holder.id
        raise name_claimed(name, field)
    refuse_look_alike(uow, name, field)
    return uow.player_records.guest(name, now)


def seated(uow: UnitOfWork, command: NewGame, signed_in: SignedIn | None,
           now: datetime) -> NewGame:
    """`command` with the player records of its human seats (`seat_player`)."""
    if command.mode == "computer_vs_computer":
        return command
    player = command.player
    if player is None:
        player = seat_player(uow, command.player_name, "player_name", signed_in, now)
    second = command.second_player
    if command.mode in HUMAN_MODES and command.mode != "online" and second is None:
        second = seat_player(uow, command.second_name or "", "second_name", signed_in, now)
    return dataclasses.replace(command, player=player, second_player=second)


def check_seat_holder(uow: UnitOfWork, seat: Seat, signed_in: SignedIn | None,
                      now: datetime) -> None:
    """`NameClaimed` unless the player of `seat` may play again under their name
    (a rematch): a claimed record's holder only; a guest's name only while nobody
    holds it."""
    if seat.player is None:
        return
    record = uow.player_records.get(seat.player)
    if record is None or record.name is None:
        return  # forgotten: its placeholder is nobody's name
    if record.claimed:
        if signed_in is None or signed_in.player_id != record.id:
            raise name_claimed(record.name, "player_name")
        return
    holder = uow.player_records.holder(name_key(record.name), now)
    if holder is not None and (signed_in is None or signed_in.player_id != holder.id):
        raise name_claimed(record.name, "player_name")


def refuse_held_names(uow: UnitOfWork, seats: tuple[Seat, Seat], now: datetime) -> None:
    """`NameClaimed` for a seat named in text (an imported game) with a name someone
    holds: an import has no session to play under it."""
    for field, seat in zip(("player_name", "second_name"), seats, strict=True):
        if seat.kind == "human" and seat.name and uow.player_records.holder(
                name_key(seat.name), now) is not None:
            raise name_claimed(seat.name, field)


def check_rated_seat(player: int | None, signed_in: SignedIn | None, *,
                     joining: bool = False) -> None:
    """``rated_needs_sign_in`` unless the seat of a rated game takes the signed-in
    caller's own record (`player`): a guest, or a signed-in player under a guest's
    name, has no rating to move. `joining`: the friend's claim (its own message)."""
    if signed_in is None or player != signed_in.player_id:
        raise RatedNeedsSignIn(
            english("this game is rated: sign in to join it, under your own name") if joining
            else english("a rated game is played signed in, under your own name: sign in, "
                         "or make the game casual"))


def check_rated_claim(state: GameState, seat: int, player: int,
                      signed_in: SignedIn | None) -> None:
    """The checks of a rated game's open `seat` taken by `player`: not by the player
    of the other seat (``rated_against_self``), and by a signed-in player under their
    own name (`check_rated_seat`)."""
    other = state.seat_info(3 - seat).player
    if other is not None and (player == other or (
            signed_in is not None and signed_in.player_id == other)):
        raise RatedAgainstSelf(english("this rated game is yours already: a player cannot "
                                       "play a rated game against their own name"))
    check_rated_seat(player, signed_in, joining=True)
