"""The speed-ups that must not change a single result: each fast path against the
straightforward code it replaces."""

from __future__ import annotations

import dataclasses
import json
import random
from typing import Any

import pytest

from service.domain import pieces
from service.domain.ai import sampling, strategy_for
from service.domain.ai.budget import Budget, Stats
from service.domain.ai.compact import Board, starts, tables
from service.domain.ai.points import most_points
from service.domain.ai.stage1 import exhaustive
from service.domain.ai.walks import random_search
from service.domain.board import geometry
from service.domain.commands import NewGame
from service.domain.event_codec import event_to_json
from service.domain.random_lines import EDITIONS, piece_sizes
from squares_testing.play import play_out

from .ai_plain import plain_exhaustive


def _reference_insert_pieces(board: Board, rng: random.Random) -> None:
    """The AI's stage-3 simulation written out as RULES T4 says, with `random`'s own
    ``choice`` and ``randrange`` (the pieces `pieces.draw_piece` must draw)."""
    t = board.t
    w = t.width
    lines = board.lines
    for size in board.pieces:
        grown = [rng.choice(pieces.BOX_SLOTS)]
        while len(grown) < size:
            dots = pieces.piece_dots(tuple(grown))
            grown.append(rng.choice([s for s in pieces.BOX_SLOTS if s not in grown
                                     and dots.intersection(pieces.line_dots(*s))]))
        shape = pieces.shift_upper_left(tuple(grown))
        for _ in range(pieces.MAX_TRIES):
            ox, oy = rng.randrange(0, w, 2), rng.randrange(0, t.height, 2)
            placed = [(x + ox, y + oy) for x, y in shape]
            if all(x < w and y < t.height and not lines[y * w + x] for x, y in placed):
                for x, y in placed:
                    board.draw(y * w + x)
                break


@pytest.mark.parametrize("edition", EDITIONS)
def test_simulated_pieces_are_the_pieces_the_rules_would_draw(edition):
    meta = random.Random(edition)
    for _ in range(400):
        height, width = meta.choice([(7, 7), (7, 9), (9, 13), (11, 15), (19, 33), (41, 81)])
        t = tables(height, width)
        board = Board(t, bytearray(height * width), bytearray(height * width),
                      piece_sizes(geometry(height, width), edition))
        fill = meta.random()
        for s in t.slots:
            if meta.random() < fill:
                board.draw(s)
        seed = meta.getrandbits(32)
        expected, fast = board.copy(), board.copy()
        _reference_insert_pieces(expected, random.Random(seed))
        sampling.insert_pieces(fast, random.Random(seed))
        assert (fast.lines, fast.sides) == (expected.lines, expected.sides)


def _events_of_games(count: int):
    for seed in range(count):
        level = ("easy", "moderate", "hard")[seed % 3]
        mode = ("vs_computer", "computer_vs_computer")[seed % 2]
        command = NewGame(seed=seed, player_name="Ada", difficulty=level, mode=mode,
                          height=7, width=9, ranked=True)
        yield from play_out(command, strategy_for(level))[0]


def _jsonable(value: Any) -> Any:
    """The reference: what ``to_dict`` used to apply to ``dataclasses.asdict``."""
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    return value


