"""Rate limits per client address on game creation, hints and moves.

One check a limited request, before its view: a fixed-window count by (endpoint's
scope, address), in this process's memory or in a storage of the `limits` library
that every process shares (`limits.strategies.FixedWindowRateLimiter`). Each app gets its own `RateLimits`, from its settings
(`service.ops.settings.RateLimitSettings`):

- ``SQUARES_LIMIT_CREATE`` (default ``30 per minute``): ``POST /api/games``, claims,
  invite checks and rematches
- ``SQUARES_LIMIT_HINT`` (default ``60 per minute``): ``GET /api/games/{id}/hint``
- ``SQUARES_LIMIT_MOVE`` (default ``300 per minute``): lines, advances, computer
  turns, resignations and aborts together
- ``SQUARES_LIMIT_SIGN_IN`` (default ``10 per minute``): each passkey step (claim,
  sign in, recovery code, new passkey) per address, and apart from that per name for
  the steps whose body names one (a name, or the passkey that signs in: `subject`)
- ``SQUARES_RATELIMIT_STORAGE_URI`` (default ``memory://``): where the counts live.
  In memory each server process counts on its own, so with N app server workers
  a client may get up to N times a limit; ``redis://host:6379[/db]`` (the Redis client
  installs with the project) counts once over all workers and instances.
- ``SQUARES_RATELIMIT_FALLBACK`` (default ``1``): while that storage does not answer,
  each process counts in memory on its own (so up to N times a limit again) and logs
  a warning; it asks the storage again now and then (1 to 32 s apart, on a limited
  request) and counts there again once it answers. ``0`` lets requests through
  unlimited instead (logged as an error). Either way a dead storage never makes a
  request fail.
- ``SQUARES_RATELIMIT_STORAGE_TIMEOUT`` (default ``0.5`` seconds): the longest a
  request waits for Redis to connect or answer before that happens.
- ``SQUARES_RATELIMIT_ENABLED=0`` turns the limits off (the load benchmark does).

A limited answer carries ``X-RateLimit-Limit``, ``-Remaining`` and ``-Reset`` (the
window's end, Unix time); a refused request is a 429 (``rate_limited`` under /api, the
site's page elsewhere) with ``Retry-After``, and nothing of it runs.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
import time
from dataclasses import dataclass
from typing import Any

from flask import Flask, Response, g, request
from limits import RateLimitItem, parse
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import TooManyRequests

from ..domain.names import NAME_MAX, name_key
from ..ops.settings import RateLimitSettings

log = logging.getLogger(__name__)

# endpoint -> its limit among the settings (endpoints with the same one share a count)
LIMITED_ENDPOINTS = {
    "api.create_game": "create",
    "api.claim": "create",
    "api.invite_check": "create",  # as many code guesses as claims
    "api.rematch": "create",
    "api.hint": "hint",
    "api.place_line": "move",
    "api.advance": "move",
    "api.computer_turn": "move",
    "api.resign": "move",
    "api.abort": "move",
    # every passkey step (service/api/account.py)
    "api.account_claim_options": "sign_in",
    "api.account_claim": "sign_in",
    "api.account_sign_in_options": "sign_in",
    "api.account_sign_in": "sign_in",
    "api.account_recovery": "sign_in",
    "api.account_passkey_options": "sign_in",
    "api.account_add_passkey": "sign_in",
}
# endpoints counted per name too (besides per address), by what their body names: a
# name (claims, recovery codes) or a passkey (signing in: a passkey is one name's), so
# that many addresses cannot take turns guessing one player's recovery codes
PER_NAME_ENDPOINTS = frozenset({"api.account_claim_options", "api.account_recovery",
                                "api.account_sign_in"})
FIRST_RETRY_S = 1.0
MAX_RETRY_S = 32.0
EXTENSION = "squares_limits"


@dataclass(frozen=True)
class Window:
    limit: int
    remaining: int
    reset_at: float  # Unix time


class LocalWindows:
    """Fixed windows counted in this process's memory, as `limits`' fixed-window
    strategy counts them (a window starts at its first request; a refused request
    counts too), without the timer thread its memory storage starts every few
    requests."""

    PRUNE_EVERY = 1024  # new windows between sweeps of the ended ones

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._windows: dict[str, list[float]] = {}  # key -> [its end, its count]
        self._opened = 0

    def count(self, item: RateLimitItem, scope: str, client: str) -> tuple[bool, Window]:
        key = item.key_for(scope, client)
        now = time.time()
        with self._lock:
            window = self._windows.get(key)
            if window is None or window[0] <= now:
                window = self._windows[key] = [now + item.get_expiry(), 0]
                self._opened += 1
                if self._opened % self.PRUNE_EVERY == 0:
                    self._windows = {k: w for k, w in self._windows.items() if w[0] > now}
            window[1] += 1
            used = int(window[1])
            ends = window[0]
        return used <= item.amount, Window(item.amount, max(0, item.amount - used), ends)


class SharedWindows:
    """Fixed windows in a `limits` storage that every process shares (Redis)."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.strategy = FixedWindowRateLimiter(storage)

    def count(self, item: RateLimitItem, scope: str, client: str) -> tuple[bool, Window]:
        allowed = self.strategy.hit(item, scope, client)
        stats = self.strategy.get_window_stats(item, scope, client)
        return allowed, Window(item.amount, stats.remaining, stats.reset_time)


