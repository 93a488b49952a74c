"""``squares games import`` on hostile files (issue 23, item 7): each is refused with
one ``error: line N: ...`` line and exit status 1, no traceback, nothing written,
at the first line that breaks a bound, and the importing process stays under
100 MB (its peak resident set, measured by a wrapper process that waits for it).
A real game on the largest field is within every bound and imports."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from service.domain import export_bounds
from service.domain.board import MAX_HEIGHT, MAX_WIDTH
from service.domain.export_bounds import MAX_EVENTS, MAX_LINE_BYTES, MAX_STREAM_BYTES
from service.services import Services
from squares_testing.play import computer_game
from tests.cli.conftest import SQUARES
from tests.factories import EventStreamFactory, GameFactory

MEMORY_LIMIT_KIB = 100_000_000 // 1024  # 100 MB

# Runs the command given after the file name, then writes the command's peak RSS (KiB)
# to that file: RUSAGE_CHILDREN of a process with no other children is the command's.
_MEASURE = """
import resource, subprocess, sys
code = subprocess.call(sys.argv[2:])
with open(sys.argv[1], "w") as out:
    out.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(code)
"""


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str
    peak_kib: int

    def refused_at(self) -> tuple[int, str]:
        """The line and reason of the one ``error:`` line, after checking its shape."""
        assert self.code == 1, self.stderr
        assert self.stdout == "" and "Traceback" not in self.stderr
        match = re.fullmatch(r"error: line (\d+): (.+)\n", self.stderr)
        assert match is not None, self.stderr
        return int(match.group(1)), match.group(2)


def _import(db_url: str, path: Path, tmp_path: Path, *, stdin: bool = False) -> Outcome:
    peak = tmp_path / "peak_kib"
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    command = [sys.executable, "-c", _MEASURE, str(peak), str(SQUARES),
               "--database-url", db_url, "games", "import", "-" if stdin else str(path)]
    with path.open("rb") as source:
        done = subprocess.run(command, stdin=source if stdin else subprocess.DEVNULL,
                              capture_output=True, text=True, env=env, check=False)
    return Outcome(done.returncode, done.stdout, done.stderr, int(peak.read_text()))


def _game_lines(services: Services) -> list[bytes]:
    """The exported event lines of a small finished practice game (its seed public
    from the first line on; its signature line left out), deleted again."""
    game = GameFactory.create(services=services, finished=True, small=True, seed=4711,
                              ranked=False)
    text = services.admin.export_game(game.game_id)
    services.admin.delete_game(game.game_id)
    return [line.encode() + b"\n" for line in text.splitlines()
            if '"type":"signature"' not in line]


def _write(path: Path, chunks: Iterator[bytes]) -> Path:
    with path.open("wb") as out:
        for chunk in chunks:
            out.write(chunk)
    return path


def _million_lines(lines: list[bytes]) -> Iterator[bytes]:
    """A game's first line, then one of its line_placed lines 999,999 times."""
    placed = next(line for line in lines if b'"line_placed"' in line)
    yield lines[0]
    for _ in range(99):
        yield placed * 10_101
    yield placed * (999_999 - 99 * 10_101)


def _past_the_event_cap(lines: list[bytes]) -> Iterator[bytes]:
    """Well-formed events, a game's over and over, one line past the cap."""
    for number in range(MAX_EVENTS + 1):
        yield lines[number % len(lines)]


