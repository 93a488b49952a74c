"""Where the database and the migrations live.

The database: env ``DATABASE_URL``, else the SQLite file ``instance/squares.db`` —
in the repository when running from a checkout (``./dev``, ``pip install -e``), else
(an installed wheel, where the repository is gone) under the current directory of
the process, made absolute when this module is first imported.

The migrations: the Alembic script directory ``migrations/`` at the top of the
repository is also the top-level package ``migrations``, which a wheel installs next
to `service`; `MIGRATIONS_DIR` is wherever the import system finds that package.
"""

from __future__ import annotations

import importlib.util
import os
from datetime import timedelta
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from .ops.durations import parse_duration

REPO_ROOT = Path(__file__).resolve().parent.parent
"""The repository root in a checkout (in an installed wheel: site-packages)."""

FROM_CHECKOUT = (REPO_ROOT / "pyproject.toml").is_file()
"""Running from a source checkout (plain or editable install), not an installed wheel."""

INSTANCE_DIR = (REPO_ROOT if FROM_CHECKOUT else Path.cwd()) / "instance"
DEFAULT_SQLITE_PATH = INSTANCE_DIR / "squares.db"


def _migrations_dir() -> Path:
    """The directory of the installed (or checked-out) ``migrations`` package, found
    without importing it; the repository's ``migrations/`` when it is not importable
    (a checkout run without an install and without the repository on ``sys.path``)."""
    spec = importlib.util.find_spec("migrations")
    for location in (spec.submodule_search_locations or []) if spec else []:
        if (Path(location) / "env.py").is_file():
            return Path(location).resolve()
    return REPO_ROOT / "migrations"


MIGRATIONS_DIR = _migrations_dir()

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
    """``DATABASE_URL`` from the environment (a relative SQLite path made absolute
    against the current directory), else ``sqlite:///`` `DEFAULT_SQLITE_PATH`
    (``<repo>/instance/squares.db`` in a checkout, else ``<cwd>/instance/squares.db``)."""
    url = os.environ.get("DATABASE_URL", "").strip()
    return absolute_sqlite_url(url) if url else f"sqlite:///{DEFAULT_SQLITE_PATH}"


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
    # Only what would change the URL's meaning; `ensure_sqlite_dir` reads the raw path.
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


def ensure_sqlite_dir(url: str) -> None:
    """Create the directory of a SQLite database file on first use."""
    if not url.startswith("sqlite"):
        return
    _, _, path = url.partition(":///")
    path = path.split("?", 1)[0]
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)


INVITE_TTL_DEFAULT_SECONDS = 24 * 3600


def invite_ttl_seconds() -> int:
    """How long an online game's invitation can be claimed: env
    ``SQUARES_INVITE_TTL_SECONDS`` (default a day)."""
    raw = os.environ.get("SQUARES_INVITE_TTL_SECONDS", "").strip()
    try:
        seconds = int(raw) if raw else INVITE_TTL_DEFAULT_SECONDS
    except ValueError:
        raise ValueError(f"SQUARES_INVITE_TTL_SECONDS={raw!r} is not a number of seconds") from None
    if seconds < 1:
        raise ValueError("SQUARES_INVITE_TTL_SECONDS must be at least 1")
    return seconds


def trusted_proxies(raw: str) -> int:
    """How many proxies in front of the server to trust for the client's address,
    scheme and host (``X-Forwarded-*``), from `raw` (``SQUARES_TRUSTED_PROXIES``;
    empty or 0: the socket's peer is the client, no forwarded header changes that)."""
    raw = raw.strip()
    if not raw:
        return 0
    if not raw.isdigit() or int(raw) > 10:
        raise ValueError(f"SQUARES_TRUSTED_PROXIES={raw!r} is not a number of proxies (0-10)")
    return int(raw)


# -- retention (see `service.domain.retention` and `service.services.retention`) -----

ABANDON_AFTER_DEFAULT = "7d"
ACTIVE_GAMES_PER_CLIENT_DEFAULT = 20
CLIENT_SALT_DEFAULT = "squares-client-address"
"""Only for a server without ``SQUARES_CLIENT_SALT``: set a secret of your own, or
whoever reads the database can recover addresses from their hashes by trying all."""


