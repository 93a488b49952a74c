"""The test command's throwaway PostgreSQL cluster starts, serves and is removed."""

from __future__ import annotations

from pathlib import Path

import psycopg

from squares_testing.throwaway_postgres import find_bindir, throwaway_postgres


def test_a_throwaway_cluster_serves_then_disappears() -> None:
    with throwaway_postgres() as url:
        if find_bindir() is None:
            assert url is None
            return
        assert url is not None and url.startswith("postgresql://") and "@127.0.0.1:" in url
        with psycopg.connect(url) as conn:
            assert conn.execute("SHOW server_encoding").fetchone()[0] == "UTF8"
            data_dir = Path(conn.execute("SHOW data_directory").fetchone()[0])
    assert not data_dir.exists()
