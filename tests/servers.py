"""The real ASGI server (uvicorn, with `squares serve`'s settings) on a loopback port
in a thread of the test process, for tests that need real HTTP and the app's objects
at hand (the live feed's, the browser tests')."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn
from flask import Flask

from service.asgi import SquaresAsgi
from service.server import uvicorn_settings


@contextmanager
def asgi_server(app: Flask, host: str = "127.0.0.1") -> Iterator[int]:
    """Serve `app` as ``squares serve`` does (one process); yield the port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    config = uvicorn.Config(SquaresAsgi(app), log_level="warning",
                            **uvicorn_settings())
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="test-asgi-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.01)
    try:
        yield int(sock.getsockname()[1])
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
