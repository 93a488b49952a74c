"""What a player (or the computer) asks of a game, and the refusal of the rules.

Commands are plain frozen dataclasses; `rules.decide` and `start.start_game` turn
them into events or raise `RuleViolation`, whose ``code`` is stable (the API's error
codes are these).
"""

from __future__ import annotations

from dataclasses import dataclass

from .board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from .random_lines import RULES_EDITION


class RuleViolation(Exception):
    """A command the rules refuse; nothing is stored. `code` is stable."""

    def __init__(self, code: str, message: str, **details: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


@dataclass(frozen=True)
class NewGame:
    """A new game. `seed` (its text is what counts; integers are the seeds of
    simulations and tests) is public in the game's first event unless `ranked`: then
    it is the server's secret, committed to and revealed at the end (`seeds`)."""

    seed: str | int
    player_name: str
    difficulty: str = "moderate"
    mode: str = "vs_computer"
    height: int = DEFAULT_HEIGHT
    width: int = DEFAULT_WIDTH
    second_name: str | None = None  # two_players: the second human
    second_level: str | None = None  # computer_vs_computer: seat 2's level
    ranked: bool = False  # a secret seed, and the human scores enter the high scores
    hints: bool | None = None  # None: on, except in an online game
    rules_edition: int = RULES_EDITION  # older ones only to re-create stored games
    # False only to re-create a game from before seed commitments (game_created v1):
    # ranked with its seed public, and the creator's seat first in every mode
    committed: bool = True
    # online: the creator's seat (a rematch swaps the seats: its creator may sit in
    # seat 2, seat 1 then being the invited one)
    creator_seat: int = 1
    # the player records of the human seats (`events.Seat.player`): the creator's, and
    # two_players' second human's; a seat with one stores no name
    player: int | None = None
    second_player: int | None = None
    rated: bool = False  # online: the result moves both players' ratings


@dataclass(frozen=True)
class PlaceLine:
    seat: int
    x: int
    y: int


@dataclass(frozen=True)
class Advance:
    seat: int


@dataclass(frozen=True)
class Explain:
    """The computer's reasons for its next moves (RULES A2)."""

    seat: int
    level: str
    best_point: int
    best_x: int | None
    best_y: int | None
    best_direction: tuple[int, ...]
    starts: int
    trials: int
    reason: str


@dataclass(frozen=True)
class ClaimSeat:
    """A friend takes an online game's invited seat (the invitation is checked by
    the service; the rules check the seat is open and the name)."""

    seat: int
    name: str
    player: int | None = None  # the friend's player record: then it holds the name


@dataclass(frozen=True)
class UseHint:
    """A human seat to move asks for a hint (the hint itself is the AI's, `ai.hint`;
    the rules record only that it was asked, once a game)."""

    seat: int


@dataclass(frozen=True)
class Abandon:
    """End an unfinished game without a result, for `reason` (``idle`` or
    ``invite_expired``); when a game is due is `retention.abandon_reason`'s rule."""

    reason: str


@dataclass(frozen=True)
class Resign:
    """A human seat gives the game up, at any stage and on either seat's turn (the
    service picks the seat from the token: `PlayService.resign`)."""

    seat: int


@dataclass(frozen=True)
class Abort:
    """A seat of an online game calls it off before both seats have moved."""

    seat: int


Command = PlaceLine | Advance | Explain | ClaimSeat | Abandon | UseHint | Resign | Abort
