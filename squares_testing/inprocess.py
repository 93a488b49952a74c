"""The real ASGI server (uvicorn, with ``squares serve``'s settings) on a loopback port
in a thread of this process, for tests and benchmarks that need real HTTP and the
app's objects at hand (the live feed's tests, the browser tests, benchmarks/api.py)."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

from squares_testing.net import HOST


@contextlib.contextmanager
def asgi_server(app: Any, host: str = HOST) -> Iterator[int]:
    """Serve the Flask `app` as ``squares serve`` does, in one process: uvicorn with its
    settings (`service.server.uvicorn_settings`) in a thread of this process, so that
    the app's objects stay at hand; yield the port."""
    import uvicorn

    from service.asgi import SquaresAsgi
    from service.server import uvicorn_settings

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    config = uvicorn.Config(SquaresAsgi(app), log_level="warning", **uvicorn_settings())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="in-process-asgi-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the in-process server did not start")
        time.sleep(0.01)
    try:
        yield int(sock.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
