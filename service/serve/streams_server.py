"""The streams server: uvicorn runs the live feed's ASGI app (`service.live.app`) in
one process, one event loop holding every open stream of the node (an open stream
costs a coroutine and a socket, never a thread).

uvicorn through its public API (`uvicorn.Config`, `uvicorn.Server`), with:

- lifespan on: the app's hub learns that the loop runs, and on SIGTERM ends every
  stream at once with a last ``retry:`` (`LiveHub.started`), so a stop takes moments;
- at most `STOP_GRACE_S` for what still runs after that;
- a concurrency limit a little above the stream cap: past it, 503 at once;
- client addresses from the socket (``SQUARES_TRUSTED_PROXIES`` is read by the app);
- no access log of uvicorn's own: the app writes one line per request;
- young collections of the cyclic garbage collector every `GC_THRESHOLDS` allocations
  (`collect_rarely`).

    python -m service.serve.streams_server --host 127.0.0.1 --port 5001
"""

from __future__ import annotations

import argparse
import gc
from typing import Any

from ..ops.settings import LiveSettings

STOP_GRACE_S = 3
# Longer than a proxy keeps an idle upstream connection (nginx: 4 s in deploy/), so
# that it never sends a request on one being closed.
KEEP_ALIVE_S = 75
CONNECTION_HEADROOM = 1024  # connections beyond the stream cap: preflights, refusals
# Python's default is (700, 10, 10): a young collection every 700 allocations. A
# stream's wait (its future, its task's frames) lasts from one wake-up to the next,
# so it outlived two young collections, was moved to the oldest generation and counted
# there as new; every ~10 s under load those counts started a full collection, which
# walks every stream: 250 ms at 5,000 streams, a stall of every delivery (live.py's
# slowest 304-398 ms). Collected young every 50,000 allocations, a wait dies young.
GC_THRESHOLDS = (50_000, 20, 10)


def uvicorn_settings(live: LiveSettings) -> dict[str, Any]:
    return {
        "lifespan": "on",
        "proxy_headers": False,
        "access_log": False,
        "log_level": "warning",
        "timeout_graceful_shutdown": STOP_GRACE_S,
        "timeout_keep_alive": KEEP_ALIVE_S,
        "limit_concurrency": live.total + CONNECTION_HEADROOM,
    }


def main(argv: list[str] | None = None) -> None:
    import uvicorn

    from ..live.streams import create_streams_app
    from ..ops import logs
    from ..ops.settings import Settings

    parser = argparse.ArgumentParser(description="the live streams server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    logs.configure(settings.log_format)
    config = uvicorn.Config(create_streams_app(settings), host=args.host, port=args.port,
                            **uvicorn_settings(settings.live))
    collect_rarely()
    uvicorn.Server(config).run()


def collect_rarely() -> None:
    """What is loaded now lives as long as the process: frozen, out of the collector's
    sight (as in `app_server`); and the thresholds of `GC_THRESHOLDS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


if __name__ == "__main__":
    main()
