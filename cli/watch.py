"""``squares watch``: follow a game as it is played, its text board redrawn as its
events arrive.

The CLI works on the database, not over HTTP: every ``--interval`` seconds it asks
what is new since the version it shows (`Services.queries.follow`: the new events and the
state after them). On a terminal the screen is cleared before each board;
otherwise (a pipe, a file) each new board follows the last after a blank line.
Exits 0 once the game is over, printing the result; ``--once`` prints the current
board and exits at once.
"""

from __future__ import annotations

import sys
import time

import click

from service.domain.events import Event
from service.domain.render import render
from service.domain.state import GameState

from .context import AppContext, pass_app
from .replay import describe

CLEAR = "\x1b[H\x1b[2J"
MAX_INTERVAL = 3600.0


def result_text(state: GameState) -> str:
    """``result: Ali 12 : 10 Computer, Ali wins``."""
    first, second = state.seat_info(1).name, state.seat_info(2).name
    if state.abandoned is not None:
        outcome = "abandoned, no result"
    elif state.winner == 0:
        outcome = "a draw"
    else:
        outcome = f"{state.seat_info(state.winner or 1).name} wins"
    return f"result: {first} {state.scores[0]} : {state.scores[1]} {second}, {outcome}"


def _is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def show(game_id: str, state: GameState, latest: list[Event], *, clear: bool,
         first: bool) -> None:
    """One board: cleared screen on a terminal, else a blank line between boards."""
    if clear:
        click.echo(CLEAR, nl=False)
    elif not first:
        click.echo("")
    status = ("abandoned" if state.abandoned else "game over") if state.over else (
        f"round {state.round}, {state.seat_info(state.turn).name} to move, stage {state.stage}")
    click.echo(f"game {game_id} · version {state.version} · {status}")
    click.echo(render(state, color=True, axes=True))
    for event in latest[-5:]:
        click.echo(f"  {describe(event, state)}")
    sys.stdout.flush()


@click.command()
@click.argument("game_id", metavar="ID")
@click.option("--once", is_flag=True, help="Print the current board and exit.")
@click.option("--interval", type=click.FloatRange(0.05, MAX_INTERVAL), default=0.25,
              show_default=True, help="Seconds between looks at the database.")
@pass_app
def watch(app: AppContext, game_id: str, once: bool, interval: float) -> None:
    """Follow a game live: its board redrawn as moves are made (Ctrl-C stops)."""
    clear = _is_terminal() and not once
    with app.services() as services:
        state = services.queries.get_state(game_id)
        show(game_id, state, [], clear=clear, first=True)
        if once:
            return
        try:
            while not state.over:
                time.sleep(interval)
                followed = services.queries.follow(game_id, after=state.version)
                if followed.events:
                    state = followed.state
                    show(game_id, state, [s.event for s in followed.events], clear=clear,
                         first=False)
        except KeyboardInterrupt:
            click.echo("")
            raise click.exceptions.Exit(130) from None
    click.echo(result_text(state))
