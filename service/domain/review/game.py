"""The review of one finished game, from its events (issue 24).

The events are folded one by one; at each turn's first decision the position the
player faced is kept, and so are the position before its stage-2 line and the
lines it drew. Then each position is searched (`search`, `least`): the best stage 1
from the turn's start, what the stage-2 line played gives the opponent and the
least any line could have given. A turn's random pieces changed what the next player
could take by (the next turn's best) - (what the stage-2 line gave).

Where the game was left (abandoned, or aborted online) in the middle of a stage 1,
that last turn is not reviewed: it was never finished. A resigned game is reviewed as
one that ended there (its ``game_over``): the resigning turn's lines are its stage 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..ai.compact import Board, tables
from ..events import Event, GameCreated, LinePlaced, StageAdvanced
from ..fold import apply_in_place, fold
from ..state import GameState
from .budget import GAME_UNITS, ReviewBudget
from .least import STAGE2_NODES
from .passes import Search, Stage1Search, Stage2Search, run_all
from .report import Review, Stage1Review, TurnReview, summarise
from .search import STAGE1_NODES

ALGORITHM = 3  # raise when the review's figures change: `squares review --rebuild`


@dataclass
class _Turn:
    """What a turn's review needs, gathered while folding."""

    seat: int
    round: int
    start_seq: int
    start: Board
    score: int
    played: list[tuple[int, int]] = field(default_factory=list)
    gained: int | None = None  # set when stage 1 ends
    before_stage2: Board | None = None
    stage2_slot: int | None = None
    ended_with_pieces: bool = False  # stage 3 came and the turn ended


class NotFinished(ValueError):
    """The events do not end a game: it cannot be reviewed yet."""


def review_game(events: Sequence[Event], stage1_nodes: int = STAGE1_NODES,
                stage2_nodes: int = STAGE2_NODES, units: int = GAME_UNITS) -> Review:
    """The review of the game these events make (all of them: game over, resigned,
    abandoned or aborted), within `units` of work (`budget`); each search also within
    its own limit (`stage1_nodes`, `stage2_nodes`)."""
    if not events or not isinstance(events[0], GameCreated):
        raise NotFinished("a game starts with game_created")
    turns, final = _gather(events)
    stage1s = [Stage1Search(t.start, stage1_nodes) for t in turns]
    stage1s.append(Stage1Search(final, stage1_nodes))
    stage2s = {i: Stage2Search(t.before_stage2, t.stage2_slot, stage1_nodes, stage2_nodes)
               for i, t in enumerate(turns)
               if t.stage2_slot is not None and t.before_stage2 is not None}
    searches: list[Search] = [*stage1s, *stage2s.values()]
    budget = ReviewBudget(units)
    run_all(searches, budget)
    bests = [s.best for s in stage1s]
    reviews: list[TurnReview] = []
    for i, t in enumerate(turns):
        best = bests[i]
        gained = t.gained or 0
        best_lines = tuple(t.start.xy(s) for s in best.lines)
        points = best.points
        if not best.exact and gained > points:  # what was played is a sequence too
            points, best_lines = gained, tuple(t.played)
        stage1 = Stage1Review(tuple(t.played), gained, points, best_lines, best.exact)
        stage2 = None
        pieces = None
        if i in stage2s:
            stage2 = stage2s[i].review
            if t.ended_with_pieces:
                pieces = bests[i + 1].points - stage2.gives
        reviews.append(TurnReview(i + 1, t.round, t.seat, t.start_seq, stage1, stage2, pieces))
    done = tuple(reviews)
    return Review(ALGORITHM, done, (summarise(1, done), summarise(2, done)), budget.spent)


def _gather(events: Sequence[Event]) -> tuple[list[_Turn], Board]:
    """The turns (each with its positions) and the position after the last of them
    (the game's last, or where a turn left unfinished began)."""
    state: GameState = fold(events[:1])
    t, pieces = tables(state.height, state.width), state.piece_sizes

    def board() -> Board:
        return Board(t, bytearray(state.lines), bytearray(state.sides), pieces)

    turns: list[_Turn] = []
    current: _Turn | None = None
    final: Board | None = None
    for event in events[1:]:
        line = event if isinstance(event, LinePlaced) else None
        advance = event if isinstance(event, StageAdvanced) else None
        if current is None and (line is not None or advance is not None):  # the turn's first decision
            seat = state.turn
            current = _Turn(seat, state.round, state.version, board(), state.scores[seat - 1])
        if line is not None and line.stage == 2 and current is not None:
            current.before_stage2 = board()
            current.stage2_slot = state.geometry.index(line.x, line.y)
        apply_in_place(state, event)
        if current is None:
            continue
        if line is not None and line.stage == 1:
            current.played.append((line.x, line.y))
        if current.gained is None and (state.stage != 1 or state.over and not state.no_result):
            current.gained = state.scores[current.seat - 1] - current.score
        if advance is not None and advance.stage == 1:  # the turn ended
            current.ended_with_pieces = True
            turns.append(current)
            current = None
        elif state.over:
            if current.gained is not None:
                current.ended_with_pieces = state.stage == 3 and not state.no_result
                turns.append(current)
            else:  # left in its stage 1: the previous turn's pieces end at its start
                final = current.start
            current = None
    if not state.over:
        raise NotFinished("the game has not ended")
    return turns, final if final is not None else board()
