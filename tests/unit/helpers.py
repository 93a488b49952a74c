"""Hand-built positions for the rule tests.

A position is a `GameCreated` whose ``initial_lines`` are chosen by the test
(every inner slot except the ``open`` ones), folded into a state. Commands are
then driven through `decide` and applied with `apply_all`, just as the service does.
"""

from __future__ import annotations

from collections.abc import Iterable

from service.domain.board import geometry
from service.domain.commands import Advance, Command, NewGame, PlaceLine
from service.domain.events import Event, GameCreated, LinePlaced, Point, Seat
from service.domain.fold import apply_all, fold
from service.domain.random_lines import RULES_EDITION
from service.domain.rules import decide, legal_actions
from service.domain.seeds import commitment
from service.domain.state import GameState
from squares_testing.play import new_game

SEATS = {
    "vs_computer": (Seat("Ada", "human"), Seat("Computer", "computer", "hard")),
    "two_players": (Seat("Ada", "human"), Seat("Bob", "human")),
    "computer_vs_computer": (
        Seat("Computer 1 (easy)", "computer", "easy"),
        Seat("Computer 2 (hard)", "computer", "hard"),
    ),
}


def created(
    open_slots: Iterable[Point] = (),
    size: tuple[int, int] = (7, 7),
    mode: str = "vs_computer",
    seed: int = 1,
    drawn: Iterable[Point] | None = None,
    rules_edition: int = RULES_EDITION,
) -> GameCreated:
    """A game whose initial lines are `drawn`, or else every inner slot but `open_slots`."""
    height, width = size
    g = geometry(height, width)
    if drawn is None:
        keep_open = set(open_slots)
        drawn = [p for p in map(g.xy, g.inner_slots) if p not in keep_open]
    difficulty = "none" if mode == "two_players" else "hard"
    return GameCreated(
        seed=None,  # ranked: `position` gives the state its secret seed
        seed_commitment=commitment(str(seed)),
        ranked=True,
        first_seat=1,
        hints=True,
        height=height,
        width=width,
        mode=mode,
        difficulty=difficulty,
        seats=SEATS[mode],
        initial_lines=tuple(sorted(drawn)),
        rules_edition=rules_edition,
    )


def position(open_slots: Iterable[Point] = (), **kwargs: object) -> tuple[GameState, list[Event]]:
    """The folded start state of `created(...)` (a ranked game, as its server knows it:
    with its secret seed) and its one-event stream."""
    events: list[Event] = [created(open_slots, **kwargs)]  # type: ignore[arg-type]
    state = fold(events)
    state.know_secret_seed(str(kwargs.get("seed", 1)))
    return state, events


class Game:
    """A state plus its stream, driven by commands for the seat whose turn it is."""

    def __init__(self, state: GameState, events: list[Event]) -> None:
        self.state = state
        self.events = list(events)

    @classmethod
    def at(cls, open_slots: Iterable[Point] = (), **kwargs: object) -> Game:
        return cls(*position(open_slots, **kwargs))

    def run(self, command: Command) -> list[Event]:
        decided = decide(self.state, command)
        self.state = apply_all(self.state, decided)
        self.events += decided
        return decided

    def line(self, x: int, y: int) -> list[Event]:
        return self.run(PlaceLine(self.state.turn, x, y))

    def advance(self) -> list[Event]:
        return self.run(Advance(self.state.turn))

    def to_stage(self, stage: int) -> None:
        """Advance (placing a stage-2 line if needed) until the current seat is in `stage`."""
        while self.state.stage != stage and not self.state.over:
            if self.state.stage == 2 and not self.state.stage2_line_placed:
                self.line(*legal_actions(self.state).lines[0])
            else:
                self.advance()


def placed(events: Iterable[Event]) -> list[LinePlaced]:
    return [e for e in events if isinstance(e, LinePlaced)]


def of_type(events: Iterable[Event], cls: type[Event]) -> list[Event]:
    return [e for e in events if isinstance(e, cls)]


def ranked_start(**kwargs: object) -> tuple[list[Event], GameState]:
    """A ranked game of Ada's on 9 x 11 with seed 21 (`kwargs` change any of it): its
    events and its state."""
    command = NewGame(**{"seed": 21, "player_name": "Ada", "height": 9, "width": 11,
                         "ranked": True, **kwargs})  # type: ignore[arg-type]
    return new_game(command)
