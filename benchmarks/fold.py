"""Fold speed (issue 2): play seeded games to the end, then time `fold`.

Prints the fold rate in events per second and the median time to fold one whole
default game. Targets on the 2-core dev machine: >= 150,000 events/s and a whole
default game in < 3 ms. Figures only; nothing here asserts a timing.

    .venv/bin/python benchmarks/fold.py [--games 200] [--repeat 5] [--json PATH]
    .venv/bin/python benchmarks/fold.py --quick      # 20 games, 2 passes: seconds
"""

from __future__ import annotations

import argparse
import statistics
import time

from service.domain.commands import NewGame
from service.domain.events import Event
from service.domain.fold import fold
from squares_testing import results as _results
from squares_testing.greedy import Greedy
from squares_testing.play import play_out


def play_game(seed: int) -> list[Event]:
    command = NewGame(seed=seed, player_name="bench", mode="computer_vs_computer")
    return play_out(command, Greedy())[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=None, help="seeded games (200)")
    parser.add_argument("--repeat", type=int, default=None,
                        help="fold every game this often (5)")
    _results.add_run_options(parser, quick="seconds: 20 games, 2 passes")
    args = parser.parse_args()
    _results.fill_defaults(args, games=(200, 20), repeat=(5, 2))

    started = time.perf_counter()
    games = [play_game(seed) for seed in range(args.games)]
    played = time.perf_counter() - started
    total_events = sum(len(g) for g in games)
    print(f"played {args.games} games ({total_events} events) in {played:.1f} s; "
          f"median {statistics.median(len(g) for g in games):.0f} events per game")

    per_game: list[float] = []
    best_pass = float("inf")
    for _ in range(args.repeat):
        pass_started = time.perf_counter()
        for events in games:
            t0 = time.perf_counter()
            fold(events)
            per_game.append(time.perf_counter() - t0)
        best_pass = min(best_pass, time.perf_counter() - pass_started)

    rate = total_events / best_pass
    median_ms = statistics.median(per_game) * 1000
    print(f"fold rate: {rate:,.0f} events/s (best of {args.repeat} passes; target >= 150,000)")
    print(f"median fold of one whole game: {median_ms:.3f} ms (target < 3 ms)")
    _results.save("fold", {
        "games": _results.figure(args.games, "games"),
        "events per game, median": _results.figure(
            statistics.median(len(g) for g in games), "events"),
        "fold rate": _results.figure(rate, "events/s", ">= 150,000"),
        "median fold of one whole game": _results.figure(median_ms, "ms", "< 3 ms"),
    }, args)


if __name__ == "__main__":
    main()
