"""``squares simulate``: computer against computer (RULES M3), in memory with the
pure domain, or stored as ordinary games with ``--store``.

When the two levels differ, each seed is played twice with the seats swapped
(``--no-swap`` turns that off), so the seat that moves first does not decide the
comparison. Per level it reports wins, draws, losses, the win rate with a 95 %
Wilson confidence interval (a draw counts as half a win), the average score
margin, and separately how much seat 1 wins whatever its level. ``--jobs N``
plays the in-memory games on N processes; the results do not depend on N.
"""

from __future__ import annotations

import math
import secrets
import sys
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import click

from service.domain import ai
from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.commands import NewGame
from service.domain.fold import apply_all, fold
from service.domain.players import play_turn
from service.domain.start import LEVELS, start_game
from service.domain.state import GameState
from service.services import Services

from .context import AppContext, pass_app
from .output import CliFailure, echo_json, table

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
    levels: tuple[str, str]  # seat 1, seat 2
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
    return GameResult(seed, (setup.level1, setup.level2), game_id,
                      (state.scores[0], state.scores[1]),
                      (state.squares[0], state.squares[1]), state.winner or 0, seconds)


@dataclass(frozen=True)
class LevelStats:
    level: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float  # (wins + draws / 2) / games
    ci_low: float  # 95 % Wilson interval of the win rate
    ci_high: float
    average_margin: float  # own score minus the opponent's, per game


@dataclass(frozen=True)
class SeatAdvantage:
    games: int
    seat1_wins: int
    draws: int
    seat1_rate: float  # (seat-1 wins + draws / 2) / games
    ci_low: float
    ci_high: float


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)
    return max(0.0, low), min(1.0, high)


def level_stats(setup: Setup, results: list[GameResult]) -> list[LevelStats]:
    """Per level (each level of the setup), over every game, whichever its seat."""
    stats = []
    for level in dict.fromkeys((setup.level1, setup.level2)):
        wins = draws = losses = 0
        margin = 0
        games = 0
        for r in results:
            for i in (0, 1):
                if r.levels[i] != level or (i == 1 and r.levels[0] == level):
                    continue  # a game between equal levels counts once, for seat 1
                games += 1
                margin += r.scores[i] - r.scores[1 - i]
                if r.winner == 0:
                    draws += 1
                elif r.winner == i + 1:
                    wins += 1
                else:
                    losses += 1
        rate = (wins + draws / 2) / games if games else 0.0
        low, high = wilson(wins + draws / 2, games)
        stats.append(LevelStats(level, games, wins, draws, losses, round(rate, 4),
                                round(low, 4), round(high, 4),
                                round(margin / games, 2) if games else 0.0))
    return stats


def seat_advantage(results: list[GameResult]) -> SeatAdvantage:
    n = len(results)
    wins = sum(r.winner == 1 for r in results)
    draws = sum(r.winner == 0 for r in results)
    low, high = wilson(wins + draws / 2, n)
    rate = (wins + draws / 2) / n if n else 0.0
    return SeatAdvantage(n, wins, draws, round(rate, 4), round(low, 4), round(high, 4))


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


def seat_label(setup: Setup, seat: int, swapped: bool) -> str:
    level = setup.level1 if seat == 1 else setup.level2
    return f"{setup.level1}/{setup.level2}" if swapped else level


def seeds_for(games: int, seed: int | None) -> list[int]:
    if seed is None:
        return [secrets.randbelow(2**31) for _ in range(games)]
    return [seed + i for i in range(games)]


