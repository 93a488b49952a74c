"""``squares simulate``: computer against computer (RULES M3), in memory with the
pure domain, or stored as ordinary games with ``--store``."""

from __future__ import annotations

import secrets
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import click

from service.domain import ai
from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.players import play_turn
from service.domain.rules import LEVELS, NewGame, start_game
from service.domain.state import GameState, apply_all, fold
from service.services import Services

from .context import AppContext, pass_app
from .output import echo_json, table

MODE = "computer_vs_computer"
PLAYER_NAME = "simulation"  # not used by the rules in this mode; the seats name themselves


@dataclass(frozen=True)
class Setup:
    level1: str
    level2: str
    height: int
    width: int


@dataclass(frozen=True)
class GameResult:
    seed: int
    game_id: str | None
    scores: tuple[int, int]
    squares: tuple[int, int]
    winner: int  # 0: draw
    seconds: float


@dataclass(frozen=True)
class SeatStats:
    seat: int
    level: str
    wins: int
    draws: int
    losses: int
    average_score: float
    average_squares: float


def new_game(setup: Setup, seed: int) -> NewGame:
    return NewGame(seed=seed, player_name=PLAYER_NAME, difficulty=setup.level1, mode=MODE,
                   height=setup.height, width=setup.width, second_level=setup.level2)


def play_in_memory(setup: Setup, seed: int) -> tuple[GameState, None]:
    """A whole game with the pure domain: the events `Services` would store."""
    state = fold(start_game(new_game(setup, seed)))
    while not state.over:
        level = state.seat_info(state.turn).level or state.game.difficulty
        state = apply_all(state, play_turn(state, ai.strategy_for(level)))
    return state, None


def play_stored(services: Services, setup: Setup, seed: int) -> tuple[GameState, str]:
    """A whole game stored through the service layer, turn by turn."""
    created = services.create_game(
        player_name=PLAYER_NAME, difficulty=setup.level1, mode=MODE, seed=seed,
        height=setup.height, width=setup.width, second_level=setup.level2,
    )
    state = created.state
    while not state.over:
        state = services.play_computer_turn(created.game_id).state
    return state, created.game_id


def run_game(player: Callable[[Setup, int], tuple[GameState, str | None]], setup: Setup,
             seed: int) -> GameResult:
    started = time.perf_counter()
    state, game_id = player(setup, seed)
    seconds = time.perf_counter() - started
    return GameResult(seed, game_id, (state.scores[0], state.scores[1]),
                      (state.squares[0], state.squares[1]), state.winner or 0, seconds)


def seat_stats(setup: Setup, results: list[GameResult]) -> list[SeatStats]:
    n = max(len(results), 1)
    stats = []
    for seat, level in ((1, setup.level1), (2, setup.level2)):
        i = seat - 1
        stats.append(SeatStats(
            seat=seat,
            level=level,
            wins=sum(r.winner == seat for r in results),
            draws=sum(r.winner == 0 for r in results),
            losses=sum(r.winner not in (0, seat) for r in results),
            average_score=round(sum(r.scores[i] for r in results) / n, 2),
            average_squares=round(sum(r.squares[i] for r in results) / n, 2),
        ))
    return stats


def seeds_for(games: int, seed: int | None) -> list[int]:
    if seed is None:
        return [secrets.randbelow(2**31) for _ in range(games)]
    return [seed + i for i in range(games)]


def report(setup: Setup, results: list[GameResult], stored: bool) -> None:
    stats = seat_stats(setup, results)
    click.echo(table(
        ("seat", "level", "wins", "draws", "losses", "avg score", "avg squares"),
        [(s.seat, s.level, s.wins, s.draws, s.losses, f"{s.average_score:.2f}",
          f"{s.average_squares:.2f}") for s in stats],
        align_right=(2, 3, 4, 5, 6),
    ))
    total = sum(r.seconds for r in results)
    per_game = total / len(results) if results else 0.0
    click.echo(f"{len(results)} games on {setup.height} x {setup.width} in {total:.2f} s "
               f"({per_game:.3f} s per game)" + (", stored" if stored else ""))


@click.command()
@click.option("--games", "count", type=click.IntRange(1, 100_000), default=10,
              show_default=True, help="How many games.")
@click.option("--seat1", type=click.Choice(LEVELS), default="moderate", show_default=True)
@click.option("--seat2", type=click.Choice(LEVELS), default="moderate", show_default=True)
@click.option("--seed", type=int, default=None,
              help="Seed of the first game (game i uses SEED + i); default random.")
@click.option("--height", type=int, default=DEFAULT_HEIGHT, show_default=True)
@click.option("--width", type=int, default=DEFAULT_WIDTH, show_default=True)
@click.option("--store", is_flag=True, help="Store the games (ordinary computer_vs_computer games).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def simulate(app: AppContext, count: int, seat1: str, seat2: str, seed: int | None,
             height: int, width: int, store: bool, as_json: bool) -> None:
    """Play computer against computer and compare the two levels."""
    setup = Setup(seat1, seat2, height, width)
    seeds = seeds_for(count, seed)
    if store:
        with app.services() as services:
            results = _run_all(lambda s, seed: play_stored(services, s, seed), setup, seeds)
    else:
        results = _run_all(play_in_memory, setup, seeds)
    if as_json:
        echo_json({"setup": setup, "seats": seat_stats(setup, results), "games": results,
                   "stored": store})
    else:
        report(setup, results, store)


def _run_all(player: Callable[[Setup, int], tuple[GameState, str | None]], setup: Setup,
             seeds: list[int]) -> list[GameResult]:
    results: list[GameResult] = []
    with click.progressbar(seeds, label="simulating",
                           file=sys.stderr) as bar:
        for seed in bar:
            results.append(run_game(player, setup, seed))
    return results
