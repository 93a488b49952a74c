"""Every setting of the service, read once from the environment and checked there.

`Settings.from_env()` is the one place that reads ``os.environ``: each process reads
its settings when it starts (``squares serve``'s children get theirs from the
environment it gives them), and passes them down. A value that cannot be used is a
`SettingError` naming the setting, so a bad one stops a start, never a request.
Tests and tools override settings by name (``from_env(SQUARES_LIVE_MAX_S=0)``).

The database, unless ``DATABASE_URL`` names one: the SQLite file
``instance/squares.db``, in the repository when running from a checkout (``./dev``,
``pip install -e``), else (an installed wheel) under the current directory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import timedelta
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from . import hosts, live_url
from .database_urls import absolute_sqlite_url
from .durations import parse_duration

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
"""The repository root in a checkout (in an installed wheel: site-packages)."""
FROM_CHECKOUT = (REPO_ROOT / "pyproject.toml").is_file()
INSTANCE_DIR = (REPO_ROOT if FROM_CHECKOUT else Path.cwd()) / "instance"
DEFAULT_SQLITE_PATH = INSTANCE_DIR / "squares.db"
EXPORT_KEY_MIN = 16  # characters of a secret given in a setting
DEFAULT_BASE_URL = "http://127.0.0.1:5000"  # the web server `squares serve` starts
CLIENT_SALT_DEFAULT = "squares-client-address"
"""Only for a server without ``SQUARES_CLIENT_SALT``: set a secret of your own, or
whoever reads the database can recover addresses from their hashes by trying all."""

T = TypeVar("T")


EXTENSION = "squares_settings"  # an app's settings: app.extensions[EXTENSION]


def of_app(app: Any) -> Settings:
    """The settings a Flask app was made with."""
    settings: Settings = app.extensions[EXTENSION]
    return settings


class SettingError(ValueError):
    """A setting that cannot be used; the message names it and says why."""


class _Reader:
    """The environment (with the overrides), read one setting at a time."""

    def __init__(self, environ: Mapping[str, str], overrides: Mapping[str, object]) -> None:
        self.values = {**environ, **{k: str(v) for k, v in overrides.items()}}

    def raw(self, name: str, default: str = "") -> str:
        return self.values.get(name, "").strip() or default

    def get(self, name: str, default: str, parse: Callable[[str], T], expected: str) -> T:
        text = self.raw(name, default)
        try:
            return parse(text)
        except (TypeError, ValueError) as exc:
            reason = str(exc) if isinstance(exc, SettingError) else expected
            raise SettingError(f"{name}={text!r}: {reason}") from None

    def number(self, name: str, default: float, low: float, high: float, unit: str) -> float:
        def parse(text: str) -> float:
            value = float(text)
            if not low <= value <= high:
                raise ValueError
            return value
        return self.get(name, str(default), parse, f"a number of {unit} from {low:g} to {high:g}")

    def whole(self, name: str, default: int, low: int, high: int, unit: str) -> int:
        def parse(text: str) -> int:
            if not text.isdigit() or not low <= int(text) <= high:
                raise ValueError
            return int(text)
        return self.get(name, str(default), parse, f"a number of {unit} from {low} to {high}")

    def flag(self, name: str, default: bool) -> bool:
        def parse(text: str) -> bool:
            if text not in ("0", "1"):
                raise ValueError
            return text == "1"
        return self.get(name, "1" if default else "0", parse, "1 (on) or 0 (off)")

    def choice(self, name: str, default: str, choices: tuple[str, ...]) -> str:
        def parse(text: str) -> str:
            if text not in choices:
                raise ValueError
            return text
        return self.get(name, default, parse, f"one of {', '.join(choices)}")


@dataclass(frozen=True)
class RateLimitSettings:
    create: str = "30 per minute"  # SQUARES_LIMIT_CREATE: games created, seats claimed
    hint: str = "60 per minute"  # SQUARES_LIMIT_HINT
    move: str = "300 per minute"  # SQUARES_LIMIT_MOVE: lines, advances, computer turns,
    # resignations and aborts
    # SQUARES_LIMIT_SIGN_IN: each passkey step (claim, sign in, recovery, new passkey),
    # counted per address and, apart, per name (`service.http.limits`)
    sign_in: str = "10 per minute"
    storage_uri: str = "memory://"  # SQUARES_RATELIMIT_STORAGE_URI (redis://: shared)
    enabled: bool = True  # SQUARES_RATELIMIT_ENABLED
    fallback: bool = True  # SQUARES_RATELIMIT_FALLBACK: count in memory while it is down
    storage_timeout_s: float = 0.5  # SQUARES_RATELIMIT_STORAGE_TIMEOUT


@dataclass(frozen=True)
class LiveSettings:
    per_client: int = 8  # SQUARES_LIVE_PER_CLIENT: open streams per address and process
    total: int = 5000  # SQUARES_LIVE_TOTAL: per process
    heartbeat_s: float = 15.0  # SQUARES_LIVE_HEARTBEAT_S
    max_s: float = 3600.0  # SQUARES_LIVE_MAX_S: then the client reconnects
    write_timeout_s: float = 30.0  # SQUARES_LIVE_WRITE_TIMEOUT_S


@dataclass(frozen=True)
class Settings:
    database_url: str  # DATABASE_URL
    public_url: str = ""  # SQUARES_PUBLIC_URL: where players reach the site
    trusted_proxies: int = 0  # SQUARES_TRUSTED_PROXIES
    # SQUARES_TRUSTED_HOSTS (`service.ops.hosts`): the Host names requests may use
    trusted_hosts: hosts.TrustedHosts = hosts.LOOPBACK
    live_url: str = ""  # SQUARES_LIVE_URL (`service.ops.live_url`)
    client_salt: str = CLIENT_SALT_DEFAULT  # SQUARES_CLIENT_SALT
    abandon_after: timedelta = timedelta(days=7)  # SQUARES_ABANDON_AFTER
    active_games_per_client: int = 20  # SQUARES_ACTIVE_GAMES_PER_CLIENT (0: no cap)
    invite_ttl_seconds: int = 24 * 3600  # SQUARES_INVITE_TTL_SECONDS
    session_lifetime: timedelta = timedelta(days=30)  # SQUARES_SESSION_LIFETIME
    # how long a forgotten player's name stays out of everyone's reach
    forgotten_name_hold: timedelta = timedelta(days=30)  # SQUARES_FORGOTTEN_NAME_HOLD
    sweep_interval_s: float = 300.0  # SQUARES_SWEEP_INTERVAL_S (0: no sweep)
    analyst: bool = True  # SQUARES_ANALYST: squares serve runs the analyst
    log_format: str = "text"  # SQUARES_LOG_FORMAT: text or json
    metrics_port: int | None = None  # SQUARES_METRICS_PORT (none: no metrics served)
    metrics_host: str = "127.0.0.1"  # SQUARES_METRICS_HOST
    metrics_dir: str | None = None  # PROMETHEUS_MULTIPROC_DIR (squares serve sets it)
    sqlite_synchronous: str = "FULL"  # SQUARES_SQLITE_SYNCHRONOUS
    header_timeout_s: float = 10.0  # SQUARES_HEADER_TIMEOUT_S (the app server's)
    export_key: str | None = None  # SQUARES_EXPORT_KEY (else the key file)
    export_key_file: Path = INSTANCE_DIR / "export.key"  # SQUARES_EXPORT_KEY_FILE
    trusted_export_keys: tuple[str, ...] = ()  # SQUARES_TRUSTED_EXPORT_KEYS, commas
    # the daily challenge's seeds (`services.daily`): the setting, else the key file
    daily_secret: str | None = None  # SQUARES_DAILY_SECRET
    daily_secret_file: Path = INSTANCE_DIR / "daily.key"  # SQUARES_DAILY_SECRET_FILE
    live_poll_ms: int = 5000  # SQUARES_LIVE_POLL_MS: how often /live asks what is new
    limits: RateLimitSettings = field(default_factory=RateLimitSettings)
    live: LiveSettings = field(default_factory=LiveSettings)
    # the CLI's own
    tokens_file: Path | None = None  # SQUARES_TOKENS_FILE, else under XDG_DATA_HOME
    data_home: Path = Path.home() / ".local" / "share"  # XDG_DATA_HOME
    tui_delay_s: float = 0.12  # SQUARES_TUI_DELAY: the cursor UI's pause between moves
    base_url: str = DEFAULT_BASE_URL  # SQUARES_BASE_URL: the web server invite links name
    terminal: str = "dumb"  # TERM

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None,
                 **overrides: object) -> Settings:
        """The settings of the environment (`environ`, default ``os.environ``) with
        `overrides` by setting name; `SettingError` for the first bad one."""
        read = _Reader(os.environ if environ is None else environ, overrides)
        public_url = read.get("SQUARES_PUBLIC_URL", "", _public_url,
                              "an http(s) URL such as https://squares.example")
        metrics_port = read.raw("SQUARES_METRICS_PORT")
        return cls(
            database_url=absolute_sqlite_url(
                read.raw("DATABASE_URL", f"sqlite:///{DEFAULT_SQLITE_PATH}")),
            public_url=public_url,
            trusted_proxies=read.whole("SQUARES_TRUSTED_PROXIES", 0, 0, 10, "proxies"),
            trusted_hosts=read.get("SQUARES_TRUSTED_HOSTS", "",
                                   lambda text: _trusted_hosts(text, public_url),
                                   "host names, .domains or addresses, separated by commas"),
            live_url=read.get("SQUARES_LIVE_URL", "", live_url.check, "see SQUARES_LIVE_URL"),
            client_salt=read.raw("SQUARES_CLIENT_SALT", CLIENT_SALT_DEFAULT),
            abandon_after=read.get("SQUARES_ABANDON_AFTER", "7d", _retention,
                                   "a duration such as 45m, 12h, 7d or 2w, at least 1m"),
            active_games_per_client=read.whole("SQUARES_ACTIVE_GAMES_PER_CLIENT", 20, 0,
                                               10**9, "games"),
            invite_ttl_seconds=read.whole("SQUARES_INVITE_TTL_SECONDS", 24 * 3600, 1,
                                          10**9, "seconds"),
            session_lifetime=read.get("SQUARES_SESSION_LIFETIME", "30d", _retention,
                                      "a duration such as 12h, 30d or 8w, at least 1m"),
            forgotten_name_hold=read.get("SQUARES_FORGOTTEN_NAME_HOLD", "30d", _retention,
                                         "a duration such as 12h, 30d or 8w, at least 1m"),
            sweep_interval_s=read.number("SQUARES_SWEEP_INTERVAL_S", 300.0, 0, 10**9,
                                         "seconds"),
            analyst=read.flag("SQUARES_ANALYST", True),
            log_format=read.choice("SQUARES_LOG_FORMAT", "text", ("text", "json")),
            metrics_port=(read.get("SQUARES_METRICS_PORT", "", _port, "a TCP port (1 to 65535)")
                          if metrics_port else None),
            metrics_host=read.raw("SQUARES_METRICS_HOST", "127.0.0.1"),
            metrics_dir=read.raw("PROMETHEUS_MULTIPROC_DIR") or None,
            sqlite_synchronous=read.choice("SQUARES_SQLITE_SYNCHRONOUS", "FULL",
                                           ("OFF", "NORMAL", "FULL", "EXTRA")),
            header_timeout_s=read.number("SQUARES_HEADER_TIMEOUT_S", 10.0, 0.001, 60,
                                         "seconds"),
            export_key=read.get("SQUARES_EXPORT_KEY", "", _export_key,
                                f"at least {EXPORT_KEY_MIN} characters") or None,
            export_key_file=Path(read.raw("SQUARES_EXPORT_KEY_FILE",
                                          str(INSTANCE_DIR / "export.key"))),
            trusted_export_keys=read.get("SQUARES_TRUSTED_EXPORT_KEYS", "", _trusted_keys,
                                         f"keys of at least {EXPORT_KEY_MIN} characters, "
                                         "separated by commas"),
            daily_secret=read.get("SQUARES_DAILY_SECRET", "", _export_key,
                                  f"at least {EXPORT_KEY_MIN} characters") or None,
            daily_secret_file=Path(read.raw("SQUARES_DAILY_SECRET_FILE",
                                            str(INSTANCE_DIR / "daily.key"))),
            live_poll_ms=read.whole("SQUARES_LIVE_POLL_MS", 5000, 100, 600_000, "ms"),
            limits=_rate_limits(read),
            live=_live(read),
            tokens_file=Path(read.raw("SQUARES_TOKENS_FILE")) if read.raw(
                "SQUARES_TOKENS_FILE") else None,
            data_home=Path(read.raw("XDG_DATA_HOME", str(Path.home() / ".local" / "share"))),
            tui_delay_s=read.number("SQUARES_TUI_DELAY", 0.12, 0, 2, "seconds"),
            base_url=read.get("SQUARES_BASE_URL", DEFAULT_BASE_URL, http_address,
                              f"an http(s) address such as {DEFAULT_BASE_URL}"),
            terminal=read.raw("TERM", "dumb"),
        )

    @classmethod
    def of_config(cls, config: Mapping[str, Any] | None) -> tuple[Settings, dict[str, Any]]:
        """The settings of the environment with those `config` names overridden
        (``DATABASE_URL``, ``SQUARES_*``), and the rest of `config` (an app's own)."""
        config = dict(config or {})
        named = {k: v for k, v in config.items() if is_setting(k)}
        return cls.from_env(**named), {k: v for k, v in config.items() if k not in named}

    def replace(self, **changes: Any) -> Settings:
        """A copy with `changes` (by field name)."""
        known = {f.name for f in fields(self)}
        unknown = set(changes) - known
        if unknown:
            raise TypeError(f"no settings {', '.join(sorted(unknown))}")
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return Settings(**(values | changes))


def is_setting(name: str) -> bool:
    return name.startswith("SQUARES_") or name in ("DATABASE_URL", "PROMETHEUS_MULTIPROC_DIR")


def http_address(text: str) -> str:
    """An http(s) address (a path prefix allowed) without its trailing slash;
    `ValueError` for anything else."""
    text = text.strip().rstrip("/")
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query \
            or parts.fragment:
        raise ValueError
    return text


def _public_url(text: str) -> str:
    return hosts.check_public_url(text) if text else ""


def _trusted_hosts(text: str, public_url: str) -> hosts.TrustedHosts:
    try:
        return hosts.parse(text, public_url)
    except ValueError as exc:  # its reason, in the message naming the setting
        raise SettingError(str(exc)) from None


def _retention(text: str) -> timedelta:
    duration = parse_duration(text, seconds=True)
    if duration < timedelta(minutes=1):
        raise SettingError("at least a minute")
    return duration


def _port(text: str) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        raise ValueError
    return int(text)


def _export_key(text: str) -> str:
    if text and len(text) < EXPORT_KEY_MIN:
        raise ValueError
    return text


def _trusted_keys(text: str) -> tuple[str, ...]:
    keys = tuple(key.strip() for key in text.split(",") if key.strip())
    if any(len(key) < EXPORT_KEY_MIN for key in keys):
        raise ValueError
    return keys


def _rate_limit(text: str) -> str:
    from limits import parse

    parse(text)  # ValueError when it is not "N per period"
    return text


def _rate_limits(read: _Reader) -> RateLimitSettings:
    default = RateLimitSettings()
    spec = "a rate such as 30 per minute"
    return RateLimitSettings(
        create=read.get("SQUARES_LIMIT_CREATE", default.create, _rate_limit, spec),
        hint=read.get("SQUARES_LIMIT_HINT", default.hint, _rate_limit, spec),
        move=read.get("SQUARES_LIMIT_MOVE", default.move, _rate_limit, spec),
        sign_in=read.get("SQUARES_LIMIT_SIGN_IN", default.sign_in, _rate_limit, spec),
        storage_uri=read.raw("SQUARES_RATELIMIT_STORAGE_URI", default.storage_uri),
        enabled=read.flag("SQUARES_RATELIMIT_ENABLED", default.enabled),
        fallback=read.flag("SQUARES_RATELIMIT_FALLBACK", default.fallback),
        storage_timeout_s=read.number("SQUARES_RATELIMIT_STORAGE_TIMEOUT",
                                      default.storage_timeout_s, 0.001, 60, "seconds"))


def _live(read: _Reader) -> LiveSettings:
    default = LiveSettings()
    return LiveSettings(
        per_client=read.whole("SQUARES_LIVE_PER_CLIENT", default.per_client, 1, 10**6,
                              "streams"),
        total=read.whole("SQUARES_LIVE_TOTAL", default.total, 1, 10**7, "streams"),
        heartbeat_s=read.number("SQUARES_LIVE_HEARTBEAT_S", default.heartbeat_s, 0.001,
                                3600, "seconds"),
        max_s=read.number("SQUARES_LIVE_MAX_S", default.max_s, 0, 10**7, "seconds"),
        write_timeout_s=read.number("SQUARES_LIVE_WRITE_TIMEOUT_S", default.write_timeout_s,
                                    0.001, 3600, "seconds"))
