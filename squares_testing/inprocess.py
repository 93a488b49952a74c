"""The service's servers on loopback ports in threads of this process, for tests and
benchmarks that need real HTTP and the app's objects at hand (the live feed's tests,
some browser tests): `streams_server` (the streams app under uvicorn) and `app_server`
(the Flask app under werkzeug's threaded server). ``squares serve`` runs both under
granian, which only runs in processes of its own (its embeddable server is
experimental); the end-to-end tests run it so (`squares_testing.server`).
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any

from werkzeug.serving import make_server

from squares_testing.net import HOST


@contextlib.contextmanager
def streams_server(services: Any, host: str = HOST) -> Iterator[Any]:
    """The streams app on `services` (with their settings) under uvicorn in a thread,
    with lifespan and client addresses from the socket as ``squares serve`` has them;
    yields the app (`port` set on it: where it listens)."""
    import socket

    import uvicorn

    from service.live.streams import streams_app

    app = streams_app(services)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, 0))
    server = uvicorn.Server(uvicorn.Config(app, lifespan="on", proxy_headers=False,
                                           access_log=False, log_level="warning",
                                           timeout_graceful_shutdown=3))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="in-process-streams-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the in-process streams server did not start")
        time.sleep(0.01)
    app.port = int(sock.getsockname()[1])
    try:
        yield app
    finally:
        app.hub.drain()  # as SIGTERM does under squares serve: the streams end at once
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()


@contextlib.contextmanager
def app_server(app: Any, host: str = HOST) -> Iterator[int]:
    """The Flask `app` over real HTTP (werkzeug's threaded server) in a thread; yields
    the port."""
    server = make_server(host, 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, name="in-process-app-server",
                              daemon=True)
    thread.start()
    try:
        yield int(server.server_port)
    finally:
        server.shutdown()
        thread.join(timeout=15)
        server.server_close()