def abandon_after() -> timedelta:
    """How long an unfinished game may go untouched before it is abandoned: env
    ``SQUARES_ABANDON_AFTER``, a duration (``45m``, ``12h``, ``7d``, ``2w``) or a number
    of seconds; default 7 days, at least a minute."""
    raw = os.environ.get("SQUARES_ABANDON_AFTER", "").strip() or ABANDON_AFTER_DEFAULT
    try:
        duration = parse_duration(raw, seconds=True)
    except ValueError as exc:
        raise ValueError(f"SQUARES_ABANDON_AFTER: {exc}") from None
    if duration < timedelta(minutes=1):
        raise ValueError("SQUARES_ABANDON_AFTER must be at least a minute")
    return duration


def active_games_per_client() -> int:
    """How many active games one client address may have created through the API:
    env ``SQUARES_ACTIVE_GAMES_PER_CLIENT`` (default 20; 0: no cap)."""
    raw = os.environ.get("SQUARES_ACTIVE_GAMES_PER_CLIENT", "").strip()
    if not raw:
        return ACTIVE_GAMES_PER_CLIENT_DEFAULT
    if not raw.isdigit() or len(raw) > 9:
        raise ValueError(f"SQUARES_ACTIVE_GAMES_PER_CLIENT={raw!r} is not a number of games")
    return int(raw)


def client_salt() -> str:
    """The secret key of the client address hashes (``SQUARES_CLIENT_SALT``); the same
    on every instance, or the cap counts per instance."""
    return os.environ.get("SQUARES_CLIENT_SALT", "") or CLIENT_SALT_DEFAULT


METRICS_HOST_DEFAULT = "127.0.0.1"  # loopback: a scraper on the same host or a sidecar


def metrics_port() -> int | None:
    """Where ``squares serve`` serves Prometheus metrics: env ``SQUARES_METRICS_PORT``
    (unset or empty: none are served)."""
    raw = os.environ.get("SQUARES_METRICS_PORT", "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise ValueError(f"SQUARES_METRICS_PORT={raw!r} is not a TCP port (1 to 65535)")
    return int(raw)


def metrics_host() -> str:
    """The address the metrics listen on: env ``SQUARES_METRICS_HOST`` (default
    127.0.0.1)."""
    return os.environ.get("SQUARES_METRICS_HOST", "").strip() or METRICS_HOST_DEFAULT


# -- signed exports (see `service.export_keys` and `service.domain.signing`) ----------

EXPORT_KEY_FILE_NAME = "export.key"
EXPORT_KEY_MIN = 16  # characters of a secret given in a setting


def export_key() -> str | None:
    """This instance's export secret: env ``SQUARES_EXPORT_KEY`` (the same on every
    instance of one service), or None to use the key file."""
    raw = os.environ.get("SQUARES_EXPORT_KEY", "").strip()
    if raw and len(raw) < EXPORT_KEY_MIN:
        raise ValueError(f"SQUARES_EXPORT_KEY has fewer than {EXPORT_KEY_MIN} characters")
    return raw or None


def export_key_file() -> Path:
    """Where the export secret is kept when no setting gives it: env
    ``SQUARES_EXPORT_KEY_FILE``, else ``export.key`` in the instance directory."""
    raw = os.environ.get("SQUARES_EXPORT_KEY_FILE", "").strip()
    return Path(raw) if raw else INSTANCE_DIR / EXPORT_KEY_FILE_NAME


def trusted_export_keys() -> list[str]:
    """Other instances' export secrets whose signed exports import as ranked: env
    ``SQUARES_TRUSTED_EXPORT_KEYS``, separated by commas."""
    raw = os.environ.get("SQUARES_TRUSTED_EXPORT_KEYS", "")
    keys = [key.strip() for key in raw.split(",") if key.strip()]
    if any(len(key) < EXPORT_KEY_MIN for key in keys):
        raise ValueError(f"SQUARES_TRUSTED_EXPORT_KEYS: each key has at least "
                         f"{EXPORT_KEY_MIN} characters")
    return keys
