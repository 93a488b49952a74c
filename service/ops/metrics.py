"""What an operator can watch: Prometheus metrics, summed over the server's processes.

Every process records into prometheus_client's default registry. Under ``squares
serve`` the processes write their values to files in ``PROMETHEUS_MULTIPROC_DIR`` (a
fresh directory the command makes; prometheus_client's multiprocess mode) and the
metrics server (`service.serve.metrics_server`) serves their sum on
``SQUARES_METRICS_HOST:SQUARES_METRICS_PORT``; never on the app's own port. Unset, no metrics are
served (each process still counts, in memory).

The metrics (``deploy/grafana-dashboard.json`` reads them):

- ``squares_http_request_duration_seconds{method, route, status}``: a histogram; the
  route is the URL rule (``/api/games/<game_id>/lines``), never the path;
- ``squares_events_appended_total{type}``: counted after the commit;
- ``squares_version_conflicts_total{source}``: ``append``, the store refused an
  append that another writer beat; ``expected_version``, a move named a version the
  game has left (both answer 409 ``version_conflict`` unless retried inside);
- ``squares_games_started_total{mode}``, ``squares_games_finished_total{mode}``,
  ``squares_games_abandoned_total{mode}``;
- ``squares_ai_decision_seconds{level, purpose}``: one command of the computer
  player (purpose ``turn``) or a hint (``hint``);
- ``squares_ai_time_limits_total``: AI decisions cut short by their last-resort CPU
  time limit (``service.domain.ai.budget``; each is also logged as a warning): above
  zero, play is no longer the same on every machine;
- ``squares_live_streams_open``: open live streams (summed over live processes);
- ``squares_rate_limited_total{route, code}``: requests refused with 429;
- ``squares_database_errors_total{kind}``: ``outage`` (answered 503) or ``error``.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, multiprocess

from ..domain.ai import budget as ai_budget
from ..domain.commands import Command
from ..domain.events import Event, GameAbandoned, GameCreated, GameOver
from ..domain.players import Strategy
from ..domain.state import GameState

MULTIPROC_DIR_ENV = "PROMETHEUS_MULTIPROC_DIR"

REQUEST_SECONDS = Histogram(
    "squares_http_request_duration_seconds", "Time the app took to answer a request",
    ["method", "route", "status"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
EVENTS_APPENDED = Counter("squares_events_appended", "Events committed to game streams",
                          ["type"])
VERSION_CONFLICTS = Counter("squares_version_conflicts",
                            "Moves refused: the game was at another version", ["source"])
GAMES_STARTED = Counter("squares_games_started", "Games created", ["mode"])
GAMES_FINISHED = Counter("squares_games_finished", "Games played to game over", ["mode"])
GAMES_ABANDONED = Counter("squares_games_abandoned", "Games abandoned unfinished", ["mode"])
AI_SECONDS = Histogram(
    "squares_ai_decision_seconds", "Time the computer player took for one command",
    ["level", "purpose"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5))
LIVE_STREAMS = Gauge("squares_live_streams_open", "Open live streams",
                     multiprocess_mode="livesum")
RATE_LIMITED = Counter("squares_rate_limited", "Requests refused with 429",
                       ["route", "code"])
DATABASE_ERRORS = Counter("squares_database_errors",
                          "Requests that failed on the database", ["kind"])
AI_TIME_LIMITS = Counter("squares_ai_time_limits",
                         "AI decisions that reached their last-resort CPU time limit")
ai_budget.ON_TIME_LIMIT.append(AI_TIME_LIMITS.inc)


def request_answered(method: str, route: str, status: int, seconds: float) -> None:
    REQUEST_SECONDS.labels(method, route, str(status)).observe(seconds)


def events_committed(batches: Iterable[tuple[Iterable[Event], str]]) -> None:
    """Count committed events: `batches` of (events, the game's mode). Called only
    after their transaction committed."""
    for events, mode in batches:
        for event in events:
            EVENTS_APPENDED.labels(event.TYPE).inc()
            if isinstance(event, GameCreated):
                GAMES_STARTED.labels(mode).inc()
            elif isinstance(event, GameOver):
                GAMES_FINISHED.labels(mode).inc()
            elif isinstance(event, GameAbandoned):
                GAMES_ABANDONED.labels(mode).inc()


def version_conflict(source: str) -> None:
    VERSION_CONFLICTS.labels(source).inc()


def live_streams(count: int) -> None:
    LIVE_STREAMS.set(count)


def rate_limited(route: str, code: str) -> None:
    RATE_LIMITED.labels(route, code).inc()


def database_error(kind: str) -> None:
    DATABASE_ERRORS.labels(kind).inc()


@contextmanager
def ai_decision(level: str, purpose: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        AI_SECONDS.labels(level, purpose).observe(time.perf_counter() - started)


class TimedStrategy:
    """A strategy whose every command is timed into `AI_SECONDS`."""

    def __init__(self, strategy: Strategy, level: str) -> None:
        self.strategy = strategy
        self.level = level

    def next_command(self, state: GameState) -> Command:
        with ai_decision(self.level, "turn"):
            return self.strategy.next_command(state)


def multiprocess_registry() -> CollectorRegistry:
    """A registry that sums the values every process wrote to the multiprocess
    directory (what the metrics server serves)."""
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry)
    return registry