def _piece_line(size: int) -> bytes:
    """A well-typed piece_inserted line of `size` bytes, padded with squares: the
    event that costs the most memory per byte (a tuple per six bytes)."""
    data = {"seat": 1, "size": 1, "shape": [[1, 0]], "lines": [], "tries": 100,
            "skipped": True, "squares": []}
    line = json.dumps({"type": "piece_inserted", "v": 1, "data": data},
                      separators=(",", ":"))
    squares = ",[1,1]" * ((size - len(line) - 4) // 6)
    line = line.replace('"squares":[]', f'"squares":[[1,1]{squares}]')
    return (line + " " * (size - 1 - len(line))).encode() + b"\n"


def _up_to_the_byte_cap(lines: list[bytes], *, past: bool) -> Iterator[bytes]:
    """A game's first line, then the largest piece lines up to the stream cap (and
    one beyond it if `past`)."""
    piece = _piece_line(MAX_LINE_BYTES + 1)
    yield lines[0]
    room = (MAX_STREAM_BYTES - len(lines[0])) // len(piece)
    yield piece * (room + 1 if past else room)


HOSTILE: dict[str, tuple[Callable[[list[bytes]], Iterator[bytes]], Callable[[int], bool], str]]
HOSTILE = {
    # name: (the file, the line it is refused at, a word of the reason)
    "a million lines": (_million_lines, lambda n: n == MAX_EVENTS + 1, "more than"),
    "past the event cap": (_past_the_event_cap, lambda n: n == MAX_EVENTS + 1, "more than"),
    "past the byte cap": (lambda lines: _up_to_the_byte_cap(lines, past=True),
                          lambda n: n == (MAX_STREAM_BYTES // (MAX_LINE_BYTES + 1)) + 2,
                          "bytes"),
    # every line within the caps, so all of it is parsed before the rules refuse it
    "filling the byte cap": (lambda lines: _up_to_the_byte_cap(lines, past=False),
                             lambda n: n == 2, "event 2"),
    "200,000 deep": (lambda _: iter([b"[" * 200_000, b"]" * 200_000, b"\n"]),
                     lambda n: n == 1, "longer than"),
    "deep within the line cap": (
        lambda lines: iter([lines[0], b"[" * 16_000 + b"]" * 16_000 + b"\n"]),
        lambda n: n == 2, "nested deeper"),
    "a 10,000-digit integer": (
        lambda lines: iter([lines[0], re.sub(rb'"seat":\d+', b'"seat":' + b"9" * 10_000,
                                             lines[1])]),
        lambda n: n == 2, "10000 digits"),
    "a 200 MB line": (lambda lines: iter([lines[0], *[b"7" * 2**20] * 200]),
                      lambda n: n == 2, "longer than"),
    "not UTF-8 on line 3": (lambda lines: iter([*lines[:2], b"\xff\xfe\n", *lines[3:]]),
                            lambda n: n == 3, "is not UTF-8 text"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_file_is_refused_at_its_line_in_little_memory(
        name: str, db_url: str, services: Services, tmp_path: Path) -> None:
    make, at, word = HOSTILE[name]
    path = _write(tmp_path / "hostile.jsonl", make(_game_lines(services)))
    before = services.queries.list_games()[1]

    outcome = _import(db_url, path, tmp_path)

    line, reason = outcome.refused_at()
    assert at(line), (line, reason)
    assert word in reason
    assert outcome.peak_kib < MEMORY_LIMIT_KIB, outcome.peak_kib
    assert services.queries.list_games()[1] == before


def test_a_hostile_stdin_is_refused_the_same_way(
        db_url: str, services: Services, tmp_path: Path) -> None:
    path = _write(tmp_path / "hostile.jsonl", _million_lines(_game_lines(services)))
    outcome = _import(db_url, path, tmp_path, stdin=True)
    line, reason = outcome.refused_at()
    assert line == MAX_EVENTS + 1 and "more than" in reason
    assert outcome.peak_kib < MEMORY_LIMIT_KIB, outcome.peak_kib
    assert services.queries.list_games()[1] == 0


def _explanations_to_the_byte_cap() -> Iterator[bytes]:
    """A computer's game, then stage-1 explanations as long as a line may be, their
    directions a number 12,345 times over (a new integer object each), to the cap."""
    created = EventStreamFactory.build(mode="computer_vs_computer", small=True, turns=0,
                                       ranked=False).jsonl().encode()
    data = {"seat": 1, "stage": 1, "level": "easy", "best_point": 0, "best_x": None,
            "best_y": None, "best_direction": [], "starts": 0, "trials": 0, "reason": "x"}
    line = json.dumps({"type": "move_explained", "v": 1, "data": data},
                      separators=(",", ":"))
    many = ",".join(["12345"] * ((MAX_LINE_BYTES - len(line)) // 6))
    explained = line.replace('"best_direction":[]', f'"best_direction":[{many}]').encode()
    yield created
    yield (explained + b"\n") * ((MAX_STREAM_BYTES - len(created)) // (len(explained) + 1))


def test_the_costliest_stream_the_rules_take_imports_in_little_memory(
        db_url: str, services: Services, tmp_path: Path) -> None:
    """Nothing in the rules limits a computer's explanations (reported in issue 23),
    so this stream imports: the most memory a stream within the caps can cost."""
    path = _write(tmp_path / "explained.jsonl", _explanations_to_the_byte_cap())
    outcome = _import(db_url, path, tmp_path)
    assert outcome.code in (0, 1) and "Traceback" not in outcome.stderr
    assert outcome.peak_kib < MEMORY_LIMIT_KIB, outcome.peak_kib


def _play_largest(services: Services) -> str:
    """A ranked computer_vs_computer game on the largest field, played to its end at
    the easiest level; its id."""
    return computer_game(services, height=MAX_HEIGHT, width=MAX_WIDTH)


def test_a_real_game_on_the_largest_field_is_within_every_bound_and_imports(
        db_url: str, services: Services, tmp_path: Path) -> None:
    game_id = _play_largest(services)
    text = services.admin.export_game(game_id)
    lines = text.encode().splitlines(keepends=True)
    assert len(lines) < MAX_EVENTS
    assert len(text.encode()) < MAX_STREAM_BYTES
    assert max(len(line) for line in lines) < MAX_LINE_BYTES
    allowances = {"line_placed": export_bounds.LINE_PLACED_BYTES,
                  "stage_advanced": export_bounds.STAGE_ADVANCED_BYTES,
                  "piece_inserted": export_bounds.PIECE_INSERTED_BYTES,
                  "move_explained": export_bounds.MOVE_EXPLAINED_BYTES,
                  "signature": export_bounds.SIGNATURE_BYTES}
    for line in lines[1:]:
        kind = json.loads(line)["type"]
        assert len(line) <= allowances.get(kind, export_bounds.ENDING_BYTES), line

    state = services.queries.get_state(game_id)
    services.admin.delete_game(game_id)
    path = tmp_path / "largest.jsonl"
    path.write_text(text, encoding="utf-8")
    outcome = _import(db_url, path, tmp_path)
    assert outcome.code == 0, outcome.stderr
    assert outcome.stderr == "imported ranked: signature valid (this instance)\n"
    assert outcome.peak_kib < MEMORY_LIMIT_KIB, outcome.peak_kib
    assert services.queries.get_state(outcome.stdout.strip()) == state