def test_event_to_dict_is_asdict_made_json_safe():
    kinds = set()
    for event in _events_of_games(8):
        old = {"type": event.TYPE, "v": event.VERSION,
               "data": _jsonable(dataclasses.asdict(event))}
        new = event.to_dict()
        assert new == old
        assert json.dumps(new) == json.dumps(old)
        assert event_to_json(event) == json.dumps(old, sort_keys=True, separators=(",", ":"),
                                                  ensure_ascii=False)
        kinds.add(event.TYPE)
    assert {"game_created", "line_placed", "stage_advanced", "piece_inserted",
            "move_explained", "game_over", "seed_revealed", "high_scores_entered"} <= kinds


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_sample_drawn_once_gives_the_board_of_every_candidate_line(edition):
    """`sampling._Sample`: the pieces drawn without the candidate line, plus the line,
    are the board the candidate's own draws give, for every empty slot."""
    meta = random.Random(f"sample {edition}")
    for _ in range(60):
        height, width = meta.choice([(7, 9), (9, 13), (11, 15), (19, 33)])
        t = tables(height, width)
        board = Board(t, bytearray(height * width), bytearray(height * width),
                      piece_sizes(geometry(height, width), edition))
        fill = meta.random()
        for s in t.slots:
            if meta.random() < fill:
                board.draw(s)
        seed = meta.getrandbits(32)
        sample = sampling._Sample(board, seed)
        for slot in board.empty_slots():
            expected = board.copy()
            expected.draw(slot)
            _reference_insert_pieces(expected, random.Random(seed))
            key, after = sample.with_line(board, slot)
            if after is None:
                after = sample.after.copy()
                after.draw(slot)
            assert key == bytes(expected.lines)
            assert (after.lines, after.sides) == (expected.lines, expected.sides)


def _random_boards(meta: random.Random, count: int):
    for _ in range(count):
        height, width = meta.choice([(7, 7), (7, 9), (9, 13), (9, 13), (11, 15), (19, 33)])
        t = tables(height, width)
        board = Board(t, bytearray(height * width), bytearray(height * width))
        fill = meta.uniform(0.3, 0.95)
        for s in t.slots:
            if meta.random() < fill:
                board.draw(s)
        yield board


def test_most_points_is_the_exhaustive_search_counting_points_only():
    """`points.most_points` against `stage1.exhaustive`: the same points, lines drawn,
    paths completed and budget units, also when the budget or `enough` stops them."""
    meta = random.Random("most points")
    stopped = 0
    for board in _random_boards(meta, 600):
        three = board.three_sided()
        runs: list[dict[str, Any]] = [{"budget": meta.choice([1, 5, 40, 2_000, 20_000])},
                                      {"budget": 4_000, "enough": meta.randint(1, 8)}]
        if three:
            runs.append({"budget": meta.choice([3, 4_000]), "enough": meta.choice([None, 2]),
                         "only": meta.sample(three, min(len(three), meta.randint(1, 4)))})
        for run in runs:
            before = bytes(board.lines), bytes(board.sides)
            slow, slow_clock = Stats(), Budget(50_000)
            fast, fast_clock = Stats(), Budget(50_000)
            found = exhaustive(board, None, slow, clock=slow_clock, **run)
            points = most_points(board, fast, clock=fast_clock, **run)
            assert (points, fast, fast_clock.spent) == (found.best.points, slow, slow_clock.spent)
            assert (bytes(board.lines), bytes(board.sides)) == before
            stopped += not found.complete
        empty = board.empty_slots()
        if empty:  # `extra`: as if one more slot were drawn
            extra = meta.choice(empty)
            fast, fast_clock = Stats(), Budget(50_000)
            points = most_points(board, fast, 2_000, clock=fast_clock, extra=extra)
            assert (bytes(board.lines), bytes(board.sides)) == before
            board.draw(extra)
            slow, slow_clock = Stats(), Budget(50_000)
            found = exhaustive(board, None, slow, 2_000, clock=slow_clock)
            board.undo(extra)
            assert (points, fast, fast_clock.spent) == (found.best.points, slow, slow_clock.spent)
    assert stopped > 100  # the budget and `enough` stop many of them


def test_most_points_declines_a_start_without_three_sides():
    board = next(b for b in _random_boards(random.Random(3), 50)
                 if any(b.sides[x] == 2 for x in b.t.boxes))
    two = next(x for x in board.t.boxes if board.sides[x] == 2)
    stats, clock = Stats(), Budget(1_000)
    assert most_points(board, stats, 100, only=[two], clock=clock) is None
    assert (stats, clock.spent) == (Stats(), 0)



