"""The games read model: `GameSummary`, one games row without its token (its fields
are the table's columns but for the token, the creator, the secret seed, an import's
signature and the seed's commitment), how a game's state gives those columns
(`summary_values`, the only code that derives them) and how a row reads back as a
summary (`summary_from_row`).
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..domain.events import Seat
from ..domain.names import name_key
from ..domain.state import GameState

# A name as pages show it, from what an event holds: (its text, its player record).
ShownName = Callable[[str, "int | None"], str]


@dataclass(frozen=True)
class GameSummary:
    """One games row without its token. Adding a column: a migration, the table
    (`schema`), a field here and its value in `summary_values` (the API schema and the
    row mapping follow from the fields)."""

    game_id: str
    status: str  # "active" | "finished" (a full board or resigned) | "abandoned" | "aborted"
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
    height: int
    width: int
    ranked: bool  # False: a practice game (a chosen seed)
    assisted: bool  # a human seat asked for a hint: no high score table
    origin: str  # here | signed | archive (`domain.ranking`), fixed at creation

    @property
    def scores(self) -> tuple[int, int]:
        return self.score1, self.score2

    @property
    def squares(self) -> tuple[int, int]:
        return self.squares1, self.squares2


SUMMARY_FIELDS = tuple(f.name for f in dataclasses.fields(GameSummary))
# Fixed when a game is created; an append rewrites all the others but the seating.
CREATION_FIELDS = ("game_id", "created_at", "origin")
# Who sits where: written when a game is created and when a seat is claimed, never by
# a move (`seating_values`).
NAME_FIELDS = ("player_name", "second_name")


def summary_values(state: GameState, updated_at: datetime,
                   finished_at: datetime | None) -> dict[str, Any]:
    """Every `GameSummary` field but `CREATION_FIELDS` and `NAME_FIELDS`, for `state`.

    `updated_at` is the time of the state's last event (for an abandoned game: its
    game_abandoned event), `finished_at` that of its game_over event, a resigned
    game's too (None while the game runs, and for an abandoned or aborted game).
    """
    return {
        "status": status_of(state),
        "mode": state.game.mode,
        "difficulty": state.game.difficulty,
        "updated_at": updated_at,
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
        "height": state.height,
        "width": state.width,
        "ranked": state.game.ranked,
        "assisted": state.assisted,
    }


# The games columns of the seats' name keys, outside `GameSummary`: a key is how the
# store finds a player's games, not something a summary shows (its steps may change,
# with a migration that computes the keys again).
KEY_FIELDS = ("first_key", "second_key")
# A game's names are the same at every move: the key (ICU's skeleton, about 17 µs) is
# computed once per name and process, not twice per append.
_cached_key = functools.lru_cache(maxsize=4096)(name_key)


# The player records behind the human seats, outside `GameSummary` too.
PLAYER_FIELDS = ("first_player", "second_player")
SEATING_FIELDS = (*NAME_FIELDS, *KEY_FIELDS, *PLAYER_FIELDS)


def seating_values(state: GameState, shown: ShownName) -> dict[str, Any]:
    """The `SEATING_FIELDS` of `state`: each seat's name as pages show it (`shown`:
    a player record's name, or a forgotten one's placeholder), its `names.name_key`
    (None for a computer seat and for an online game's seat nobody has claimed yet,
    so a player named "Computer" finds no game of the computer's) and its record."""
    names = tuple(_shown(seat, shown) for seat in state.seats)
    return {
        **dict(zip(NAME_FIELDS, names, strict=True)),
        **{field: _cached_key(name) if seat.kind == "human" and name else None
           for field, seat, name in zip(KEY_FIELDS, state.seats, names, strict=True)},
        **{field: seat.player for field, seat in zip(PLAYER_FIELDS, state.seats, strict=True)},
    }


def _shown(seat: Seat, shown: ShownName) -> str:
    return shown(seat.name, seat.player) if seat.kind == "human" else seat.name


def seat_names(summary: GameSummary) -> tuple[str, str]:
    """The seats' names as the row shows them (`domain.seat_names`)."""
    return summary.player_name, summary.second_name


def status_of(state: GameState) -> str:
    if state.abandoned is not None:
        return "abandoned"
    if state.aborted is not None:
        return "aborted"
    return "finished" if state.over else "active"


def summary_from_row(mapping: Any) -> GameSummary:
    return GameSummary(**{name: mapping[name] for name in SUMMARY_FIELDS})
