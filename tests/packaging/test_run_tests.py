"""``./dev test``'s two pytest passes (scripts/run_tests.py): the user's arguments go to
both, a ``-m`` of theirs narrows both, the serial pass runs in one process, and the
exit status is the first failure's (no test selected in one pass is none)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "run_tests.py"


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
    assert run_tests.passes([]) == [["-n", "2", "--dist", "loadfile", "-m", "not serial"],
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


@pytest.mark.parametrize(("codes", "status"), [
    ([0, 0], 0), ([0, 5], 0), ([5, 0], 0), ([5, 5], 5), ([1, 0], 1), ([0, 1], 1),
    ([5, 1], 1), ([2], 2), ([4], 4),
])
def test_the_exit_status_is_the_first_failure(run_tests: ModuleType, codes: list[int],
                                              status: int) -> None:
    assert run_tests.combined(codes) == status
