"""The review's searches (`review.search`) as they were before the speed-ups (branch
review-speed), word for word: the plain code test_review_fast_paths holds the fast
ones to."""

from __future__ import annotations

from service.domain.ai.compact import Board, Chain
from service.domain.review.least import STAGE2_NODES, Least
from service.domain.review.search import STAGE1_NODES, Best, _zobrist


class _OutOfNodes(Exception):
    pass


class _Enough(Exception):
    pass


def plain_best_stage1(board: Board, chain: Chain = None, nodes: int = STAGE1_NODES,
                enough: int | None = None) -> Best:
    """The best legal stage-1 sequence from `board` (RULES T1/T2), `chain` being the
    previous line's regular squares (None: the stage has formed nothing yet).
    `enough`: stop as soon as a sequence takes that many points (the answer is then
    "at least that", still ``exact``). `board` is left as it was."""
    t = board.t
    lines, sides = board.lines, board.sides
    sides_of, boxes_of, nbrs, adjacent = t.sides_of, t.boxes_of, t.nbrs, t.adjacent
    keys = _zobrist(len(lines))
    memo: dict[tuple[int, Chain], tuple[int, int]] = {}  # -> (points to come, first line)
    path: list[int] = []
    found: list = [0, ()]  # the best points so far along any path, and that path
    count = 0

    def candidates(chain: Chain) -> list[int]:
        """The distinct lines that form a regular square now."""
        if chain is None:
            boxes = [b for b in t.boxes if sides[b] == 3]
        else:
            boxes = [nb for c in chain for _, nb in nbrs[c] if sides[nb] == 3]
        out: list[int] = []
        for b in boxes:
            for s in sides_of[b]:
                if not lines[s]:
                    if s not in out:
                        out.append(s)
                    break
        return out

    def go(key: int, chain: Chain, points: int) -> int:
        """The most points still to come from here; records the best path in `found`."""
        nonlocal count
        known = memo.get((key, chain))
        if known is not None:
            if points + known[0] > found[0]:
                note(points + known[0], _follow(board.copy(), memo, keys, key, chain))
            return known[0]
        value, first = 0, -1
        for s in candidates(chain):
            count += 1
            if count > nodes:
                raise _OutOfNodes
            lines[s] = 1
            formed = []
            for b in boxes_of[s]:
                sides[b] += 1
                if sides[b] == 4:
                    formed.append(b)
            if chain is not None:  # RULES T2: next to a regular square of the last line
                formed = [b for b in formed if any(b - c in adjacent for c in chain)]
            path.append(s)
            try:
                gained = len(formed) + go(key ^ keys[s], tuple(formed), points + len(formed))
            finally:
                path.pop()
                lines[s] = 0
                for b in boxes_of[s]:
                    sides[b] -= 1
            if gained > value:
                value, first = gained, s
        memo[(key, chain)] = (value, first)
        if first < 0 and points > found[0]:
            note(points, ())
        return value

    def note(total: int, rest: tuple[int, ...]) -> None:
        found[0] = total
        found[1] = (*path, *rest)
        if enough is not None and total >= enough:
            raise _Enough

    exact = True
    try:
        go(0, chain, 0)
    except _OutOfNodes:
        exact = False
    except _Enough:
        pass
    return Best(found[0], tuple(found[1]), exact, min(count, nodes))


def _follow(board: Board, memo: dict[tuple[int, Chain], tuple[int, int]], keys: list[int],
            key: int, chain: Chain) -> tuple[int, ...]:
    """Replay the memo's best first lines from (key, chain) on `board` (a scratch copy)."""
    out: list[int] = []
    adjacent = board.t.adjacent
    while True:
        known = memo.get((key, chain))
        if known is None or known[1] < 0:
            return tuple(out)
        s = known[1]
        formed = board.draw(s)
        if chain is not None:
            formed = [b for b in formed if any(b - c in adjacent for c in chain)]
        chain = tuple(formed)
        key ^= keys[s]
        out.append(s)


def plain_least_giving(board: Board, played: int, gives: Best, nodes: int = STAGE2_NODES) -> Least:
    """The least any empty slot gives, given what the line `played` gives (`gives`).

    A slot gives nothing when afterwards no box has three sides, so with no box at
    three sides now, a slot between boxes of at most one side ends the search. Else
    every slot is tried, the ones that make fewer three-sided boxes first (they
    tend to give less). A slot is passed over when a known sequence (a witness:
    the best sequences found so far) still takes at least the least found so far
    after it; otherwise it is searched with ``enough`` at that least, which stops
    the search as soon as it cannot lower it."""
    t = board.t
    sides = board.sides
    empty = board.empty_slots()

    def new_threes(s: int) -> int:
        return sum(1 for b in t.boxes_of[s] if sides[b] >= 2)

    if not any(sides[b] == 3 for b in t.boxes):
        for s in empty:
            if new_threes(s) == 0:
                return Least(0, s, True, 0)
    least, where = gives.points, played
    witnesses: list[tuple[int, ...]] = [gives.lines] if gives.lines else []
    spent = 0
    for s in sorted(empty, key=new_threes):
        if least == 0:
            break
        if s == played:
            continue
        if spent + 1 + sum(map(len, witnesses)) > nodes:  # the most this slot's check draws
            return Least(least, where, False, spent)
        board.draw(s)
        try:
            covered, drawn = _covered(board, witnesses, least)
            spent += 1 + drawn
            if covered:
                continue
            found = plain_best_stage1(board, None, nodes - spent, enough=least)
        finally:
            board.undo(s)
        spent += found.nodes
        if not found.exact:
            return Least(least, where, False, spent)
        if found.points < least:
            least, where = found.points, s
        else:
            witnesses.insert(0, found.lines)
            del witnesses[WITNESSES:]
    return Least(least, where, True, spent)


WITNESSES = 8


def _covered(board: Board, witnesses: list[tuple[int, ...]], least: int) -> tuple[bool, int]:
    """Whether one of the witnesses still takes at least `least` on `board`, and the
    most lines that telling drew (the units it costs)."""
    drawn = 0
    for w in witnesses:
        drawn += len(w)
        if takes(board, w) >= least:
            return True, drawn
    return False, drawn


def takes(board: Board, lines: tuple[int, ...]) -> int:
    """What the stage-1 sequence `lines` takes on `board`, up to its first line that
    is drawn already or forms no regular square (RULES T1/T2). `board` is left as
    it was."""
    adjacent = board.t.adjacent
    chain: Chain = None
    points = 0
    drawn: list[int] = []
    try:
        for s in lines:
            if board.lines[s]:
                break
            formed = board.draw(s)
            drawn.append(s)
            if chain is not None:
                formed = [b for b in formed if any(b - c in adjacent for c in chain)]
            if not formed:
                break
            points += len(formed)
            chain = tuple(formed)
    finally:
        for s in drawn:
            board.undo(s)
    return points
