"""Computer player speed (issues 4 and 16): time whole computer turns.

Positions are the states at the start of a computer stage 1 in seeded
computer-vs-computer games (moderate vs moderate), on the default 19 x 33 field
and on the largest, 41 x 81; then the crafted worst positions of
`squares_testing.worst` (long corridors, dominoes, boxes with three sides,
dense fields) on both sizes. For each level it prints the median and max CPU
time of a whole turn (`play_turn`: explanation, stage 1, stage 2, random
pieces) and of its slowest single decision (stage-1 plan or stage-2 line),
the random walks simulated per second of stage-1 search (expert: lines drawn
by its exhaustive search per second) and, at the end, the peak memory.
Budget (issue 16): no decision over 250 ms; expert turn on 19 x 33 median
<= 50 ms, max <= 250 ms. Figures only; nothing here asserts a timing.

    .venv/bin/python benchmarks/ai.py [--positions 200] [--levels easy,hard] [--sizes 19x33]
    .venv/bin/python benchmarks/ai.py --quick   # 5 positions, 19 x 33, one crafted seed
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time

from service.domain.ai import strategy_for
from service.domain.commands import Advance, NewGame
from service.domain.fold import apply_all
from service.domain.players import play_turn
from service.domain.rules import decide
from service.domain.start import LEVELS
from service.domain.state import GameState
from squares_testing import results as _results
from squares_testing import worst
from squares_testing.play import turn_starts


def positions(count: int, height: int, width: int) -> list[GameState]:
    found: list[GameState] = []
    seed = 0
    while len(found) < count:
        command = NewGame(seed=seed, player_name="bench", difficulty="moderate",
                          mode="computer_vs_computer", height=height, width=width)
        found += turn_starts(command, strategy_for("moderate"), most=count - len(found))
        seed += 1
    return found


def crafted(sizes: tuple[tuple[int, int], ...] = ((19, 33), (41, 81)),
            seeds: tuple[int, ...] = (0, 1)) -> list[tuple[str, GameState]]:
    return [(f"{kind} {h}x{w}", worst.position(kind, h, w, seed))
            for kind in worst.KINDS for h, w in sizes for seed in seeds]


def decisions(state: GameState, level: str) -> float:
    """CPU seconds of the slower of the two decisions (stage 1 plan, stage 2 line)."""
    strategy = strategy_for(level)
    t0 = time.thread_time()
    strategy.stage1(state)
    first = time.thread_time() - t0
    after = apply_all(state, decide(state, Advance(state.turn)))
    if after.over or after.stage != 2:
        return first
    t0 = time.thread_time()
    strategy.stage2(after)
    return max(first, time.thread_time() - t0)


def measure(states: list[GameState], levels: list[str], prefix: str,
            figures: _results.Figures) -> None:
    """Print a row per level and add its figures (names starting with `prefix`)."""
    print(f"{'level':<9} {'turn median ms':>15} {'turn max ms':>12} {'decision max ms':>16} "
          f"{'walks/s':>9} {'dfs lines/s':>12}")
    for level in levels:
        times: list[float] = []
        worst_decision = 0.0
        for state in states:
            strategy = strategy_for(level)
            t0 = time.thread_time()
            play_turn(state, strategy)
            times.append(time.thread_time() - t0)
            worst_decision = max(worst_decision, decisions(state, level))
        # The rates count the stage-1 search only (no stage 2, no rules engine).
        walks = nodes = 0
        searching = 0.0
        for state in states:
            strategy = strategy_for(level)
            t0 = time.thread_time()
            strategy.stage1(state)
            searching += time.thread_time() - t0
            walks += strategy.stats.walks
            nodes += strategy.stats.nodes
        searching = max(searching, 1e-9)
        print(f"{level:<9} {statistics.median(times) * 1e3:>15.1f} {max(times) * 1e3:>12.1f} "
              f"{worst_decision * 1e3:>16.1f} {walks / searching:>9.0f} "
              f"{nodes / searching:>12.0f}")
        expert = level == "expert" and prefix == "19x33"
        figures[f"{prefix} {level} turn median"] = _results.figure(
            statistics.median(times) * 1e3, "ms CPU", "<= 50 ms" if expert else None)
        figures[f"{prefix} {level} turn max"] = _results.figure(
            max(times) * 1e3, "ms CPU", "<= 250 ms" if expert else None)
        figures[f"{prefix} {level} decision max"] = _results.figure(
            worst_decision * 1e3, "ms CPU", "<= 250 ms")
        if walks:
            figures[f"{prefix} {level} walks/s"] = _results.figure(walks / searching, "walks/s")
        if nodes:
            figures[f"{prefix} {level} dfs lines/s"] = _results.figure(nodes / searching,
                                                                       "lines/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=None, help="per size (200)")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--sizes", default=None, help="(19x33,41x81)")
    parser.add_argument("--no-crafted", action="store_true")
    _results.add_run_options(parser, quick="seconds: 5 positions on 19 x 33, crafted ones on "
                                           "the same sizes with one seed")
    args = parser.parse_args()
    _results.fill_defaults(args, positions=(200, 5), sizes=("19x33,41x81", "19x33"))
    levels = args.levels.split(",")
    sizes = tuple((h, w) for h, w in (map(int, s.split("x")) for s in args.sizes.split(",")))
    figures: _results.Figures = {}

    for height, width in sizes:
        started = time.perf_counter()
        states = positions(args.positions, height, width)
        print(f"\n{len(states)} positions on {height} x {width} (start of a computer stage 1) "
              f"in {time.perf_counter() - started:.1f} s")
        measure(states, levels, f"{height}x{width}", figures)
    if not args.no_crafted:
        cases = crafted(sizes, (0,)) if args.quick else crafted()
        print(f"\ncrafted worst positions ({len(cases)}): "
              + ", ".join(dict.fromkeys(name for name, _ in cases)))
        measure([state for _, state in cases], levels, "crafted", figures)
        print("slowest decision per crafted position (ms):")
        for name, state in cases:
            cells = "  ".join(f"{level} {decisions(state, level) * 1e3:6.1f}" for level in levels)
            print(f"  {name:<22} {cells}")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory (ru_maxrss): {peak_mb:.1f} MB")
    figures["peak memory"] = _results.figure(peak_mb, "MB")
    _results.save("ai", figures, args)


if __name__ == "__main__":
    main()
