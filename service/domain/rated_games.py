"""Which ended games move ratings, and with what result (docs/rules.md, "Ratings").

A rated online game (``game_created``'s ``rated``: both seats signed-in players, not
the same one) moves both players' ratings once, when it ends:

- ``game_over`` (a full board, or after ``game_resigned``): the winner scores 1, the
  other 0; a draw (winner 0) is ½ each;
- ``game_abandoned`` (``idle``: nobody moved for the retention time) once both seats
  are taken: a loss for the seat that was to move, whose player let the game die, and
  a win for the other;
- ``game_aborted``, and an abandonment before the friend joined: no result, nothing
  moves.

Plain functions of the state after the append and the events appended: the store asks
`rated_end` for every append, so that test is cheap (no query) for the moves of a
game that goes on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .events import Event, GameAbandoned, GameOver
from .state import GameState

RESULTS = {1.0: "win", 0.5: "draw", 0.0: "loss"}  # a score's name, as stored and shown


@dataclass(frozen=True)
class RatedResult:
    """A rated game's end: its two players' records and the first one's score."""

    first_player: int
    second_player: int
    first_score: float  # 1 a win, 0.5 a draw, 0 a loss (`ratings.rate_game`)


def rated_end(events: Sequence[Event], state_after: GameState) -> RatedResult | None:
    """The result that `events` (just appended, leading to `state_after`) give a rated
    game, or None: the game is not rated, goes on, or ended without a result."""
    if not state_after.game.rated or not state_after.over:
        return None
    first, second = (seat.player for seat in state_after.seats)
    if first is None or second is None or first == second:
        return None  # nobody joined, or no two players to rate
    for event in events:
        if isinstance(event, GameOver):
            score = 0.5 if event.winner == 0 else (1.0 if event.winner == 1 else 0.0)
            return RatedResult(first, second, score)
        if isinstance(event, GameAbandoned):
            if event.reason != "idle" or state_after.open_seat is not None:
                return None
            return RatedResult(first, second, 0.0 if state_after.turn == 1 else 1.0)
    return None  # the end came in an earlier append (a seed revealed later, say)
