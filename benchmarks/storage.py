"""What a game costs on disk: bytes per stored game, per field size, on SQLite (and on
PostgreSQL with ``--postgres URL``).

For each size, computer-vs-computer games (easy against easy, seeded) are played
through the service layer as `squares simulate --store` plays them, one append per
turn, into a fresh database; then the database's growth is divided by the games:

- ``created``: games only created (what an unplayed, later abandoned game costs:
  its ``game_created`` event, with the random initial lines, and its row);
- ``finished``: whole games, to game over.

Figures: events per game, the events' JSON (the ``payload`` column) per game, and
the database's growth per game (SQLite: pages in use after a checkpoint, i.e. rows,
indexes and page slack; PostgreSQL: ``pg_total_relation_size`` of the tables).

    .venv/bin/python benchmarks/storage.py                 # 19 x 33 and 41 x 81
    .venv/bin/python benchmarks/storage.py --quick         # a few small games

A full run writes the figures to ``build/benchmarks/storage-<UTC time>.json`` (or
``--json PATH``, also with ``--quick``).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time

from sqlalchemy import LargeBinary, Text, cast, func, select, text

from service.services import Services
from service.store import events_table, migrate
from squares_testing import results as _results
from squares_testing.play import finish_computer_game


def used_bytes(services: Services) -> int:
    """The database's size in use: SQLite pages not free (after a WAL checkpoint), or
    PostgreSQL's total size of the tables with their indexes and TOAST."""
    with services.store.engine.connect() as conn:
        if services.store.dialect == "sqlite":
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
            free = conn.exec_driver_sql("PRAGMA freelist_count").scalar_one()
            size = conn.exec_driver_sql("PRAGMA page_size").scalar_one()
            return int((pages - free) * size)
        return int(conn.execute(text(
            "SELECT sum(pg_total_relation_size(c.oid)) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = 'public' AND c.relkind = 'r'")).scalar_one())


def payload_bytes(services: Services) -> tuple[int, int]:
    """(events, bytes of their JSON payloads) in the database."""
    with services.store.engine.connect() as conn:
        as_text = cast(events_table.c.payload,
                       LargeBinary if services.store.dialect == "sqlite" else Text)
        length = func.octet_length(as_text) if services.store.dialect != "sqlite" \
            else func.length(as_text)
        count, total = conn.execute(
            select(func.count(), func.coalesce(func.sum(length), 0)).select_from(events_table)
        ).one()
    return int(count), int(total)


def measure(url: str, height: int, width: int, games: int, finished: bool) -> dict[str, float]:
    migrate(url)
    services = Services.from_url(url)
    try:
        before_bytes = used_bytes(services)
        before_events, before_payload = payload_bytes(services)
        started = time.perf_counter()
        for seed in range(games):
            created = services.play.create_game(player_name="Computer 1", difficulty="easy",
                                           second_level="easy", mode="computer_vs_computer",
                                           seed=7000 + seed, height=height, width=width)
            if finished:
                finish_computer_game(services, created.game_id, created.state)
        seconds = time.perf_counter() - started
        events, payload = payload_bytes(services)
        grown = used_bytes(services) - before_bytes
    finally:
        services.store.dispose()
    return {"games": games, "events": (events - before_events) / games,
            "payload": (payload - before_payload) / games, "bytes": grown / games,
            "seconds": seconds / games}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=0,
                        help="games per size and kind (default 40 / 10 finished on "
                             "19 x 33 / 41 x 81, 200 created)")
    parser.add_argument("--quick", action="store_true", help="3 games on 9 x 13 only")
    parser.add_argument("--postgres", metavar="URL", default=None,
                        help="also measure on this (empty) PostgreSQL database")
    _results.add_json_option(parser)
    args = parser.parse_args(argv)
    sizes = [(9, 13)] if args.quick else [(19, 33), (41, 81)]
    rows = []
    with tempfile.TemporaryDirectory(prefix="squares-storage-") as tmp:
        targets = [("SQLite", lambda n: f"sqlite:///{tmp}/{n}.db")]
        if args.postgres:
            targets.append(("PostgreSQL", lambda n: args.postgres))
        for name, url_for in targets:
            for height, width in sizes:
                for finished in (False, True):
                    if args.quick:
                        games = 3
                    elif args.games:
                        games = args.games
                    elif not finished:
                        games = 200
                    else:
                        games = 40 if width < 50 else 10
                    kind = "finished" if finished else "created"
                    figures = measure(url_for(f"{height}x{width}-{kind}"), height, width,
                                      games, finished)
                    rows.append((name, f"{height} x {width}", kind, figures))
    print("| database | field | game | games | events / game | event JSON / game "
          "| database growth / game |")
    print("|---|---|---|---|---|---|---|")
    for name, size, kind, f in rows:
        print(f"| {name} | {size} | {kind} | {f['games']:.0f} | {f['events']:.0f} "
              f"| {f['payload'] / 1024:.1f} kB | {f['bytes'] / 1024:.1f} kB |")
    results: _results.Figures = {}
    for name, size, kind, f in rows:
        row = f"{name} {size.replace(' ', '')} {kind}"
        results |= {f"{row} events / game": _results.figure(f["events"], "events"),
                    f"{row} event JSON / game": _results.figure(f["payload"] / 1024, "kB"),
                    f"{row} database growth / game": _results.figure(f["bytes"] / 1024, "kB"),
                    f"{row} time / game": _results.figure(f["seconds"], "s")}
    _results.save("storage", results, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
