"""Stage 2 (RULES A3): the extra line.

Prefer a safe line (afterwards no box has exactly three sides). Without one,
give away as little as possible: the fewest squares the opponent could chain
in its next stage 1. The expert also draws the stage-3 random pieces many
times (with `pieces`, as the rules do) and keeps the line after which the
opponent's best chain is smallest on average.
"""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass

from .. import pieces
from .compact import Board
from .stage1 import Stats, best_points, exhaustive

SHORTLIST = 6  # expert: candidate lines that get sampled
SAMPLES = 6  # expert: stage-3 piece sets per candidate (the same sets for each)


@dataclass(frozen=True)
class Extra:
    slot: int
    give: int  # squares the opponent could chain right after this line
    considered: int  # candidate lines looked at
    trials: int  # positions simulated
    reason: str


def safe_lines(board: Board) -> list[int]:
    sides, boxes_of = board.sides, board.t.boxes_of
    n3 = len(board.three_sided())
    safe = []
    for s in board.empty_slots():
        near = [sides[b] for b in boxes_of[s]]
        if 2 not in near and near.count(3) == n3:
            safe.append(s)
    return safe


def least_give_away(board: Board, stats: Stats) -> tuple[list[tuple[int, int]], int]:
    """(give, slot) for every empty slot, in slot order, and how many were searched.

    A figure is exact when it is at most the least give-away found so far, and a
    lower bound of a worse line otherwise. Each start is searched once on this
    board, noting the boxes its search looked at; a line that touches none of
    them leaves that start's best chain as it was, so per line only the starts it
    touches (and the boxes it brings to three sides) are searched again.
    """
    sides, boxes_of = board.sides, board.t.boxes_of
    value: dict[int, int] = {}
    by_box: dict[int, list[int]] = {}
    always: list[int] = []  # starts whose search ran out of budget
    for b in board.three_sided():
        seen: set[int] = set()
        found = exhaustive(board, None, stats, 4_000, only=[b], touched=seen)
        value[b] = found.best.points
        if not found.complete:
            always.append(b)
        for box in seen:
            by_box.setdefault(box, []).append(b)
    ranked = sorted(value, key=value.__getitem__, reverse=True)

    results: list[tuple[int, int]] = []
    least: int | None = None
    searched = 0
    for s in board.empty_slots():
        near = boxes_of[s]
        affected = set(always)
        for box in near:
            affected.update(by_box.get(box, ()))
        kept = next((value[b] for b in ranked if b not in affected), 0)
        give = kept
        if least is None or kept <= least:
            redo = [b for b in affected if sides[b] == 3 and b not in near]
            redo += [b for b in near if sides[b] == 2]  # three-sided after the line
            if redo:
                searched += 1
                board.draw(s)
                enough = None if least is None else least + 1
                found = exhaustive(board, None, stats, 4_000, enough, only=redo)
                board.undo(s)
                give = max(kept, found.best.points)
        results.append((give, s))
        if least is None or give < least:
            least = give
    return results, searched


def choose(board: Board, rng: random.Random, stats: Stats, sample: bool) -> Extra:
    empty = board.empty_slots()
    safe = safe_lines(board)
    if safe:
        least, best, why = 0, safe, f"safe line: no box is left with three sides ({len(safe)} safe lines)"
        simulated = 0
    else:
        ranked, simulated = least_give_away(board, stats)
        least = min(give for give, _ in ranked)
        best = [s for give, s in ranked if give == least]
        why = f"no safe line: gives away the least, {least} square(s)"
    if not sample:
        slot = best[rng.randrange(len(best))]
        return Extra(slot, least, len(empty), simulated, why)
    # Expert: fewer boxes brought to two sides keep chains short; ties in random
    # order; then the stage-3 pieces are sampled for a shortlist.
    rng.shuffle(best)
    sides, boxes_of = board.sides, board.t.boxes_of
    best.sort(key=lambda s: sum(1 for b in boxes_of[s] if sides[b] == 1))
    mean, slot, trials = _sampled(board, best[:SHORTLIST], rng, stats)
    return Extra(slot, least, len(empty), simulated + trials,
                 f"{why}; opponent expects {mean:.1f} after {SAMPLES} samples of the "
                 f"stage-3 pieces")


def _sampled(
    board: Board, candidates: list[int], rng: random.Random, stats: Stats
) -> tuple[float, int, int]:
    """(mean opponent best chain, slot, positions simulated) of the best candidate.

    Different candidates and samples often end on the same board (a piece lands on
    another candidate's line); its figure is searched once and its search counted
    in `stats` each time, as if it had run again.
    """
    streams = [_Words(rng.getrandbits(32)) for _ in range(SAMPLES)]
    best: tuple[float, int] | None = None
    known: dict[bytes, tuple[int, int, int]] = {}  # lines -> (points, nodes, leaves)
    for slot in candidates:
        total = 0
        for words in streams:
            after = board.copy()
            after.draw(slot)
            _insert_pieces(after, words)
            key = bytes(after.lines)
            found = known.get(key)
            if found is None:
                work = Stats()
                found = known[key] = (best_points(after, work, budget=2_000),
                                      work.nodes, work.leaves)
            total += found[0]
            stats.nodes += found[1]
            stats.leaves += found[2]
        mean = total / SAMPLES
        if best is None or mean < best[0]:
            best = (mean, slot)
    assert best is not None
    return best[0], best[1], len(candidates) * SAMPLES


