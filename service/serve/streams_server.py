"""The streams server: granian runs the live feed's ASGI app (`service.live.app`) on
one worker process, one event loop holding every open stream of the node (an open
stream costs a coroutine and a socket, never a thread).

granian through its public Python API (``granian.Granian``, the server its CLI runs),
this process its master, with:

- a header-read timeout (``SQUARES_HEADER_TIMEOUT_S``, default
  `app_server.HEADER_TIMEOUT_S`, as the app server's): a connection whose request
  headers are not whole by then is closed, so a half-sent request holds a socket for
  seconds, never a stream's place;
- no connection cap of granian's that unread connections could fill: its
  ``backpressure`` (connections a worker holds at once, counted from the accept, the
  request read or not) is what the process's file descriptors allow anyway
  (`connection_capacity`). Every connection is accepted and its request read; past
  the app's caps a stream is refused at once (429 per address, 503 in all, with
  ``Retry-After``). What nothing here bounds: one address that opens connections
  faster than the header timeout closes them, up to the descriptor limit (a limit
  of connections per address belongs in front: a firewall, nginx's ``limit_conn``);
- lifespan on: the app's hub learns that the worker runs and, on SIGTERM, ends every
  stream at once with a last ``retry:`` and refuses new ones (`LiveHub.started`), so
  a stop takes moments; granian cuts the worker `STOP_GRACE_S` later;
- client addresses from the socket (``SQUARES_TRUSTED_PROXIES`` is read by the app);
- no access log of granian's own: the app writes one line per request;
- young collections of the cyclic garbage collector every `GC_THRESHOLDS` allocations
  (`collect_rarely`, in the worker once the app is loaded: `create`).

A worker that dies ends this process with status 1 (no respawn: the supervisor stops
the node, as for any server).

    python -m service.serve.streams_server --host 127.0.0.1 --port 5001
"""

from __future__ import annotations

import argparse
import gc
from typing import Any

# One worker: the stream caps, the viewer counts and the feed are the process's, and
# one event loop holds every stream of the node.
WORKERS = 1
STOP_GRACE_S = 3  # streams still open then (the drain ends them at once) are cut off
FACTORY = "service.serve.streams_server:create"
# Python's default is (700, 10, 10): a young collection every 700 allocations. A
# stream's wait (its future, its task's frames) lasts from one wake-up to the next,
# so it outlived two young collections, was moved to the oldest generation and counted
# there as new; every ~10 s under load those counts started a full collection, which
# walks every stream: 250 ms at 5,000 streams, a stall of every delivery (live.py's
# slowest 304-398 ms). Collected young every 50,000 allocations, a wait dies young.
GC_THRESHOLDS = (50_000, 20, 10)


def create() -> Any:
    """The ASGI app of the worker (granian's factory), on the environment's settings.
    A stop signal that comes while it loads is kept (`late_stop`)."""
    from ..live.streams import create_streams_app
    from ..ops import logs
    from ..ops.settings import Settings
    from .late_stop import kept_while_loading

    with kept_while_loading():
        settings = Settings.from_env()
        logs.configure(settings.log_format)
        app = create_streams_app(settings)
    collect_rarely()
    return app


def collect_rarely() -> None:
    """What is loaded now lives as long as the process: frozen, out of the collector's
    sight (as in `app_server`); and the thresholds of `GC_THRESHOLDS`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def connection_capacity() -> int:
    """The connections the worker may hold at once: as many as its file-descriptor
    limit leaves room for (the soft limit raised to the hard one, inherited by the
    worker). Past it, granian waits before it accepts more, rather than failing
    every accept for want of a descriptor."""
    from ..live.slots import descriptor_capacity

    return max(1, descriptor_capacity())


def granian_settings(header_timeout_s: float) -> dict[str, Any]:
    """``granian.Granian``'s settings but the target and the address."""
    from granian.constants import HTTPModes, Interfaces, Loops
    from granian.http import HTTP1Settings
    from granian.log import LogLevels

    return {
        "interface": Interfaces.ASGI,  # with lifespan
        "factory": True,
        "workers": WORKERS,
        "http": HTTPModes.http1,
        "websockets": False,
        "loop": Loops.uvloop,  # what live.py measured (granian's default when installed)
        "backpressure": connection_capacity(),
        "http1_settings": HTTP1Settings(header_read_timeout=round(header_timeout_s * 1000)),
        "workers_kill_timeout": STOP_GRACE_S,
        "log_level": LogLevels.warning,
    }


def main(argv: list[str] | None = None) -> None:
    from granian import Granian

    from ..ops.settings import Settings

    parser = argparse.ArgumentParser(description="the live streams server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    Granian(FACTORY, address=args.host, port=args.port,
            **granian_settings(settings.header_timeout_s)).serve()


if __name__ == "__main__":
    main()
