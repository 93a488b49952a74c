"""The loopback address every test server listens on, free ports, a status probe."""

from __future__ import annotations

import http.client
import socket

HOST = "127.0.0.1"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now (another process may take it before it is
    bound: the launchers retry on "address already in use")."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((HOST, 0))
        return int(s.getsockname()[1])


def free_port_pair() -> int:
    """A free port whose next one is free too (``squares serve --port P`` puts its
    live streams on P + 1)."""
    for _ in range(50):
        port = free_port()
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind((HOST, port + 1))
            except OSError:
                continue
        return port
    raise RuntimeError("no two free ports in a row on 127.0.0.1")


def http_get_status(port: int, path: str, timeout: float = 2.0) -> int | None:
    """The status of ``GET path`` on 127.0.0.1:`port`, or None (no HTTP answer)."""
    conn = http.client.HTTPConnection(HOST, port, timeout=timeout)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        return response.status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        conn.close()
