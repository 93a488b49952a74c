"""``squares serve``: a real server process (gunicorn, then the single-process
fallback) on a free loopback port answers /healthz."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cli.serve import ASGI_TARGET, WORKER_CLASS, gunicorn_argv
from service.store.migrations import head_revisions
from squares_testing.server import serving
from tests.cli.conftest import SQUARES, Run

STARTUP_SECONDS = 30


@pytest.mark.parametrize("extra", [["--workers", "1"], ["--no-gunicorn"]],
                         ids=["gunicorn", "single-process"])
def test_serve_answers_healthz(db_url: str, run: Run, extra: list[str],
                               tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    with serving(lambda port: [str(SQUARES), "--database-url", db_url, "serve", "--port",
                               str(port), *extra],
                 log_path=tmp_path / "server.log", env=env, timeout=STARTUP_SECONDS):
        pass  # /healthz answered 200
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