def _synchronous_storage(uri: str, options: dict[str, Any]) -> Storage:
    """The storage `uri` names. The views run in threads, so it must be one of the
    synchronous storages (an ``async+`` URI names an asyncio one, which
    `FixedWindowRateLimiter` refuses too)."""
    storage = storage_from_string(uri, **options)
    if not isinstance(storage, Storage):
        raise ValueError(f"rate limit storage {uri!r} is asyncio's: use a synchronous one")
    return storage


class Counts:
    """Where the counts are: in this process (``memory://``), or in a shared storage
    and, while it does not answer (and the fallback is on), in this process."""

    def __init__(self, uri: str, options: dict[str, Any], fallback: bool) -> None:
        self.memory = LocalWindows()
        self.shared = (None if uri.startswith("memory://")
                       else SharedWindows(_synchronous_storage(uri, options)))
        self.fallback = fallback
        self._lock = threading.Lock()
        self._down_since: float | None = None
        self._next_try = 0.0
        self._pause = FIRST_RETRY_S

    def count(self, item: RateLimitItem, scope: str, client: str) -> tuple[bool, Window] | None:
        """Count a request: (allowed, its window), or None when no storage counts it
        (the shared one fails and the fallback is off)."""
        shared = self._shared_answering()
        if shared is None:
            return self.memory.count(item, scope, client)
        try:
            return shared.count(item, scope, client)
        except Exception:  # noqa: BLE001 - a dead storage never fails a request
            return self._failed(item, scope, client)

    def _shared_answering(self) -> SharedWindows | None:
        """The shared storage unless it is down (asked again now and then)."""
        shared = self.shared
        if shared is None:
            return None
        with self._lock:
            if self._down_since is None:
                return shared
            if time.monotonic() < self._next_try:
                return None
            self._next_try = math.inf  # one request asks again; the others count here
        back = self._storage_answers(shared.storage)
        with self._lock:
            if back:
                log.warning("the rate limit storage answers again: counting there again")
                self._down_since, self._pause = None, FIRST_RETRY_S
                return shared
            self._pause = min(2 * self._pause, MAX_RETRY_S)
            self._next_try = time.monotonic() + self._pause
        return None

    def _failed(self, item: RateLimitItem, scope: str,
                client: str) -> tuple[bool, Window] | None:
        if not self.fallback:
            log.error("Failed to rate limit: the rate limit storage does not answer; "
                      "the request goes through", exc_info=True)
            return None
        with self._lock:
            if self._down_since is None:
                log.warning("the rate limit storage does not answer: falling back to "
                            "in-memory storage", exc_info=True)
                self._down_since = time.monotonic()
                self._next_try = self._down_since + self._pause
        return self.memory.count(item, scope, client)

    @staticmethod
    def _storage_answers(storage: Storage) -> bool:
        try:
            return bool(storage.check())
        except Exception:  # noqa: BLE001 - still down
            return False


