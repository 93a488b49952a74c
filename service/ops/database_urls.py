"""Database URLs, parsed in one place: what SQLAlchemy is given (PostgreSQL through
psycopg 3), the file of a SQLite URL, and a relative SQLite path made absolute (the
store makes its folder and file, private: `service.store.private_files`)."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError


def sqlalchemy_url(url: str) -> str:
    """The URL SQLAlchemy should use: PostgreSQL always through psycopg 3."""
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def parse_url(url: str) -> URL | None:
    """`url` parsed by SQLAlchemy (None when it cannot be)."""
    try:
        return make_url(sqlalchemy_url(url))
    except (ArgumentError, ValueError):
        return None


def sqlite_file(url: str) -> str | None:
    """The file path of a SQLite URL as SQLite sees it (None: not SQLite, in memory,
    a ``file:`` URI, or no URL at all)."""
    parsed = parse_url(url)
    if parsed is None or parsed.get_backend_name() != "sqlite":
        return None
    database = parsed.database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return database


def _escape_for_url(path: str) -> str:
    # Only what would change the URL's meaning (`sqlite_file` reads it back unescaped).
    return path.replace("%", "%25").replace("?", "%3F")


def absolute_sqlite_url(url: str, cwd: Path | None = None) -> str:
    """`url` with a relative SQLite file path made absolute against `cwd` (default:
    the current directory): ``sqlite:///rel.db`` -> ``sqlite:////<cwd>/rel.db``.

    Absolute SQLite paths (``sqlite:////abs.db``), in-memory databases (``sqlite://``,
    ``sqlite:///:memory:``), ``file:`` URIs, PostgreSQL and unparsable URLs come back
    unchanged (the query string, if any, is kept)."""
    database = sqlite_file(url)
    if database is None or os.path.isabs(database):
        return url
    scheme, sep, rest = url.partition(":///")
    if not sep:
        return url
    raw_path, question, query = rest.partition("?")
    base = _escape_for_url(str(cwd if cwd is not None else Path.cwd()))
    return f"{scheme}:///{os.path.normpath(os.path.join(base, raw_path))}{question}{query}"
