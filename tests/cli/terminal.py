"""The ``squares`` CLI in a pseudo-terminal, for the tests of its cursor UI."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import threading
import time
from collections.abc import Callable


class Terminal:
    """A command (`argv`) in a pseudo-terminal (100 x 40): keys in, everything it
    drew out."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
        self.master = master
        self.output = b""
        self.process = subprocess.Popen(argv, stdin=slave, stdout=slave,
                                        stderr=slave, env=env, close_fds=True,
                                        start_new_session=True)
        os.close(slave)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(self.master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                self.output += chunk
            elif self.process.poll() is not None:
                return

    def send(self, keys: bytes) -> None:
        os.write(self.master, keys)
        time.sleep(0.05)

    def wait_for(self, what: Callable[[], object], timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while not what():
            assert self.process.poll() is None or what(), self.output[-2000:]
            assert time.monotonic() < deadline, self.output[-2000:]
            time.sleep(0.05)

    def close(self) -> int:
        try:
            return self.process.wait(timeout=20)
        finally:
            self._reader.join(timeout=5)
            os.close(self.master)