# -- the stage-3 pieces, simulated fast ------------------------------------------------
#
# `_insert_pieces` makes exactly the random draws of `pieces.generate_shape`,
# `pieces.shift_upper_left` and `pieces.place_piece` with a `random.Random(seed)`, so it
# places the same pieces (`test_fast_paths` compares the two). It reads the
# generator's output as 32-bit words fetched in bulk: ``getrandbits(k)`` for k <= 32
# is the next word shifted right by 32 - k, ``getrandbits(32 * n)`` is the next n
# words (least significant first), and ``choice``/``randrange`` draw below n with
# ``getrandbits(n.bit_length())`` repeated until the value is below n. A sample's
# words are fetched once and shared by every candidate line.

_CHUNK = 256  # words fetched at a time


class _Words:
    """The 32-bit words of ``random.Random(seed)``, fetched as far as needed."""

    __slots__ = ("rng", "words")

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.words: list[int] = []
        self.more()

    def more(self) -> None:
        bits = self.rng.getrandbits(32 * _CHUNK)
        self.words.extend(struct.unpack(f"<{_CHUNK}I", bits.to_bytes(4 * _CHUNK, "little")))


_BOX_SLOTS_N = len(pieces.BOX_SLOTS)
_TOUCHING: dict[tuple[pieces.Point, ...], tuple[pieces.Point, ...]] = {}
_SHIFTED: dict[tuple[pieces.Point, ...], tuple[pieces.Point, ...]] = {}
# (shape, width) -> (slot offsets on the field, largest x, largest y)
_PLACED: dict[tuple[tuple[pieces.Point, ...], int], tuple[tuple[int, ...], int, int]] = {}


def _touching(lines: tuple[pieces.Point, ...]) -> tuple[pieces.Point, ...]:
    """`pieces.generate_shape`'s choices for the next line after `lines` (in order)."""
    found = _TOUCHING.get(lines)
    if found is None:
        dots = pieces.piece_dots(lines)
        found = tuple(s for s in pieces.BOX_SLOTS
                      if s not in lines and dots.intersection(pieces.line_dots(*s)))
        _TOUCHING[lines] = found
    return found


def _placement(grown: tuple[pieces.Point, ...], width: int) -> tuple[tuple[int, ...], int, int]:
    key = (grown, width)
    found = _PLACED.get(key)
    if found is None:
        shape = _SHIFTED.get(grown)
        if shape is None:
            shape = _SHIFTED[grown] = pieces.shift_upper_left(
                tuple(sorted(grown, key=lambda p: (p[1], p[0]))))
        found = (tuple(y * width + x for x, y in shape),
                 max(x for x, _ in shape), max(y for _, y in shape))
        _PLACED[key] = found
    return found


def _insert_pieces(board: Board, stream: _Words) -> None:
    """RULES T4 on the compact board: a 3-, 2- and 1-line piece at random."""
    t = board.t
    w, h = t.width, t.height
    lines = board.lines
    words = stream.words
    have = len(words)
    p = 0
    nx, ny = (w + 1) // 2, (h + 1) // 2
    sx, sy = 32 - nx.bit_length(), 32 - ny.bit_length()
    s12 = 32 - _BOX_SLOTS_N.bit_length()
    for size in pieces.PIECE_SIZES:
        # pieces.generate_shape
        if p >= have:
            stream.more()
            have = len(words)
        r = words[p] >> s12
        p += 1
        while r >= _BOX_SLOTS_N:
            if p >= have:
                stream.more()
                have = len(words)
            r = words[p] >> s12
            p += 1
        grown: tuple[pieces.Point, ...] = (pieces.BOX_SLOTS[r],)
        while len(grown) < size:
            touching = _touching(grown)
            n = len(touching)
            sn = 32 - n.bit_length()
            if p >= have:
                stream.more()
                have = len(words)
            r = words[p] >> sn
            p += 1
            while r >= n:
                if p >= have:
                    stream.more()
                    have = len(words)
                r = words[p] >> sn
                p += 1
            grown += (touching[r],)
        offsets, mx, my = _placement(grown, w)
        # pieces.place_piece: up to MAX_TRIES even offsets, x first
        for _ in range(pieces.MAX_TRIES):
            if p >= have:
                stream.more()
                have = len(words)
            ox = words[p] >> sx
            p += 1
            while ox >= nx:
                if p >= have:
                    stream.more()
                    have = len(words)
                ox = words[p] >> sx
                p += 1
            if p >= have:
                stream.more()
                have = len(words)
            oy = words[p] >> sy
            p += 1
            while oy >= ny:
                if p >= have:
                    stream.more()
                    have = len(words)
                oy = words[p] >> sy
                p += 1
            ox *= 2
            oy *= 2
            if ox + mx >= w or oy + my >= h:
                continue
            base = oy * w + ox
            for o in offsets:
                if lines[base + o]:
                    break
            else:
                for o in offsets:
                    board.draw(base + o)
                break
