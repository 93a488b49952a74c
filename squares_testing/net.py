"""The loopback address every test server listens on, free ports, a status probe.

The ports are chosen below the kernel's ephemeral range (the local ports of outgoing
connections): a server stopped and started again on its port (a restart, a crash, a
database stopped for a while) would otherwise find it taken by some connection that
any process on the machine opened meanwhile ("address already in use").
"""

from __future__ import annotations

import http.client
import random
import socket
from pathlib import Path

HOST = "127.0.0.1"
LOWEST_PORT = 16384  # and below the ephemeral range (Linux: 32768 on)
_EPHEMERAL = Path("/proc/sys/net/ipv4/ip_local_port_range")
_PICK = random.SystemRandom()  # not the seedable module state: workers must not agree


def _below_ephemeral() -> range:
    """Ports no outgoing connection takes: from `LOWEST_PORT` up to the ephemeral
    range (the pair of ports ``squares serve`` uses must fit below it too)."""
    try:
        first_ephemeral = int(_EPHEMERAL.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        first_ephemeral = 32768
    return range(LOWEST_PORT, max(LOWEST_PORT, first_ephemeral - 1))


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((HOST, port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A TCP port free on 127.0.0.1 right now, below the ephemeral range (another
    process may take it before it is bound: the launchers retry on "address already
    in use"); one the kernel picks when no such port is free."""
    ports = _below_ephemeral()
    for _ in range(100 if ports else 0):
        port = _PICK.choice(ports)
        if _bindable(port):
            return port
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
