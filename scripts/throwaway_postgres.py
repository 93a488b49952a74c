"""A throwaway PostgreSQL cluster in a temp dir on a free loopback port (placeholder)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[str | None]:
    yield None
