"""The reference player: what the computer's moves (RULES A1, A3) are worth when the
budget is no object, to measure the game's skill ceiling (issue 25).

It plays the same kind of moves as every level (stage 1: a whole A1 walk; stage 2:
any line), but chooses them by expectimax over the stage-3 pieces: a stage-1 walk
and the stage-2 line after it are judged together by

    the walk's points - the mean, over sampled piece draws, of the most the opponent
    could then take in its stage 1 (and, with ``reply``, + the mean of the most this
    seat could take after the opponent's best walk and its safest stage-2 line)

The candidates are every distinct walk the exhaustive search finds (the best
`WALKS`, by points) and every line that gives the least away now (plus the safe
lines, up to `LINES`, ranked as the expert ranks them), each judged on the same
`SAMPLES` draws. Nothing here is bounded by time; it is a simulation tool
(``squares simulate --seat1 reference``), never a level players meet.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..commands import Advance, Command, PlaceLine
from ..seeds import game_rng
from ..state import GameState
from . import sampling, stage2
from .budget import Stats
from .compact import Board, Chain, chain_of, starts
from .stage1 import NO_PATH, Path, best_points, exhaustive

WALKS = 12  # stage-1 walks judged (the best by points, distinct end boards)
LINES = 24  # stage-2 lines judged per walk
SAMPLES = 24  # piece draws per judged line (the same draws for every line)
SEARCH = 200_000  # lines one exhaustive search may draw


@dataclass(frozen=True)
class Plan:
    walk: Path
    line: int | None  # None: the game ends before a stage-2 line
    value: float


class ReferencePlayer:
    """A `players.Strategy`: explains nothing, plans a whole turn at its stage 1."""

    level = "reference"

    def __init__(self, walks: int = WALKS, lines: int = LINES, samples: int = SAMPLES,
                 reply: bool = False) -> None:
        self.walks, self.lines, self.samples, self.reply = walks, lines, samples, reply
        self.stats = Stats()
        self._queue: list[tuple[int, Command]] = []  # (version it applies at, command)

    def next_command(self, state: GameState) -> Command:
        while self._queue and self._queue[0][0] < state.version:
            self._queue.pop(0)
        if self._queue and self._queue[0][0] == state.version:
            return self._queue.pop(0)[1]
        seat = state.turn
        if state.over or state.stage == 3 or (state.stage == 2 and state.stage2_line_placed):
            return Advance(seat)
        rng = game_rng(state.seed(), state.rng_version, "ai:reference")
        board = Board.of(state)
        w = state.width
        if state.stage == 1:
            plan = self.plan_turn(board, chain_of(state), rng)
            commands: list[Command] = [PlaceLine(seat, s % w, s // w) for s in plan.walk.slots]
            commands.append(Advance(seat))
        else:
            slot = self.choose_line(board, rng).line
            assert slot is not None
            commands = [PlaceLine(seat, slot % w, slot // w)]
        self._queue = [(state.version + i, c) for i, c in enumerate(commands)]
        return self._queue.pop(0)[1]

    # -- the two decisions ----------------------------------------------------------
    def plan_turn(self, board: Board, chain: Chain, rng: random.Random) -> Plan:
        """The walk (and the line after it) of the best value."""
        found = exhaustive(board, chain, self.stats, SEARCH, ties=4 * self.walks)
        walks = [found.best, *found.ties] if found.best is not NO_PATH else [NO_PATH]
        walks += self._other_walks(board, chain, walks)
        seeds = [rng.getrandbits(32) for _ in range(self.samples)]
        best: Plan | None = None
        for walk in walks[: self.walks]:
            after = board.copy()
            for s in walk.slots:
                after.draw(s)
            plan = self._best_line(after, seeds, walk.points)
            plan = Plan(walk, plan.line, plan.value)
            if best is None or plan.value > best.value:
                best = plan
        assert best is not None
        return best

    def choose_line(self, board: Board, rng: random.Random) -> Plan:
        seeds = [rng.getrandbits(32) for _ in range(self.samples)]
        return self._best_line(board, seeds, 0)

    # -- judging ---------------------------------------------------------------------
    def _other_walks(self, board: Board, chain: Chain, have: list[Path]) -> list[Path]:
        """Walks scoring less than the best, one per start (best first)."""
        seen = {frozenset(p.slots) for p in have}
        others = []
        for b in starts(board, chain):
            found = exhaustive(board, chain, self.stats, SEARCH, only=[b])
            path = found.best
            if path.slots and frozenset(path.slots) not in seen:
                seen.add(frozenset(path.slots))
                others.append(path)
        others.sort(key=lambda p: -p.points)
        return others

    def _best_line(self, board: Board, seeds: list[int], points: int) -> Plan:
        empty = board.empty_slots()
        if not empty:
            return Plan(NO_PATH, None, float(points))
        candidates = self._candidates(board)
        best: Plan | None = None
        for slot in candidates:
            total = 0.0
            for seed in seeds:
                after = board.copy()
                after.draw(slot)
                sampling.insert_pieces(after, random.Random(seed))
                total -= self._their_turn(after, seed)
            value = points + total / len(seeds)
            if best is None or value > best.value:
                best = Plan(NO_PATH, slot, value)
        assert best is not None
        return best

    def _candidates(self, board: Board) -> list[int]:
        """The safe lines, else those giving at most one more than the least, ranked
        by what they give now and then by how much they lengthen the chains of
        two-sided boxes (the expert's order); the first `lines` of them."""
        chains = stage2.two_sided_chains(board)
        safe = stage2.safe_lines(board)
        if safe:
            ranked = [(0, s) for s in safe]
        else:
            ranked, _, _ = stage2.least_give_away(board, self.stats)
            least = min(give for give, _ in ranked)
            ranked = [(give, s) for give, s in ranked if give <= least + 1]
        ranked.sort(key=lambda gs: (gs[0], stage2.danger_added(board, chains, gs[1]), gs[1]))
        return [s for _, s in ranked[: self.lines]]

    def _their_turn(self, board: Board, seed: int) -> float:
        """The most the opponent takes here; with `reply`, minus what this seat takes
        back after the opponent's best walk, safest line and pieces."""
        found = exhaustive(board, None, self.stats, SEARCH)
        taken = found.best.points
        if not self.reply:
            return taken
        after = board.copy()
        for s in found.best.slots:
            after.draw(s)
        if not after.empty_slots():
            return taken
        line = self._candidates(after)[0]
        after.draw(line)
        sampling.insert_pieces(after, random.Random(seed ^ 0x5EED))
        return taken - best_points(after, self.stats, budget=SEARCH)
