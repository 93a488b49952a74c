"""``squares serve``: the node's processes on free loopback ports (the app server, the
streams server, the analyst), their command lines, their settings checks, and a stop
that takes seconds."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from service.ops import live_url
from service.serve import app_server, streams_server, supervisor
from service.store.migrations import head_revisions
from squares_testing.client import ApiClient
from squares_testing.net import free_port, http_get_status
from squares_testing.processes import child_pids
from squares_testing.server import serving
from tests.cli.conftest import SQUARES, Run

STARTUP_SECONDS = 30


def _serve(db_url: str, tmp_path: Path, *extra: str):  # type: ignore[no-untyped-def]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", live_url.ENV)}
    return serving(lambda port: [str(SQUARES), "--database-url", db_url, "serve", "--port",
                                 str(port), *extra],
                   log_path=tmp_path / "server.log", env=env, timeout=STARTUP_SECONDS,
                   live=True)


def test_serve_runs_the_app_the_streams_and_the_analyst(db_url: str, run: Run,
                                                        tmp_path: Path) -> None:
    with _serve(db_url, tmp_path, "--workers", "1") as server:  # both /healthz answered
        names = [" ".join(_cmdline(pid)) for pid in child_pids(server.master_pid)]
        assert sum("granian" in n and app_server.FACTORY in n for n in names) == 1
        assert sum("service.serve.streams_server" in n for n in names) == 1
        assert sum("service.serve.analyst_process" in n for n in names) == 1
        assert len(server.wait_workers(1)) == 1
        # the pages are told where the streams are: the page's host at the live port
        page = ApiClient(server.port).call("GET", "/", headers={"Accept": "text/html"})
        assert f'content="http://127.0.0.1:{server.live_port}"'.encode() in page.body
        assert f"connect-src 'self' http://127.0.0.1:{server.live_port};" in \
            page.headers["content-security-policy"]
    assert run("db", "current").stdout == f"{head_revisions()[0]} (head)\n"  # migrated


def test_sigterm_stops_every_process_within_seconds(db_url: str, tmp_path: Path) -> None:
    with _serve(db_url, tmp_path) as server:
        processes = server.processes()
        started = time.monotonic()
        os.kill(server.master_pid, signal.SIGTERM)
        assert server.proc.wait(timeout=15) == 0
        assert time.monotonic() - started < 10
        assert not any(Path(f"/proc/{pid}").exists() and _cmdline(pid) for pid in processes)


def test_ctrl_c_reaches_serve_alone_and_stops_every_process_in_time(
        db_url: str, tmp_path: Path) -> None:
    """A terminal's Ctrl-C signals the whole foreground group. The children are in
    groups of their own, so each gets one stop, from ``squares serve``: granian's
    workers that got the terminal's SIGINT and then their master's SIGTERM sometimes
    never ended, until granian killed them 3 s later (service/serve/supervisor.py).
    (granian's "Killing worker-N" line alone proves nothing: on a busy machine it is
    also written for a worker that had already stopped.)"""
    with _serve(db_url, tmp_path) as server:
        server.wait_workers_idle()  # a stop while a worker loads is late_stop.py's
        processes = server.processes()
        assert len(processes) >= 6  # serve, granian and its 2 workers, streams, analyst
        assert all(os.getpgid(pid) != server.master_pid for pid in processes[1:])
        started = time.monotonic()
        os.killpg(server.master_pid, signal.SIGINT)
        assert server.proc.wait(timeout=15) == 0
        took = time.monotonic() - started
        assert not any(Path(f"/proc/{pid}").exists() and _cmdline(pid) for pid in processes)
    assert took < app_server.STOP_GRACE_S, (took, server.log_tail())


@pytest.mark.serial  # the app loads well within the kill timeout only on a quiet machine
def test_sigterm_while_the_app_workers_load_stops_them_without_a_kill(
        sqlite_database_url: str, tmp_path: Path) -> None:
    """granian installs a worker's stop handler once the app is loaded: a SIGTERM that
    came before was lost, and the worker waited to be killed (service/serve/late_stop.py)."""
    port = free_port()
    log = tmp_path / "granian.log"
    with log.open("wb") as output:
        proc = subprocess.Popen(app_server.command("127.0.0.1", port), stdout=output,
                                stderr=subprocess.STDOUT,
                                env={**os.environ, "DATABASE_URL": sqlite_database_url})
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while len(child_pids(proc.pid)) < app_server.WORKERS:
            assert time.monotonic() < deadline and proc.poll() is None, log.read_text()
            time.sleep(0.01)
        # Into the app's import (about 1 s), past the fork: a signal in the few ms
        # between the fork and the factory is still lost (granian's master's handler).
        time.sleep(0.2)
        assert http_get_status(port, "/healthz", timeout=0.2) is None  # still loading
        started = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
        took = time.monotonic() - started
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "refused to gracefully stop" not in log.read_text(), log.read_text()
    assert took < app_server.STOP_GRACE_S, took


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
    except OSError:
        return []


def test_an_app_worker_hides_what_it_loaded_from_the_cyclic_collector(
        tmp_path: Path) -> None:
    """`app_server.create` (granian's factory, in each worker) freezes what it loaded,
    so that the collector's full collections do not walk it on every run."""
    probe = ("import gc; from service.serve import app_server; app_server.create(); "
             "print(gc.get_freeze_count(), len(gc.get_objects(generation=2)))")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'w.db'}"}
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           env=env, check=True, timeout=60)
    frozen, oldest = (int(n) for n in found.stdout.split())
    assert frozen > 50_000 and oldest < 1_000, found.stdout