def report(setup: Setup, results: list[GameResult], stored: bool, swapped: bool,
           seconds: float) -> None:
    stats = seat_stats(setup, results)
    click.echo(table(
        ("seat", "level", "wins", "draws", "losses", "avg score", "avg squares"),
        [(s.seat, seat_label(setup, s.seat, swapped), s.wins, s.draws, s.losses,
          f"{s.average_score:.2f}", f"{s.average_squares:.2f}") for s in stats],
        align_right=(2, 3, 4, 5, 6),
    ))
    total = sum(r.seconds for r in results)
    per_game = total / len(results) if results else 0.0
    click.echo(f"{len(results)} games on {setup.height} x {setup.width} in {seconds:.2f} s "
               f"({per_game:.3f} s per game)" + (", stored" if stored else "")
               + (", each seed twice with the seats swapped" if swapped else ""))
    click.echo("")
    click.echo(table(
        ("level", "games", "wins", "draws", "losses", "win rate", "95% CI", "avg margin"),
        [(s.level, s.games, s.wins, s.draws, s.losses, f"{100 * s.win_rate:.1f}%",
          f"{100 * s.ci_low:.1f}-{100 * s.ci_high:.1f}%", f"{s.average_margin:+.2f}")
         for s in level_stats(setup, results)],
        align_right=(1, 2, 3, 4, 5, 6, 7),
    ))
    adv = seat_advantage(results)
    click.echo(f"seat 1 advantage: seat 1 won {adv.seat1_wins} and drew {adv.draws} of "
               f"{adv.games} games: {100 * adv.seat1_rate:.1f}% "
               f"(95% CI {100 * adv.ci_low:.1f}-{100 * adv.ci_high:.1f}%)")


@click.command()
@click.option("--games", "count", type=click.IntRange(1, 100_000), default=10,
              show_default=True, help="How many games.")
@click.option("--seat1", type=click.Choice(LEVELS), default="moderate", show_default=True)
@click.option("--seat2", type=click.Choice(LEVELS), default="moderate", show_default=True)
@click.option("--seed", type=int, default=None,
              help="Seed of the first game (game i uses SEED + i); default random.")
@click.option("--height", type=int, default=DEFAULT_HEIGHT, show_default=True)
@click.option("--width", type=int, default=DEFAULT_WIDTH, show_default=True)
@click.option("--swap/--no-swap", default=None,
              help="Play each seed twice with the seats swapped (default when the levels differ).")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes for in-memory games.")
@click.option("--store", is_flag=True, help="Store the games (ordinary computer_vs_computer games).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def simulate(app: AppContext, count: int, seat1: str, seat2: str, seed: int | None,
             height: int, width: int, swap: bool | None, jobs: int, store: bool,
             as_json: bool) -> None:
    """Play computer against computer and compare the two levels.

    --games counts seeds: with the seats swapped each seed is played twice.
    """
    setup = Setup(seat1, seat2, height, width)
    swapped = seat1 != seat2 if swap is None else swap
    plan = [(setup, s) for s in seeds_for(count, seed)]
    if swapped:
        other = Setup(seat2, seat1, height, width)
        plan = [game for _, s in plan for game in ((setup, s), (other, s))]
    started = time.perf_counter()
    if store:
        if jobs > 1:
            raise CliFailure("--jobs needs in-memory games (no --store)", exit_code=2)
        with app.services() as services:
            results = _run_all(lambda s, seed: play_stored(services, s, seed), plan)
    elif jobs > 1:
        results = _run_parallel(plan, jobs)
    else:
        results = _run_all(play_in_memory, plan)
    seconds = time.perf_counter() - started
    if as_json:
        echo_json({"setup": setup, "swapped": swapped, "seats": seat_stats(setup, results),
                   "levels": level_stats(setup, results),
                   "seat1_advantage": seat_advantage(results), "games": results,
                   "stored": store})
    else:
        report(setup, results, store, swapped, seconds)


def _run_all(player: Callable[[Setup, int], tuple[GameState, str | None]],
             plan: list[tuple[Setup, int]]) -> list[GameResult]:
    results: list[GameResult] = []
    with click.progressbar(plan, label="simulating", file=sys.stderr) as bar:
        for setup, seed in bar:
            results.append(run_game(player, setup, seed))
    return results


def _play_one(game: tuple[Setup, int]) -> GameResult:
    return run_game(play_in_memory, *game)


def _run_parallel(plan: list[tuple[Setup, int]], jobs: int) -> list[GameResult]:
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        done: Iterator[GameResult] = pool.map(_play_one, plan, chunksize=1)
        with click.progressbar(done, length=len(plan), label="simulating",
                               file=sys.stderr) as bar:
            return list(bar)