class RateLimits:
    """The limits of one app: which endpoint counts under which scope and limit."""

    def __init__(self, counts: Counts, enabled: bool) -> None:
        self.counts = counts
        self.enabled = enabled
        self.endpoints: dict[str, tuple[str, RateLimitItem]] = {}

    def limit_endpoint(self, endpoint: str, spec: str, scope: str | None = None) -> None:
        """Limit `endpoint` to `spec` (``"30 per minute"``), its count shared with the
        other endpoints of `scope` (default: its own)."""
        self.endpoints[endpoint] = (scope or endpoint, parse(spec))

    def check(self) -> None:
        """Count the request if its endpoint is limited (``before_request``):
        TooManyRequests (with ``Retry-After``) when it is over its limit."""
        limited = self.endpoints.get(request.endpoint or "")
        if limited is None or not self.enabled:
            return
        scope, item = limited
        counted = self.counts.count(item, scope, request.remote_addr or "-")
        if counted is None:
            return
        allowed, window = counted
        g.squares_rate_window = window
        if not allowed:
            retry_after = max(1, math.ceil(window.reset_at - time.time()))
            raise TooManyRequests(f"at most {item} from one address",
                                  retry_after=retry_after)
        named = subject() if request.endpoint in PER_NAME_ENDPOINTS else None
        if named is None:
            return
        by_name = self.counts.count(item, f"{request.endpoint}:name", named)  # each step's own
        if by_name is not None and not by_name[0]:
            retry_after = max(1, math.ceil(by_name[1].reset_at - time.time()))
            raise TooManyRequests(f"at most {item} for one name", retry_after=retry_after)

    @staticmethod
    def add_headers(response: Response) -> Response:
        window: Window | None = g.pop("squares_rate_window", None)
        if window is not None:
            response.headers["X-RateLimit-Limit"] = str(window.limit)
            response.headers["X-RateLimit-Remaining"] = str(window.remaining)
            response.headers["X-RateLimit-Reset"] = str(math.ceil(window.reset_at))
        return response


def subject() -> str | None:
    """Whom a passkey step's JSON body is about, as a count's key: a hash of the
    name's key (`domain.names.name_key`: every way of writing a name counts as one),
    or of the credential id that signs in; None when it names neither."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        return None
    name = body.get("name")
    if isinstance(name, str) and 0 < len(name) <= 4 * NAME_MAX:
        return "name:" + _digest(name_key(name))
    credential = body.get("credential")
    found = credential.get("id") if isinstance(credential, dict) else None
    if isinstance(found, str) and 0 < len(found) <= 1400:
        return "passkey:" + _digest(found)
    return None


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def init_app(app: Flask, settings: RateLimitSettings) -> RateLimits:
    """The app's limits on `LIMITED_ENDPOINTS` (``app.extensions["squares_limits"]``;
    call after the blueprints are registered)."""
    options: dict[str, Any] = {}
    if settings.storage_uri.startswith(("redis", "valkey")):
        timeout = settings.storage_timeout_s
        options = {"socket_connect_timeout": timeout, "socket_timeout": timeout}
    counts = Counts(settings.storage_uri, options, settings.fallback)
    limits = RateLimits(counts, settings.enabled)
    for endpoint, key in LIMITED_ENDPOINTS.items():
        limits.limit_endpoint(endpoint, getattr(settings, key), scope=key)
    app.extensions[EXTENSION] = limits  # its check and headers: `service.http.hooks`
    return limits
