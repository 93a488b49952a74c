"""A relative SQLite URL names one file, the one relative to the directory the command
was started in: for every command, and for ``squares serve``'s app workers,
which run in another directory (the repository root)."""

from __future__ import annotations

import os
import sqlite3
import uuid
from pathlib import Path

import pytest

from cli.context import AppContext
from service.ops.database_urls import absolute_sqlite_url
from service.ops.settings import REPO_ROOT, Settings
from squares_testing.client import ApiClient
from squares_testing.server import serving
from tests.cli.conftest import SQUARES, make_run


def count_games(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])


def test_serve_from_another_directory_with_a_relative_url(tmp_path: Path) -> None:
    name = f"rel-{uuid.uuid4().hex[:8]}.db"
    here = tmp_path / "elsewhere"
    here.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    log = tmp_path / "server.log"
    with serving(lambda port: [str(SQUARES), "--database-url", f"sqlite:///{name}", "serve",
                               "--port", str(port), "--workers", "1"],
                 log_path=log, env=env, cwd=here, live=True) as server:
        client = ApiClient(server.port)
        created = client.call("POST", "/api/games", {"player_name": "Ada", "height": 7,
                                                     "width": 7, "seed": 1})
        assert 200 <= created.status < 300, created.data
        moved = client.call("POST", f"/api/games/{created.data['game_id']}/advance", {},
                            token=created.data["token"])
        assert 200 <= moved.status < 300, moved.data
        client.close()
    strays = [Path(directory) / f"{name}{suffix}"
              for directory in (REPO_ROOT,)
              for suffix in ("", "-wal", "-shm")]
    made = [stray for stray in strays if stray.exists()]
    for stray in made:  # the bug's file in the checkout: gone again
        stray.unlink()
    assert count_games(here / name) == 1, log.read_text()
    assert made == []


def test_every_command_resolves_a_relative_path_in_its_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    run = make_run("sqlite:///data/rel.db")
    assert run("highscores", "add", "Ada", "7").exit_code == 0
    assert (tmp_path / "data" / "rel.db").is_file()
    monkeypatch.chdir(tmp_path / "data")
    assert AppContext("sqlite:///rel.db", Settings.from_env()).url == f"sqlite:///{tmp_path / 'data' / 'rel.db'}"
    assert "Ada" not in run("highscores", "list").stdout  # data/data/rel.db, a new file
    assert "Ada" in make_run("sqlite:///rel.db")("highscores", "list").stdout


@pytest.mark.parametrize(("url", "expected"), [
    ("sqlite:///rel.db", "sqlite:////base/rel.db"),
    ("sqlite:///sub/../rel.db?mode=rwc", "sqlite:////base/rel.db?mode=rwc"),
    ("sqlite+pysqlite:///./rel.db", "sqlite+pysqlite:////base/rel.db"),
    ("sqlite:////abs/x.db", "sqlite:////abs/x.db"),
    ("sqlite://", "sqlite://"),
    ("sqlite:///", "sqlite:///"),
    ("sqlite:///:memory:", "sqlite:///:memory:"),
    ("sqlite:///file:rel.db?uri=true", "sqlite:///file:rel.db?uri=true"),
    ("postgresql://u:pw@host/db", "postgresql://u:pw@host/db"),
    ("nonsense", "nonsense"),
])
def test_absolute_sqlite_url(url: str, expected: str) -> None:
    assert absolute_sqlite_url(url, Path("/base")) == expected


def test_a_directory_with_url_characters_stays_one_path() -> None:
    from sqlalchemy.engine import make_url

    url = absolute_sqlite_url("sqlite:///x.db?mode=ro", Path("/we?ird/100%"))
    assert make_url(url).database == "/we?ird/100%/x.db"
    assert dict(make_url(url).query) == {"mode": "ro"}
