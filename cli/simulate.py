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

import secrets
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

import click

from service.domain import ai
from service.domain.ai.reference import ReferencePlayer
from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.commands import NewGame
from service.domain.events import Event
from service.domain.fold import apply_all, fold
from service.domain.players import play_turn
from service.domain.review import review_game
from service.domain.start import LEVELS, start_game
from service.domain.state import GameState
from service.services import Services

from .context import AppContext, pass_app
from .output import CliFailure, echo_json, table
from .tally import (
    GameResult,
    Setup,
    level_stats,
    luck_share,
    seat_advantage,
    seat_stats,
)

MODE = "computer_vs_computer"
PLAYER_NAME = "simulation"  # not used by the rules in this mode; the seats name themselves
# The reference player (issue 25) is no level: its seat is an expert seat in the game.
REFERENCE = "reference"
PLAYERS = (*LEVELS, REFERENCE)


def _level(player: str) -> str:
    return "expert" if player == REFERENCE else player


def new_game(setup: Setup, seed: int) -> NewGame:
    return NewGame(seed=seed, player_name=PLAYER_NAME, difficulty=_level(setup.level1),
                   mode=MODE, height=setup.height, width=setup.width,
                   second_level=_level(setup.level2))


def play_in_memory(setup: Setup, seed: int) -> tuple[GameState, list[Event]]:
    """A whole game with the pure domain: the events `Services` would store."""
    events = start_game(new_game(setup, seed))
    state = fold(events)
    players = {seat: ReferencePlayer() if name == REFERENCE else ai.strategy_for(name)
               for seat, name in ((1, setup.level1), (2, setup.level2))}
    while not state.over:
        turn = play_turn(state, players[state.turn])
        events += turn
        state = apply_all(state, turn)
    return state, events


def play_stored(services: Services, setup: Setup, seed: int) -> tuple[GameState, str]:
    """A whole game stored through the service layer, turn by turn."""
    created = services.play.create_game(
        player_name=PLAYER_NAME, difficulty=setup.level1, mode=MODE, seed=seed,
        height=setup.height, width=setup.width, second_level=setup.level2,
    )
    state = created.state
    while not state.over:
        state = services.play.play_computer_turn(created.game_id).state
    return state, created.game_id


def run_game(setup: Setup, seed: int, services: Services | None = None,
             luck: bool = False) -> GameResult:
    """One game, stored through `services` or in memory; with `luck`, reviewed."""
    started = time.perf_counter()
    if services is not None:
        state, game_id = play_stored(services, setup, seed)
    else:
        state, events = play_in_memory(setup, seed)
        game_id = None
    seconds = time.perf_counter() - started
    lucky = None
    if luck and services is None:
        first, second = review_game(events).seats
        lucky = (first.luck, second.luck)
    return GameResult(seed, (setup.level1, setup.level2), game_id,
                      (state.scores[0], state.scores[1]),
                      (state.squares[0], state.squares[1]), state.winner or 0, seconds,
                      lucky)


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
    share = luck_share(results)
    if share is not None:
        click.echo(f"luck: the random start and pieces (the review's luck per seat) explain "
                   f"{100 * share.r_squared:.1f}% of the variance of the margin over "
                   f"{share.games} games ({share.slope:+.2f} points of margin per point of "
                   f"luck; mean |margin| {share.mean_abs_margin:.1f}, mean |luck difference| "
                   f"{share.mean_abs_luck:.1f})")


@click.command()
@click.option("--games", "count", type=click.IntRange(1, 100_000), default=10,
              show_default=True, help="How many games.")
@click.option("--seat1", type=click.Choice(PLAYERS), default="moderate", show_default=True,
              help="A level, or the reference player (in memory only; issue 25).")
@click.option("--seat2", type=click.Choice(PLAYERS), default="moderate", show_default=True)
@click.option("--seed", type=int, default=None,
              help="Seed of the first game (game i uses SEED + i); default random.")
@click.option("--height", type=int, default=DEFAULT_HEIGHT, show_default=True)
@click.option("--width", type=int, default=DEFAULT_WIDTH, show_default=True)
@click.option("--swap/--no-swap", default=None,
              help="Play each seed twice with the seats swapped (default when the levels differ).")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes for in-memory games.")
@click.option("--store", is_flag=True, help="Store the games (ordinary computer_vs_computer games).")
@click.option("--luck", is_flag=True,
              help="Review every game (in memory) and report how much luck explains.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@pass_app
def simulate(app: AppContext, count: int, seat1: str, seat2: str, seed: int | None,
             height: int, width: int, swap: bool | None, jobs: int, store: bool, luck: bool,
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
        if jobs > 1 or luck or REFERENCE in (seat1, seat2):
            raise CliFailure("--jobs, --luck and the reference player need in-memory games "
                             "(no --store)", exit_code=2)
        with app.services() as services:
            results = _run_all(plan, services)
    elif jobs > 1:
        results = _run_parallel(plan, jobs, luck)
    else:
        results = _run_all(plan, luck=luck)
    seconds = time.perf_counter() - started
    if as_json:
        echo_json({"setup": setup, "swapped": swapped, "seats": seat_stats(setup, results),
                   "levels": level_stats(setup, results),
                   "seat1_advantage": seat_advantage(results), "luck": luck_share(results),
                   "games": results, "stored": store})
    else:
        report(setup, results, store, swapped, seconds)


def _run_all(plan: list[tuple[Setup, int]], services: Services | None = None,
             luck: bool = False) -> list[GameResult]:
    results: list[GameResult] = []
    with click.progressbar(plan, label="simulating", file=sys.stderr) as bar:
        for setup, seed in bar:
            results.append(run_game(setup, seed, services, luck))
    return results


def _play_one(game: tuple[Setup, int, bool]) -> GameResult:
    setup, seed, luck = game
    return run_game(setup, seed, luck=luck)


def _run_parallel(plan: list[tuple[Setup, int]], jobs: int, luck: bool) -> list[GameResult]:
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        done: Iterator[GameResult] = pool.map(
            _play_one, [(setup, seed, luck) for setup, seed in plan], chunksize=1)
        with click.progressbar(done, length=len(plan), label="simulating",
                               file=sys.stderr) as bar:
            return list(bar)
