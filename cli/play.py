"""``squares play``: a whole game against the computer in the terminal.

Commands read from stdin (also piped): ``x y`` draws a line, ``a`` or an empty
line advances, ``h`` asks for a hint, ``q`` (or the end of input) quits and
leaves the game stored and unfinished. The game is stored through the service
layer like any other.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from typing import IO

import click

from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.render import render
from service.domain.rules import LEVELS, Advance, PlaceLine, RuleViolation
from service.domain.state import GameState
from service.services import MoveResult, Services

from .context import AppContext, pass_app
from .highscores import high_score_table
from .replay import describe, event_color

HELP = "x y: draw the line at column x, row y | a or Enter: advance | h: hint | q: quit"
_LINE = re.compile(r"^\s*(-?\d+)\s*[, ]\s*(-?\d+)\s*$")


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
    def __init__(self, services: Services, game_id: str, token: str, state: GameState,
                 stdin: IO[str]) -> None:
        self.services = services
        self.game_id = game_id
        self.token = token
        self.state = state
        self.stdin = stdin

    def read(self) -> str | None:
        click.echo(prompt_for(self.state), nl=False)
        line = self.stdin.readline()
        if line == "":  # end of input
            click.echo("")
            return None
        if not self.stdin.isatty():
            click.echo(line.rstrip("\n"))  # echo piped input so the transcript reads well
        return line

    def show(self) -> None:
        click.echo("")
        click.echo(render(self.state, color=True))

    def run(self) -> bool:
        """Play until the game is over (True) or the player quits (False)."""
        self.show()
        while not self.state.over:
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
        suggestion = self.services.hint(self.game_id)
        if isinstance(suggestion, PlaceLine):
            click.echo(f"hint: draw {suggestion.x} {suggestion.y}")
        elif isinstance(suggestion, Advance):
            click.echo("hint: advance (a)")

    def move(self, command: Input) -> None:
        try:
            if isinstance(command, Place):
                result = self.services.place_line(self.game_id, self.token, command.x, command.y)
            else:
                result = self.services.advance(self.game_id, self.token)
        except RuleViolation as exc:
            click.echo(f"refused: {exc.message}")
            return
        self.report(result)

    def report(self, result: MoveResult) -> None:
        self.state = result.state
        for stored in result.events:
            click.echo(click.style(f"  {describe(stored.event, self.state)}",
                                   fg=event_color(stored.event)))
        self.show()


def ask_name(stdin: IO[str]) -> str:
    if stdin.isatty():
        return str(click.prompt("Your name", default="Player"))
    return "Player"


@click.command()
@click.option("--name", default=None, help="Your name for the high score table.")
@click.option("--difficulty", type=click.Choice(LEVELS), default="moderate", show_default=True)
@click.option("--seed", type=int, default=None, help="Seed of the game (default random).")
@click.option("--height", type=int, default=DEFAULT_HEIGHT, show_default=True)
@click.option("--width", type=int, default=DEFAULT_WIDTH, show_default=True)
@pass_app
def play(app: AppContext, name: str | None, difficulty: str, seed: int | None, height: int,
         width: int) -> None:
    """Play a game against the computer in the terminal."""
    stdin = sys.stdin
    player = name if name is not None else ask_name(stdin)
    with app.services() as services:
        created = services.create_game(player_name=player, difficulty=difficulty, seed=seed,
                                       height=height, width=width)
        click.echo(f"game {created.game_id} ({difficulty}); {HELP}")
        session = Session(services, created.game_id, created.token, created.state, stdin)
        if not session.run():
            click.echo(f"game {created.game_id} saved, unfinished; "
                       f"see it with: squares games show {created.game_id}")
            return
        state = session.state
        click.echo(f"your score: {state.scores[0]}")
        click.echo("")
        click.echo(high_score_table(services.high_scores(10)))
