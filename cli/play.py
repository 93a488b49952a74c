"""``squares play``: a whole game against the computer in the terminal.

In a terminal it is the curses UI of ``cli/tui.py``: the arrow keys move a cursor
over the line slots, space draws, Enter advances, ``h`` hints, ``q`` quits. When
standard input is not a terminal (or with ``--plain``) commands are read as lines:
``x y`` draws a line, ``a`` or an empty line advances, ``h`` asks for a hint, ``q``
(or the end of input) quits. Either way a quit game stays stored, unfinished, and
``squares play --resume ID`` goes on with it: the token comes from ``--token`` or
from the file where the CLI keeps the tokens of the games it created
(``$SQUARES_TOKENS_FILE``, else ``$XDG_DATA_HOME/squares/tokens.json``, else
``~/.local/share/squares/tokens.json``; readable by its owner only). The game is
stored through the service layer like any other.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import click

from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.render import render
from service.domain.rules import LEVELS, Advance, PlaceLine, RuleViolation
from service.domain.state import GameState
from service.errors import GameNotFound, ServiceError
from service.services import MoveResult, Services

from .context import AppContext, pass_app
from .highscores import high_score_table
from .output import CliFailure
from .replay import describe, event_color

TOKENS_FILE_VAR = "SQUARES_TOKENS_FILE"


def tokens_file() -> Path:
    """Where the CLI keeps the tokens of the games it created."""
    explicit = os.environ.get(TOKENS_FILE_VAR)
    if explicit:
        return Path(explicit).expanduser()
    data_home = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data_home).expanduser() / "squares" / "tokens.json"


def load_tokens(path: Path | None = None) -> dict[str, str]:
    path = path or tokens_file()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}


def save_token(game_id: str, token: str, path: Path | None = None) -> Path | None:
    """Add a game's token to the file (created 0600); None if it cannot be written
    (the game is still playable now; resuming it later then needs ``--token``)."""
    path = path or tokens_file()
    tokens = load_tokens(path)
    tokens[game_id] = token
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(tokens, out, indent=1, sort_keys=True)
        os.replace(tmp, path)
    except OSError:
        return None
    return path

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
        click.echo(render(self.state, color=True, axes=True))

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


def open_session(services: Services, resume: str, token: str | None,
                 stdin: IO[str]) -> Session:
    """A stored game to go on with: its token from `token` or the tokens file."""
    token = token or load_tokens().get(resume)
    if not token:
        raise CliFailure(f"no token for game {resume} in {tokens_file()}: pass --token",
                         exit_code=2)
    try:
        services.check_token(resume, token)
        _, state = services.get_game(resume)
    except GameNotFound as exc:
        raise CliFailure(f"no game {resume}") from exc
    except ServiceError as exc:
        raise CliFailure(f"game {resume}: {exc}") from exc
    if state.game.mode != "vs_computer" and state.seat_info(state.turn).kind == "computer":
        raise CliFailure(f"game {resume} is a {state.game.mode} game")
    return Session(services, resume, token, state, stdin)


def use_tui(stdin: IO[str], plain: bool) -> bool:
    if plain or not (stdin.isatty() and sys.stdout.isatty()):
        return False
    return os.environ.get("TERM", "dumb") not in ("", "dumb")


@click.command()
@click.option("--name", default=None, help="Your name for the high score table.")
@click.option("--difficulty", type=click.Choice(LEVELS), default="moderate", show_default=True)
@click.option("--seed", type=int, default=None, help="Seed of the game (default random).")
@click.option("--height", type=int, default=DEFAULT_HEIGHT, show_default=True)
@click.option("--width", type=int, default=DEFAULT_WIDTH, show_default=True)
@click.option("--resume", "resume", metavar="ID", default=None,
              help="Go on with a stored, unfinished game instead of starting one.")
@click.option("--token", default=None,
              help="The game's token for --resume (default: the one this CLI kept).")
@click.option("--plain", is_flag=True,
              help="Typed commands (x y, a, h, q) even in a terminal, instead of the cursor UI.")
@pass_app
def play(app: AppContext, name: str | None, difficulty: str, seed: int | None, height: int,
         width: int, resume: str | None, token: str | None, plain: bool) -> None:
    """Play a game against the computer in the terminal (arrow keys, space, Enter)."""
    stdin = sys.stdin
    with app.services() as services:
        if resume is not None:
            session = open_session(services, resume, token, stdin)
            click.echo(f"game {resume} resumed; round {session.state.round}, "
                       f"stage {session.state.stage}")
        else:
            player = name if name is not None else ask_name(stdin)
            created = services.create_game(player_name=player, difficulty=difficulty,
                                           seed=seed, height=height, width=width)
            kept = save_token(created.game_id, created.token)
            click.echo(f"game {created.game_id} ({difficulty}); {HELP}")
            if kept is None:
                click.echo(f"(the token could not be kept in {tokens_file()}: "
                           f"to resume later pass --token {created.token})")
            session = Session(services, created.game_id, created.token, created.state, stdin)
        if use_tui(stdin, plain):
            from .tui import run_tui

            over = run_tui(session)
            if over:
                click.echo(render(session.state, color=True, axes=True))
        else:
            over = session.run()
        if not over:
            click.echo(f"game {session.game_id} saved, unfinished; "
                       f"go on with: squares play --resume {session.game_id}")
            return
        state = session.state
        click.echo(f"your score: {state.scores[0]}")
        click.echo("")
        click.echo(high_score_table(services.high_scores(10)))
