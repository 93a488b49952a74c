"""``./dev test``'s two pytest passes (scripts/run_tests.py): the user's arguments go to
both, a ``-m`` of theirs narrows both, the serial pass runs in one process (on the
files where the first pass left serial tests out, tests/conftest.py notes them), and
the exit status is the first failure's (no test selected in one pass is none)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "run_tests.py"


@pytest.fixture(scope="module")
def run_tests() -> ModuleType:
    spec = importlib.util.spec_from_file_location("run_tests", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_whole_suite_runs_on_two_workers_then_the_serial_tests_alone(
        run_tests: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_tests.os, "sched_getaffinity", lambda pid: {0, 1, 2, 3})
    assert run_tests.passes([]) == [
        ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder", "-m", "not serial"],
        ["-m", "serial", "-n", "0"]]


def test_one_core_runs_the_first_pass_in_one_process(run_tests: ModuleType,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_tests.os, "sched_getaffinity", lambda pid: {0})
    assert run_tests.passes([])[0][:2] == ["-n", "0"]


@pytest.mark.parametrize(("args", "first", "second"), [
    (["tests/api", "-k", "foo"], ["tests/api", "-k", "foo", "-m", "not serial"],
     ["tests/api", "-k", "foo", "-m", "serial", "-n", "0"]),
    (["-m", "not e2e", "-x"], ["-x", "-m", "(not e2e) and not serial"],
     ["-x", "-m", "(not e2e) and serial", "-n", "0"]),
    (["-mslow"], ["-m", "(slow) and not serial"], ["-m", "(slow) and serial", "-n", "0"]),
    (["-n", "4"], ["-n", "4", "-m", "not serial"], ["-n", "4", "-m", "serial", "-n", "0"]),
])
def test_the_users_arguments_go_to_both_passes(run_tests: ModuleType, args: list[str],
                                               first: list[str], second: list[str]) -> None:
    parallel, serial = run_tests.passes(args)
    own = run_tests.worker_count(args)
    assert parallel == own + first  # the user's -n, after the own one, wins
    assert serial == second  # the last -n (0) wins: one process


@pytest.mark.parametrize("args", [["--pdb"], ["-p", "no:xdist"]])
def test_without_workers_when_xdist_cannot_or_may_not_run(run_tests: ModuleType,
                                                          args: list[str]) -> None:
    parallel, serial = run_tests.passes(args)
    assert "-n" not in parallel
    assert ("-n" in serial) == ("--pdb" in args)  # without xdist no -n at all


def test_without_arguments_the_serial_pass_collects_the_noted_files_only(
        run_tests: ModuleType) -> None:
    files = ["/r/tests/a.py", "/r/tests/b.py"]
    assert run_tests.passes([], files)[1] == [*files, "-m", "serial", "-n", "0"]
    # the user's arguments choose what is collected: as given
    assert run_tests.passes(["-x"], files)[1] == ["-x", "-m", "serial", "-n", "0"]


def test_the_first_pass_notes_the_files_of_the_serial_tests_it_leaves_out(
        run_tests: ModuleType, tmp_path: Path) -> None:
    noted = tmp_path / "noted"
    target = REPO / "tests" / "storage" / "test_store_fast_paths.py"  # one serial test
    env = {**os.environ, run_tests.SERIAL_FILES_VAR: str(noted)}
    done = subprocess.run([sys.executable, "-m", "pytest", "--co", "-q", "-p", "no:cacheprovider",
                           "-m", "not serial", str(target)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert noted.read_text().splitlines() == [str(target)]


@pytest.mark.parametrize(("code", "args", "second"), [
    (0, [], True), (5, [], True), (1, [], True), (1, ["-x"], False), (2, [], False),
    (3, [], False), (4, [], False)])
def test_the_second_pass_runs_unless_the_first_was_stopped(
        run_tests: ModuleType, code: int, args: list[str], second: bool) -> None:
    assert run_tests.goes_on(code, args) == second


@pytest.mark.parametrize(("codes", "status"), [
    ([0, 0], 0), ([0, 5], 0), ([5, 0], 0), ([5, 5], 5), ([1, 0], 1), ([0, 1], 1),
    ([5, 1], 1), ([2], 2), ([4], 4),
])
def test_the_exit_status_is_the_first_failure(run_tests: ModuleType, codes: list[int],
                                              status: int) -> None:
    assert run_tests.combined(codes) == status


def test_the_waiting_files_are_spread_among_the_browser_files() -> None:
    """The first pass's order (`tests.conftest.spread_waiting_files`): each file of
    tests/live/ after every few of tests/e2e/, every item kept, each file's together."""
    from types import SimpleNamespace

    from tests.conftest import spread_waiting_files

    names = ["api/a", *(f"e2e/e{n}" for n in range(1, 7)), "live/l1", "live/l2", "unit/u"]
    items: Any = [SimpleNamespace(path=Path(f"/repo/tests/{name}.py"), n=n)
                  for name in names for n in range(2)]
    ordered = spread_waiting_files(items)
    files = [str(item.path).removeprefix("/repo/tests/").removesuffix(".py")
             for item in ordered[::2]]
    assert files == ["api/a", "e2e/e1", "e2e/e2", "live/l1", "e2e/e3", "e2e/e4", "live/l2",
                     "e2e/e5", "e2e/e6", "unit/u"]
    assert sorted(map(id, ordered)) == sorted(map(id, items))
    assert all(a.path == b.path and (a.n, b.n) == (0, 1)
               for a, b in zip(ordered[::2], ordered[1::2], strict=True))
