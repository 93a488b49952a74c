"""Computer player speed (issue 4): time whole computer turns on seeded positions.

Positions are the states at the start of a computer stage 1 in seeded
computer-vs-computer games (moderate vs moderate, default 19 x 33 field). For
each level it prints the median and max time of a whole turn (`play_turn`:
explanation, stage 1, stage 2, random pieces), the random walks simulated per
second of stage-1 search (expert: lines drawn by its exhaustive search per
second) and, at the
end, the peak memory of the process. Targets on the 2-core dev machine: hard
median < 150 ms and max < 1 s, expert median < 300 ms, peak memory < 150 MB.
Figures only; nothing here asserts a timing.

    .venv/bin/python benchmarks/ai.py [--positions 200] [--levels easy,hard]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from service.domain.ai import strategy_for  # noqa: E402
from service.domain.players import play_turn  # noqa: E402
from service.domain.rules import LEVELS, NewGame, start_game  # noqa: E402
from service.domain.state import GameState, apply_all, fold  # noqa: E402


def positions(count: int) -> list[GameState]:
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        command = NewGame(seed=seed, player_name="bench", difficulty="moderate",
                          mode="computer_vs_computer")
        state = fold(start_game(command))
        while not state.over and len(found) < count:
            found.append(state)
            state = apply_all(state, play_turn(state, strategy_for("moderate")))
        seed += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--levels", default=",".join(LEVELS))
    args = parser.parse_args()

    started = time.perf_counter()
    states = positions(args.positions)
    print(f"{len(states)} positions (start of a computer stage 1) in "
          f"{time.perf_counter() - started:.1f} s")
    print(f"{'level':<9} {'median ms':>10} {'max ms':>8} {'total s':>8} "
          f"{'A1 trials':>10} {'walks run':>10} {'walks/s':>9} {'dfs lines/s':>12}")
    for level in args.levels.split(","):
        times: list[float] = []
        for state in states:
            strategy = strategy_for(level)
            t0 = time.perf_counter()
            play_turn(state, strategy)
            times.append(time.perf_counter() - t0)
        # The rates count the stage-1 search only (no stage 2, no rules engine).
        walks = nodes = trials = 0
        searching = 0.0
        for state in states:
            strategy = strategy_for(level)
            t0 = time.perf_counter()
            trials += strategy.stage1(state).trials
            searching += time.perf_counter() - t0
            walks += strategy.stats.walks
            nodes += strategy.stats.nodes
        print(f"{level:<9} {statistics.median(times) * 1e3:>10.1f} {max(times) * 1e3:>8.1f} "
              f"{sum(times):>8.2f} {trials:>10} {walks:>10} {walks / searching:>9.0f} "
              f"{nodes / searching:>12.0f}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory (ru_maxrss): {peak_mb:.1f} MB")


if __name__ == "__main__":
    main()
