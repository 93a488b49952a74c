"""Run the whole test suite (called by `./dev test`).

Starts a throwaway PostgreSQL cluster when the server binaries are present, so
the storage suite runs on both databases, then runs pytest and stops the cluster.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))


def main(argv: list[str]) -> int:
    from throwaway_postgres import throwaway_postgres

    with throwaway_postgres() as url:
        if url:
            os.environ.setdefault("SQUARES_TEST_POSTGRES_URL", url)
            print(f"PostgreSQL for tests: {url}")
        else:
            print("PostgreSQL server binaries not found: storage tests run on SQLite only")
        return int(pytest.main(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
