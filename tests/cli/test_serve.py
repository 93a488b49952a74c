"""``squares serve``: a real server process (gunicorn, then the single-process
fallback) on a free loopback port answers /healthz."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from cli.serve import ASGI_TARGET, WORKER_CLASS, gunicorn_argv
from service.store.migrations import head_revisions
from tests.cli.conftest import SQUARES, Run

STARTUP_SECONDS = 30


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_health(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as resp:
                if resp.status == 200:
                    json.loads(resp.read().decode("utf-8"))
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    pytest.fail(f"/healthz did not answer 200 within {STARTUP_SECONDS} s:\n{log.read_text()}")


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@pytest.mark.parametrize("extra", [["--workers", "1"], ["--no-gunicorn"]],
                         ids=["gunicorn", "single-process"])
def test_serve_answers_healthz(db_url: str, run: Run, extra: list[str],
                               tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(SQUARES), "--database-url", db_url, "serve", "--port", str(port), *extra],
            stdout=out, stderr=subprocess.STDOUT, env=env,
        )
    try:
        wait_for_health(port, process, log)
    finally:
        stop(process)
    assert run("db", "current").stdout == f"{head_revisions()[0]} (head)\n"  # serve migrated the database


def test_gunicorn_command_line() -> None:
    argv = gunicorn_argv("0.0.0.0", 8000, 3)
    assert argv[1:3] == ["-m", "gunicorn"]
    assert argv[argv.index("--workers") + 1] == "3"
    assert argv[argv.index("--bind") + 1] == "0.0.0.0:8000"
    assert argv[argv.index("--worker-class") + 1] == WORKER_CLASS == "service.server.Worker"
    assert argv[-1] == ASGI_TARGET == "service.asgi:create_asgi_app()"


def test_serve_refuses_a_bad_port(run: Run) -> None:
    assert run("serve", "--port", "70000").exit_code == 2
    assert run("serve", "--workers", "0").exit_code == 2


@pytest.mark.parametrize(("env", "says"), [
    ({"SQUARES_LOG_FORMAT": "yaml"}, "SQUARES_LOG_FORMAT must be one of text, json"),
    ({"SQUARES_METRICS_PORT": "http"}, "is not a TCP port"),
    ({"SQUARES_METRICS_PORT": "5000"}, "is the app's own port"),
])
def test_serve_refuses_bad_log_and_metrics_settings_before_it_starts(
        run: Run, monkeypatch: pytest.MonkeyPatch, env: dict[str, str], says: str) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    done = run("serve", "--port", "5000")
    assert done.exit_code == 2 and says in done.stderr


def test_the_gunicorn_master_gets_the_metrics_hooks() -> None:
    argv = gunicorn_argv("127.0.0.1", 8000, 2)
    assert argv[argv.index("--config") + 1] == "python:service.gunicorn_conf"
