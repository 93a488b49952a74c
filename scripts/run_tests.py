"""Run the whole test suite (called by `./dev test`).

Starts a throwaway PostgreSQL cluster when the server binaries are present, so
the storage suite runs on both databases, and a throwaway Redis server (for the
shared rate limits, `SQUARES_TEST_REDIS_URL`), then runs pytest and stops both.
The launchers are `squares_testing`'s (on the venv's path: `./dev` writes a .pth).
"""

from __future__ import annotations

import os
import sys

import pytest

from squares_testing.throwaway_postgres import throwaway_postgres
from squares_testing.throwaway_redis import throwaway_redis


def main(argv: list[str]) -> int:
    with throwaway_postgres() as url, throwaway_redis() as redis_url:
        if url:
            os.environ.setdefault("SQUARES_TEST_POSTGRES_URL", url)
            print(f"PostgreSQL for tests: {url}")
        else:
            print("PostgreSQL server binaries not found: storage tests run on SQLite only")
        if redis_url:
            os.environ.setdefault("SQUARES_TEST_REDIS_URL", redis_url)
            print(f"Redis for tests: {redis_url}")
        else:
            print("redis-server not found: the shared rate limit tests fail")
        return int(pytest.main(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
