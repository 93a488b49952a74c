"""How fast a date's daily challenge answers with a crowded day: ``GET /api/daily``'s
work (`DailyService.day`: the ranking so far, its counts) and a past date's final
ranking, with 100,000 daily games of one date in the table.

The day is built fast, not played: one real daily game is started through the
service, its ``games`` row copied under new ids, a player record made for each
ranked attempt, and the ``daily_attempts`` rows written in batches through the store
(`DailyRepository.add_many`): 80 % ranked attempts (most of them ended, scores spread
with many ties), 20 % practice games; PostgreSQL then gathers its statistics, as
autovacuum does for a table in service. Then each answer is timed many times, and the
query plans are printed (the ranking must be one range of its index, not a scan and
sort of the day).

    .venv/bin/python benchmarks/daily_table.py                 # 100,000 attempts, SQLite
    .venv/bin/python benchmarks/daily_table.py --postgres URL  # also an empty PostgreSQL
    .venv/bin/python benchmarks/daily_table.py --quick         # 2,000 attempts

A full run writes the figures to ``build/benchmarks/daily_table-<UTC time>.json`` (or
``--json PATH``, also with ``--quick``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta

from sqlalchemy import insert, select

from service.ops.settings import Settings
from service.services import Services
from service.store import games_table, migrate
from service.store.account_tables import players_table
from service.store.daily import DailyAttempt

TARGET_MS = 50.0
BATCH = 5_000
NOON = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def build_day(services: Services, attempts: int) -> None:
    """`attempts` daily games of NOON's date (`NOON` is the services' clock)."""
    model = services.daily.start(player_id=None, player_name="Model")
    with services.store.engine.connect() as conn:
        row = dict(conn.execute(select(games_table).where(
            games_table.c.game_id == model.created.game_id)).one()._mapping)
    rng = random.Random(7)
    day = NOON.date()
    done = 0
    while done < attempts:
        size = min(BATCH, attempts - done)
        ids = [f"bench{done + i:011d}" for i in range(size)]
        ranked = [rng.random() < 0.8 for _ in ids]
        with services.store.engine.begin() as conn:
            conn.execute(insert(games_table), [row | {"game_id": gid} for gid in ids])
            first = conn.execute(insert(players_table).returning(players_table.c.id), [
                {"name": f"bench player {done + i}", "created_at": NOON}
                for i, r in enumerate(ranked) if r]).scalars().all()
        players = iter(first)
        rows = []
        for i, (gid, is_ranked) in enumerate(zip(ids, ranked, strict=True)):
            ended = rng.random() < 0.9
            rows.append(DailyAttempt(
                gid, day, next(players) if is_ranked else None, is_ranked,
                NOON - timedelta(seconds=done + i), rng.randint(-50, 250),
                NOON + timedelta(seconds=rng.randint(0, 40_000)) if ended else None))
        with services.store.unit_of_work() as uow:
            uow.daily.add_many(rows)
        done += size
    if services.store.dialect != "sqlite":  # the statistics autovacuum keeps in service
        with services.store.engine.begin() as conn:
            conn.exec_driver_sql("ANALYZE daily_attempts")


def timed(call: object, runs: int) -> tuple[float, float]:
    """(median, max) ms of `runs` calls of `call`."""
    assert callable(call)
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        call()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


def plans(services: Services) -> list[str]:
    """The query plan of the day's ranking (SQLite's EXPLAIN QUERY PLAN, or
    PostgreSQL's EXPLAIN)."""
    with services.store.engine.connect() as conn:
        sqlite = services.store.dialect == "sqlite"
        prefix = "EXPLAIN QUERY PLAN " if sqlite else "EXPLAIN "
        day = f"'{NOON.date().isoformat()}'"
        # `DailyRepository._ranked`'s query (today's: the attempts that ended)
        ranked = "ranked = 1" if sqlite else "ranked"  # as SQLAlchemy writes it
        query = (f"SELECT * FROM daily_attempts WHERE date = {day} AND {ranked} "
                 "AND ended_at IS NOT NULL ORDER BY score DESC, ended_at, game_id LIMIT 100")
        return [" ".join(str(c) for c in row) for row in conn.exec_driver_sql(prefix + query)]


def measure(url: str, attempts: int, runs: int) -> dict[str, float]:
    migrate(url)
    settings = Settings.from_env().replace(daily_secret="the benchmark's daily secret")
    services = Services.from_url(url, settings=settings)
    services.core.clock = lambda: NOON
    try:
        started = time.perf_counter()
        build_day(services, attempts)
        built = time.perf_counter() - started
        today = services.daily.day()
        assert today.ranked_players > 0 and len(today.ranking) == 100
        today_median, today_max = timed(services.daily.day, runs)
        services.core.clock = lambda: NOON + timedelta(days=1)
        final = services.daily.day(NOON.date())
        assert final.seed is not None and len(final.ranking) == 100
        past_median, past_max = timed(lambda: services.daily.day(NOON.date()), runs)
        for line in plans(services):
            print(f"  plan: {line}")
    finally:
        services.store.dispose()
    return {"attempts": attempts, "build s": built, "today median": today_median,
            "today max": today_max, "past median": past_median, "past max": past_max}


def main(argv: list[str] | None = None) -> int:
    from squares_testing import results as _results

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attempts", type=int, default=None,
                        help="daily games of the date (default 100,000; --quick 2,000)")
    parser.add_argument("--runs", type=int, default=None,
                        help="timed answers each (default 50; --quick 5)")
    parser.add_argument("--postgres", metavar="URL", default=None,
                        help="also measure on this (empty) PostgreSQL database")
    _results.add_run_options(parser, "2,000 attempts, 5 timed answers")
    args = parser.parse_args(argv)
    _results.fill_defaults(args, attempts=(100_000, 2_000), runs=(50, 5))
    rows = []
    with tempfile.TemporaryDirectory(prefix="squares-daily-") as tmp:
        targets = [("SQLite", f"sqlite:///{tmp}/daily.db")]
        if args.postgres:
            targets.append(("PostgreSQL", args.postgres))
        for name, url in targets:
            print(f"{name}: {args.attempts:,} daily games of one date")
            rows.append((name, measure(url, args.attempts, args.runs)))
    results: _results.Figures = {}
    for name, f in rows:
        print(f"{name}: day built in {f['build s']:.1f} s")
        print(f"{name}: today's daily table median / max {f['today median']:.2f} / "
              f"{f['today max']:.2f} ms (target < {TARGET_MS:.0f} ms)")
        print(f"{name}: a past date's final table median / max {f['past median']:.2f} / "
              f"{f['past max']:.2f} ms")
        target = f"< {TARGET_MS:.0f}"
        results |= {
            f"{name} attempts": _results.figure(f["attempts"], "attempts"),
            f"{name} today's daily table median": _results.figure(f["today median"], "ms",
                                                                  target),
            f"{name} today's daily table max": _results.figure(f["today max"], "ms"),
            f"{name} past date's table median": _results.figure(f["past median"], "ms",
                                                                target),
            f"{name} past date's table max": _results.figure(f["past max"], "ms"),
        }
    _results.save("daily_table", results, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