def _reference_walk(board: Board, start: int, chain: Any, rng: random.Random) -> tuple:
    """RULES A1's walk written plainly, with ``rng.randrange`` (`walks.walk` as it was):
    (points, start, directions, slots, whether it forked)."""
    t = board.t
    target, points, slots, directions, forked = start, 0, [], [], False
    while True:
        s = next(s for s in t.sides_of[target] if not board.lines[s])
        slots.append(s)
        formed = [b for b in board.draw(s)
                  if chain is None or any(b - c in t.adjacent for c in chain)]
        points, chain = points + len(formed), formed
        options = [(d, nb) for d, nb in t.nbrs[target] if board.sides[nb] == 3]
        if not options:
            break
        forked = forked or len(options) > 1
        d, target = options[rng.randrange(len(options))] if len(options) > 1 else options[0]
        directions.append(d)
    for s in slots:
        board.undo(s)
    return points, start, tuple(directions), tuple(slots), forked


def test_random_walks_are_the_plain_walks_of_rules_A1():
    """`walks.random_search`: every start walked once, then the forked ones n - 1
    times more; the first of the best walks, the walks run and their units."""
    meta = random.Random("walks")
    for board in _random_boards(meta, 300):
        three = board.three_sided()
        chain = None
        if three and meta.random() < 0.5:  # in the middle of a stage 1
            chain = tuple(nb for _, nb in board.t.nbrs[meta.choice(three)])[:2]
        seed, n = meta.getrandbits(32), meta.choice((1, 5, 50))
        theirs = random.Random(seed)
        found = starts(board, chain)
        walked = [_reference_walk(board, b, chain, theirs) for b in found]
        forked = [b for b, w in zip(found, walked, strict=True) if w[4]]
        walked += [_reference_walk(board, b, chain, theirs) for b in forked for _ in range(n - 1)]
        best = max(walked, key=lambda w: w[0], default=(0,))  # the first of the best
        expected = best[:4] if best[0] else (0, None, (), ())

        stats, clock, ours = Stats(), Budget(10**9), random.Random(seed)
        path = random_search(board, chain, n, ours, stats, clock).best
        assert (path.points, path.start, path.directions, path.slots) == expected
        assert (stats.walks, clock.spent) == (len(walked), sum(len(w[3]) + 1 for w in walked))
        assert ours.getstate() == theirs.getstate()


def test_exhaustive_is_the_plain_search():
    """`stage1.exhaustive` against the code it replaced (`ai_plain`), with every option:
    the best path, its ties, the counts, the units and the boxes it touched."""
    meta = random.Random("exhaustive")
    for board in _random_boards(meta, 400):
        three = board.three_sided()
        runs: list[dict[str, Any]] = [
            {"budget": meta.choice([5, 50, 2_000, 20_000])},
            {"budget": 20_000, "ties": 3, "units": meta.choice([100, 100_000])},
            {"budget": 4_000, "enough": meta.randint(1, 6)},
        ]
        if three:
            b = meta.choice(three)
            runs += [
                {"budget": meta.choice([30, 4_000]), "only": [b], "touched": True,
                 "units": 50_000},
                {"budget": 4_000, "only": meta.sample(three, min(3, len(three))), "enough": 2},
                {"chain": tuple(nb for _, nb in board.t.nbrs[b])[:2],
                 "budget": meta.choice([10, 20_000]), "ties": meta.choice([0, 3])},
            ]
        for run in runs:
            results = []
            for search in (exhaustive, plain_exhaustive):
                options = dict(run)
                clock = Budget(options.pop("units"), 1e9) if "units" in options else None
                touched: set[int] | None = set() if options.pop("touched", False) else None
                stats = Stats()
                found = search(board, options.pop("chain", None), stats, clock=clock,
                               touched=touched, **options)
                results.append((found, stats, clock and clock.spent, touched))
            assert results[0] == results[1], run
