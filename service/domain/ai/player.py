"""The computer player as a `players.Strategy` (RULES A1-A3), and the hint.

At the start of its stage 1 and stage 2 a computer seat first sends `Explain`
(RULES A2), then the planned lines, then `Advance`. The plan is cached by the
state it applies to; called on any other state the player plans afresh, so it
is also correct when asked in the middle of a turn.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..commands import Advance, Command, Explain, PlaceLine
from ..rules import regular_squares
from ..seeds import game_rng
from ..start import LEVELS
from ..state import GameState
from . import budget, measures, stage1, stage2, walks
from .budget import Budget, Stats
from .compact import Board, chain_of
from .stage1 import Search

TRIALS = {"easy": 5, "moderate": 50, "hard": 500}
HARD = "hard"
TIES = 4  # expert: best-scoring stage-1 paths compared by what they leave
EXPERT_BUDGET = 20_000  # expert: lines its stage-1 search may draw


class ComputerPlayer:
    def __init__(self, level: str, explain: bool = True) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}; one of {', '.join(LEVELS)}")
        self.level = level
        self.explain = explain
        self.stats = Stats()
        self._planned: dict[tuple[Any, ...], Command] = {}

    def next_command(self, state: GameState) -> Command:
        planned = self._planned.pop(_key(state), None)
        if planned is not None and _still_legal(state, planned):
            return planned
        seat = state.turn
        if state.over or state.stage == 3 or (state.stage == 2 and state.stage2_line_placed):
            return Advance(seat)
        explain = self._must_explain(state)
        if state.stage == 1:
            search = self.stage1(state)
            w = state.width
            commands: list[Command] = [
                PlaceLine(seat, s % w, s // w) for s in search.best.slots
            ]
            commands.append(Advance(seat))
            if explain:
                commands.insert(0, self._explain_stage1(state, search))
        else:
            extra = self.stage2(state)
            x, y = extra.slot % state.width, extra.slot // state.width
            commands = [PlaceLine(seat, x, y)]
            if explain:
                commands.insert(0, Explain(seat, self.level, extra.give, x, y, (),
                                           extra.considered, extra.trials, extra.reason))
        self._remember(state, commands[1:])
        return commands[0]

    # -- the two decisions ----------------------------------------------------
    def stage1(self, state: GameState) -> Search:
        board, chain = Board.of(state), chain_of(state)
        clock = Budget(budget.STAGE1_UNITS)
        if self.level != "expert":
            rng = game_rng(state.seed(), state.rng_version, f"ai:{self.level}:1")
            return walks.random_search(board, chain, TRIALS[self.level], rng, self.stats, clock)
        search = stage1.exhaustive(board, chain, self.stats, min(EXPERT_BUDGET, clock.left),
                                   ties=TIES - 1, clock=clock)
        if search.complete:
            return _least_left(board, search, self.stats, clock)
        # Out of budget: also run hard's own walks (with what is left of the
        # budget, at least a quarter of it), so expert rarely scores less.
        rng = game_rng(state.seed(), state.rng_version, f"ai:{HARD}:1")
        clock.left = max(clock.left, budget.STAGE1_UNITS // 4)
        walked = walks.random_search(board, chain, TRIALS[HARD], rng, self.stats, clock)
        best = walked.best if walked.best.points > search.best.points else search.best
        return Search(best, search.starts, search.trials + walked.trials, False)

    def stage2(self, state: GameState) -> stage2.Extra:
        rng = game_rng(state.seed(), state.rng_version, f"ai:{self.level}:2")
        measure = measures.MEASURES[self.level]
        if measure != "exact":
            return measures.choose(Board.of(state), rng, measure)
        return stage2.choose(Board.of(state), rng, self.stats, sample=self.level == "expert",
                             clock=Budget(budget.STAGE2_UNITS))

    # -- bookkeeping ----------------------------------------------------------
    def _must_explain(self, state: GameState) -> bool:
        """Explain once per stage: the seat's latest explanation is of the other
        stage (or of its previous turn, which always ends with a stage-2 one)."""
        if not self.explain or state.seat_info(state.turn).kind != "computer":
            return False
        latest = state.explanations.get(state.turn)
        return latest is None or latest.stage != state.stage

    def _explain_stage1(self, state: GameState, search: Search) -> Explain:
        best = search.best
        bx = by = None
        if best.start is not None:
            bx, by = best.start % state.width, best.start // state.width
        if not search.starts:
            reason = "no box can be formed with one line"
        elif self.level == "expert":
            reason = (f"exhaustive search of {search.trials} paths from {search.starts} starts; "
                      f"of the best, the one leaving the least to give away")
            if not search.complete:
                reason += " (search budget reached; hard's random walks added)"
        else:
            n = TRIALS[self.level]
            reason = f"{n} random walks from each of {search.starts} starts"
        return Explain(state.turn, self.level, best.points, bx, by, best.directions,
                       search.starts, search.trials, reason)

    def _remember(self, state: GameState, commands: list[Command]) -> None:
        """Cache `commands` by the states they will be asked on: each one adds one
        event (stage-1 lines never cost a penalty, so no automatic advance)."""
        self._planned.clear()
        version, empty = state.version, state.empty_slots
        for command in commands:
            version += 1
            key = (state.game, version, state.turn, state.stage, empty)
            self._planned[key] = command
            if isinstance(command, PlaceLine):
                empty -= 1
            else:
                break


def _least_left(board: Board, search: Search, stats: Stats, clock: Budget) -> Search:
    """Expert: of the paths that score the most, the one after which the least
    can be given away by the best stage-2 line, then the one leaving the
    shortest chains of two-sided boxes (sum of squared lengths; ties: the first
    found). Paths are compared while the budget lasts; an incomplete figure is
    not used."""
    if not search.ties:
        return search
    best, least = search.best, None
    for path in (search.best, *search.ties):
        if clock.out:
            break
        after = board.copy()
        for s in path.slots:
            after.draw(s)
        if not after.empty_slots():
            return replace(search, best=path, ties=())
        ranked, _, complete = stage2.least_give_away(after, stats, clock)
        if not complete:
            break
        _, size = stage2.two_sided_chains(after)
        figure = (min(g for g, _ in ranked), sum(n * n for n in size.values()))
        if least is None or figure < least:
            best, least = path, figure
    return replace(search, best=best, ties=())


def _key(state: GameState) -> tuple[Any, ...]:
    return (state.game, state.version, state.turn, state.stage, state.empty_slots)


def _still_legal(state: GameState, command: Command) -> bool:
    if isinstance(command, PlaceLine):
        if state.line_at(command.x, command.y):
            return False
        if state.stage == 1:
            return bool(regular_squares(state.chain, state.completing_boxes(command.x, command.y)))
        return state.stage == 2 and not state.stage2_line_placed
    if isinstance(command, Advance):
        return state.stage == 1
    return False


def strategy_for(level: str) -> ComputerPlayer:
    return ComputerPlayer(level)


HINT_LEVEL = "expert"


def hint(state: GameState) -> Command:
    """The expert's next command for whoever is to move (never an `Explain`)."""
    return ComputerPlayer(HINT_LEVEL, explain=False).next_command(state)
