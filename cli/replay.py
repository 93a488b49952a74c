"""``squares replay``: a game's board at any step (step k = the fold of its first k
events, RULES V2), or every step in turn."""

from __future__ import annotations

import math
import time
from typing import Any

import click

from service.domain import events as ev
from service.domain.fold import apply_in_place, fold
from service.domain.render import render
from service.domain.state import GameState
from service.errors import StepOutOfRange

from .context import AppContext, pass_app

SEAT_COLORS = {1: "blue", 2: "red"}
SYSTEM_COLOR = "green"
MAX_DELAY = 3600.0


class Seconds(click.FloatRange):
    """A number of seconds in 0..`MAX_DELAY` (``nan`` is not one; ``inf`` is too long)."""

    name = "seconds"

    def __init__(self) -> None:
        super().__init__(0, MAX_DELAY)

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        return seconds


def _points(points: tuple[tuple[int, ...], ...]) -> str:
    return " ".join(f"({p[0]}, {p[1]})" for p in points)


def describe(event: ev.Event, state: GameState) -> str:
    """One line about `event` (`state` gives the seat names)."""
    def name(seat: int) -> str:
        return state.seat_info(seat).name

    if isinstance(event, ev.GameCreated):
        seed = (f"seed committed ({event.seed_commitment[:12]}...)" if event.seed is None
                else f"seed {event.seed}")
        kind = "ranked" if event.ranked else "practice"
        return (f"game created: {event.height} x {event.width}, {event.mode} "
                f"({event.difficulty}), {kind}, {seed}, "
                f"{len(event.initial_lines)} random lines")
    if isinstance(event, ev.LinePlaced):
        text = f"{name(event.seat)} draws ({event.x}, {event.y}) in stage {event.stage}"
        if event.squares:
            text += ", forming " + " ".join(f"({x}, {y}) {o}" for x, y, o in event.squares)
        return text + (f", penalty -{event.penalty}" if event.penalty else "")
    if isinstance(event, ev.StageAdvanced):
        if event.stage == 1:
            return f"{name(event.seat)} ends the turn; round {event.round}, {name(event.turn)} to move"
        why = " (an irregular square)" if event.reason == "irregular_square" else ""
        return f"{name(event.seat)} advances to stage {event.stage}{why}"
    if isinstance(event, ev.PieceInserted):
        if event.skipped:
            return f"random {event.size}-line piece skipped after {event.tries} tries"
        return (f"random {event.size}-line piece at {_points(event.lines)} "
                f"after {event.tries} tries")
    if isinstance(event, ev.MoveExplained):
        who = name(event.seat)
        who = who if event.level in who else f"{who} ({event.level})"
        return (f"{who} plans stage {event.stage}: "
                f"BestPoint : {event.best_point}  BestX : {event.best_x}  "
                f"BestY : {event.best_y}  "
                f"BestDirection : {', '.join(map(str, event.best_direction))}")
    if isinstance(event, ev.SeatClaimed):
        return f"{event.name} joins the game as seat {event.seat}"
    if isinstance(event, ev.HintUsed):
        return f"{name(event.seat)} asks for a hint: the game is assisted, unranked"
    if isinstance(event, ev.GameOver):
        outcome = "draw" if event.winner == 0 else f"{name(event.winner)} wins"
        return f"game over: {event.scores[0]}:{event.scores[1]}, {outcome}"
    if isinstance(event, ev.HighScoresEntered):
        entries = ", ".join(f"{e.name} {e.score}" for e in event.entries)
        return f"high scores entered: {entries}"
    if isinstance(event, ev.SeedRevealed):
        return f"seed revealed: {event.seed} (it matches the commitment)"
    if isinstance(event, ev.GameAbandoned):
        why = "the invitation expired" if event.reason == "invite_expired" else "idle"
        return f"game abandoned ({why}), no result"
    return event.TYPE


def event_color(event: ev.Event) -> str:
    seat = getattr(event, "seat", None)
    if isinstance(event, ev.LinePlaced | ev.StageAdvanced | ev.MoveExplained) and seat in SEAT_COLORS:
        return SEAT_COLORS[seat]
    return SYSTEM_COLOR


def show_step(state: GameState, event: ev.Event, step: int, total: int) -> None:
    click.echo(f"step {step}/{total}")
    click.echo(render(state, color=True))
    click.echo(click.style(f"event: {describe(event, state)}", fg=event_color(event)))


@click.command()
@click.argument("game_id", metavar="ID")
@click.option("--step", type=int, default=None,
              help="Show the board after the first K events (1..N; default: N, the end).")
@click.option("--play", "play_all", is_flag=True, help="Show every step from 1 to the end.")
@click.option("--delay", type=Seconds(), default=0.5, show_default=True,
              help=f"Seconds between steps with --play (at most {MAX_DELAY:g}).")
@pass_app
def replay(app: AppContext, game_id: str, step: int | None, play_all: bool,
           delay: float) -> None:
    """Replay a stored game in the assignment's text style."""
    with app.services() as services:
        stored = services.queries.events_of(game_id)
    events = [s.event for s in stored]
    total = len(events)
    if play_all:
        _play(events, step or 1, delay)
        return
    k = total if step is None else step
    if not 1 <= k <= total:
        raise StepOutOfRange(f"step {k} is outside 1..{total}", version=total)
    show_step(fold(events[:k]), events[k - 1], k, total)


def _play(events: list[ev.Event], start: int, delay: float) -> None:
    total = len(events)
    if not 1 <= start <= total:
        raise StepOutOfRange(f"step {start} is outside 1..{total}", version=total)
    state = fold(events[:start])
    for k in range(start, total + 1):
        if k > start:
            apply_in_place(state, events[k - 1])
            if delay:
                time.sleep(delay)
            click.echo("")
        show_step(state, events[k - 1], k, total)
