"""The test servers' ports (`squares_testing.net`) lie below the kernel's ephemeral
range, so that a server started again on its port never finds it taken by the local
port of some outgoing connection."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from squares_testing import net


def first_ephemeral() -> int:
    return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])


def test_free_ports_are_below_the_ephemeral_range_and_free() -> None:
    ports = {net.free_port() for _ in range(20)}
    assert all(net.LOWEST_PORT <= port < first_ephemeral() - 1 for port in ports), ports
    assert len(ports) > 1  # chosen at random, not the same one every time
    for port in ports:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            s.bind((net.HOST, port))


def test_a_pair_fits_below_the_ephemeral_range() -> None:
    port = net.free_port_pair()
    assert port + 1 < first_ephemeral()


def test_a_taken_port_is_not_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind((net.HOST, 0))
        taken.listen()
        port = taken.getsockname()[1]
        monkeypatch.setattr(net, "_below_ephemeral", lambda: range(port, port + 1))
        assert net.free_port() != port  # none below is free: the kernel picks one