def test_the_streams_server_keeps_its_streams_out_of_full_collections(
        tmp_path: Path) -> None:
    """`streams_server.create` (granian's factory, in its worker) freezes what it
    loaded and collects young every 50,000 allocations: with Python's (700, 10, 10) a
    stream's wait reached the oldest generation and full collections stalled every
    delivery."""
    probe = ("import gc; from service.serve import streams_server; streams_server.create(); "
             "print(*gc.get_threshold(), gc.get_freeze_count())")
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 's.db'}"}
    found = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                           env=env, check=True, timeout=60)
    young, middle, old, frozen = (int(n) for n in found.stdout.split())
    assert (young, middle, old) == streams_server.GC_THRESHOLDS == (50_000, 20, 10)
    assert frozen > 20_000, found.stdout


def test_the_app_servers_command_line() -> None:
    argv = app_server.command("0.0.0.0", 8000, 3, 6)
    assert argv[1:3] == ["-m", "granian"]
    assert argv[argv.index("--interface") + 1] == "wsgi"
    assert argv[argv.index("--factory") + 1] == "service.serve.app_server:create"
    assert argv[argv.index("--workers") + 1] == "3"
    assert argv[argv.index("--blocking-threads") + 1] == "6"
    assert argv[argv.index("--runtime-mode") + 1] == "st"  # the cheaper runtime here
    assert argv[argv.index("--host") + 1] == "0.0.0.0"
    assert argv[argv.index("--port") + 1] == "8000"
    assert argv[argv.index("--http1-header-read-timeout") + 1] == "10000"


def test_a_server_that_exits_stops_the_node_and_a_helper_is_started_again(
        tmp_path: Path) -> None:
    marks = tmp_path / "helper-starts"
    helper = [sys.executable, "-c", f"open({str(marks)!r}, 'a').write('x')"]
    server = [sys.executable, "-c", "import time; time.sleep(2.5); raise SystemExit(3)"]
    node = supervisor.Supervisor([supervisor.Child("server", server),
                                  supervisor.Child("helper", helper, helper=True)])
    assert node.run() == 3
    assert len(marks.read_text()) >= 2  # the helper exited and was started again


def test_serve_refuses_bad_ports(run: Run) -> None:
    assert run("serve", "--port", "70000").exit_code == 2
    assert run("serve", "--workers", "0").exit_code == 2
    done = run("serve", "--port", "5000", "--live-port", "5000")
    assert done.exit_code == 2 and "is the app's own port" in done.stderr


@pytest.mark.parametrize(("env", "says"), [
    ({"SQUARES_LOG_FORMAT": "yaml"}, "SQUARES_LOG_FORMAT='yaml': one of text, json"),
    ({"SQUARES_METRICS_PORT": "http"}, "SQUARES_METRICS_PORT='http': a TCP port"),
    ({"SQUARES_METRICS_PORT": "5000"}, "is a port of the app or its streams"),
    ({"SQUARES_METRICS_PORT": "5001"}, "is a port of the app or its streams"),
    ({"SQUARES_LIVE_URL": "live.example.com"}, "SQUARES_LIVE_URL='live.example.com'"),
    ({"SQUARES_ANALYST": "yes"}, "SQUARES_ANALYST='yes'"),
])
def test_serve_refuses_bad_settings_before_it_starts(
        run: Run, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], says: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    done = run("serve", "--port", "5000")
    assert done.exit_code == 2 and says in done.stderr


@pytest.mark.parametrize("host", ["0.0.0.0", "192.168.1.20", "::"])
def test_serve_for_other_machines_needs_the_hosts_they_name(
        run: Run, monkeypatch: pytest.MonkeyPatch, host: str) -> None:
    """Bound beyond loopback with neither SQUARES_PUBLIC_URL nor SQUARES_TRUSTED_HOSTS,
    every request from another machine would be a 400: it does not start."""
    monkeypatch.delenv("SQUARES_PUBLIC_URL", raising=False)
    monkeypatch.delenv("SQUARES_TRUSTED_HOSTS", raising=False)
    done = run("serve", "--host", host, "--port", "5000")
    assert done.exit_code == 2 and "SQUARES_TRUSTED_HOSTS" in done.stderr
    monkeypatch.setenv("SQUARES_TRUSTED_HOSTS", "squares.example:80")  # still checked first
    done = run("serve", "--host", host, "--port", "5000")
    assert done.exit_code == 2 and "SQUARES_TRUSTED_HOSTS='squares.example:80'" in done.stderr


@pytest.mark.parametrize(("setting", "page_host", "origin"), [
    ("", "example.org:5000", ""),
    ("same-origin", "example.org", ""),
    (":5001", "example.org:5000", "http://example.org:5001"),
    (":5001", "[::1]:5000", "http://[::1]:5001"),
    ("https://live.example.org", "example.org", "https://live.example.org"),
])
def test_the_live_streams_origin(setting: str, page_host: str, origin: str) -> None:
    assert live_url.origin_for(live_url.check(setting), "http", page_host) == origin
