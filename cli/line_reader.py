"""Typed input that can be waited for: an online game's waiting seat reads what is
typed without blocking its look at the game."""

from __future__ import annotations

import io
import os
import select
from typing import IO


class LineReader:
    """Lines typed on standard input, and a wait for the next one that gives up
    after a timeout (so the game can be re-read meanwhile). It reads the descriptor
    itself (select + read): a buffered text stream may hold lines select cannot see.
    A stream without a descriptor (an in-memory one, as in click's test runner) is
    always ready."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.fd: int | None
        try:
            self.fd = stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            self.fd = None
        self.buffer = b""
        self.eof = False

    def _fill(self) -> None:
        assert self.fd is not None
        chunk = os.read(self.fd, 4096)
        if chunk:
            self.buffer += chunk
        else:
            self.eof = True

    def ready(self, timeout: float) -> bool:
        """True once a whole line (or the end of input) can be read at once."""
        if self.fd is None or self.eof or b"\n" in self.buffer:
            return True
        try:
            readable, _, _ = select.select([self.fd], [], [], timeout)
        except (OSError, ValueError):  # no select on this descriptor: a blocking read
            return True
        if readable:
            self._fill()
        return self.eof or b"\n" in self.buffer

    def readline(self) -> str:
        """The next line with its newline; "" at the end of input."""
        if self.fd is None:
            return self.stream.readline()
        while b"\n" not in self.buffer and not self.eof:
            self._fill()
        line, newline, self.buffer = self.buffer.partition(b"\n")
        return (line + newline).decode("utf-8", errors="replace")
