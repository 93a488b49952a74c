"""Where the database lives: env ``DATABASE_URL`` or the SQLite default file."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
INSTANCE_DIR = REPO_ROOT / "instance"
DEFAULT_SQLITE_PATH = INSTANCE_DIR / "squares.db"
MIGRATIONS_DIR = REPO_ROOT / "migrations"

# RULES E2: the high score table of a new database (created by the first migration).
DEFAULT_HIGH_SCORES: tuple[tuple[str, int], ...] = (
    ("Eda Fırat", 200),
    ("Tarık Yolcu", 325),
    ("Sinem Okur", 153),
    ("Ali Okyanus", 26),
    ("Deniz Vadi", 85),
)
DEFAULT_HIGH_SCORE_DIFFICULTY = "default"


def database_url() -> str:
    """``DATABASE_URL`` from the environment, else ``sqlite:///<repo>/instance/squares.db``."""
    url = os.environ.get("DATABASE_URL", "").strip()
    return url or f"sqlite:///{DEFAULT_SQLITE_PATH}"


def sqlalchemy_url(url: str) -> str:
    """The URL SQLAlchemy should use: PostgreSQL always through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def ensure_sqlite_dir(url: str) -> None:
    """Create the directory of a SQLite database file on first use."""
    if not url.startswith("sqlite"):
        return
    _, _, path = url.partition(":///")
    path = path.split("?", 1)[0]
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
