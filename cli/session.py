"""A game of ``squares play`` in the terminal: typed commands (``x y``, ``a``, ``h``,
``q``), the prompt, and `Session`, which plays the token's seats through the service
layer (the curses UI of `cli.tui` and `cli.online` build on it)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import IO

import click

from service.domain.commands import Advance, PlaceLine, RuleViolation
from service.domain.events import Event
from service.domain.render import render
from service.domain.state import GameState
from service.services import HintsOff, MoveResult, Services

from .replay import describe, event_color

HELP = ("x y: draw the line at column x, row y | a or Enter: advance | h: hint (a hint "
        "makes this game unranked) | q: quit")
ASSISTED = "a hint was used: this game enters no high score table"
# At most 9 digits each (any field's coordinates have 2): int() refuses a number of
# over 4300 digits with a ValueError, and a typed line must never end the game with
# a traceback. Digits of any script ("١٢ ٣") are taken, as click takes them.
_LINE = re.compile(r"^\s*(-?\d{1,9})\s*[, ]\s*(-?\d{1,9})\s*$")


@dataclass(frozen=True)
class Place:
    x: int
    y: int


@dataclass(frozen=True)
class Simple:
    action: str  # advance | hint | quit | help


Input = Place | Simple


def parse_input(line: str) -> Input | None:
    """One typed line as a command; None if it is not one."""
    text = line.strip().lower()
    simple = {"": "advance", "a": "advance", "h": "hint", "q": "quit", "?": "help",
              "help": "help", "quit": "quit", "advance": "advance", "hint": "hint"}
    if text in simple:
        return Simple(simple[text])
    match = _LINE.match(text)
    if match:
        return Place(int(match.group(1)), int(match.group(2)))
    return None


def prompt_for(state: GameState) -> str:
    if state.stage == 1:
        what = "draw a line that forms a square, or advance"
    elif state.stage == 2:
        what = "advance" if state.stage2_line_placed else "draw one line"
    else:
        what = "advance to end your turn"
    return f"[stage {state.stage}: {what}; h hint, q quit] > "


class Session:
    """One player's game in the terminal, moved through the service layer with its
    token. This one plays every human seat the token moves (against the computer, or
    two humans on one screen); `cli.online.OnlineSession` plays one seat of an online
    game and waits for the other."""

    def __init__(self, services: Services, game_id: str, token: str, state: GameState,
                 stdin: IO[str]) -> None:
        self.services = services
        self.game_id = game_id
        self.token = token
        self.state = state
        self.stdin = stdin

    def readline(self) -> str:
        return self.stdin.readline()

    def read(self) -> str | None:
        click.echo(prompt_for(self.state), nl=False)
        line = self.readline()
        if line == "":  # end of input
            click.echo("")
            return None
        if not self.stdin.isatty():
            click.echo(line.rstrip("\n"))  # echo piped input so the transcript reads well
        return line

    def show(self) -> None:
        click.echo("")
        click.echo(render(self.state, color=True, axes=True))

    def waiting_for(self) -> str | None:
        """Whom this player waits for (``Waiting for <that>…``); None: they may move."""
        return None

    def wait(self, joined_only: bool = False) -> bool:
        """Until this player may move (`joined_only`: until every seat is taken) or
        the game is over; False if they quit."""
        return True

    def poll(self) -> list[Event]:
        """The events others stored since `state` (now applied to it)."""
        return []

    def result_lines(self) -> list[str]:
        return [f"your score: {self.state.scores[0]}"]

    def run(self) -> bool:
        """Play until the game is over (True) or the player quits (False)."""
        self.show()
        while not self.state.over:
            if self.waiting_for() is not None:
                if not self.wait():
                    return False
                continue
            line = self.read()
            command = Simple("quit") if line is None else parse_input(line)
            if command is None:
                click.echo(f"? {HELP}")
            elif command == Simple("quit"):
                return False
            elif command == Simple("help"):
                click.echo(HELP)
            elif command == Simple("hint"):
                self.hint()
            else:
                self.move(command)
        return True

    def hint(self) -> None:
        try:  # an online game's hints are its creator's choice, for the seat to move
            hint = self.services.play.hint(self.game_id, self.token)
        except (RuleViolation, HintsOff) as exc:
            click.echo(f"no hint: {exc.message}")
            return
        if hint.events:
            click.echo(ASSISTED)
        suggestion = hint.command
        if isinstance(suggestion, PlaceLine):
            click.echo(f"hint: draw {suggestion.x} {suggestion.y}")
        elif isinstance(suggestion, Advance):
            click.echo("hint: advance (a)")

    def move(self, command: Input) -> None:
        try:
            if isinstance(command, Place):
                result = self.services.play.place_line(self.game_id, self.token, command.x, command.y)
            else:
                result = self.services.play.advance(self.game_id, self.token)
        except RuleViolation as exc:
            click.echo(f"refused: {exc.message}")
            if exc.code == "game_abandoned":  # past its time: the loop ends here
                self.state = self.services.queries.get_state(self.game_id)
            return
        self.report(result)

    def report(self, result: MoveResult) -> None:
        self.state = result.state
        for stored in result.events:
            click.echo(click.style(f"  {describe(stored.event, self.state)}",
                                   fg=event_color(stored.event)))
        self.show()
