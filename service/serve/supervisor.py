"""``squares serve``'s processes, started and stopped together.

Each child is a command line. The servers are the node: when one of them exits, the
others are stopped and ``squares serve`` exits with its status, for whatever runs it
(systemd, a container) to start the node again. A helper (the analyst, the metrics
server) is started again instead, after a pause that doubles up to `MAX_PAUSE_S`.
SIGTERM or SIGINT stops every child with SIGTERM (each ends its work within its own
grace period), and SIGKILL after `STOP_GRACE_S`.

Each child runs in a process group of its own, so that it gets its stop from here
alone. A terminal's Ctrl-C signals its whole foreground group; granian's workers then
got that SIGINT and, a moment later, their master's SIGTERM, and a worker then often
never ended: granian killed it 3 s later ("Killing worker-2 after it refused to
gracefully stop"; granian 2.8.9): five stops of five took 3.2-3.3 s, now 0.3-0.4 s.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import FrameType

log = logging.getLogger(__name__)

POLL_S = 0.2
FIRST_PAUSE_S = 1.0
MAX_PAUSE_S = 30.0
STOP_GRACE_S = 10.0


@dataclass
class Child:
    name: str
    argv: Sequence[str]
    helper: bool = False  # started again when it exits, instead of stopping the node
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    pause_s: float = FIRST_PAUSE_S
    due: float = 0.0  # a helper's next start (time.monotonic())


class Supervisor:
    def __init__(self, children: Sequence[Child], stop_grace_s: float = STOP_GRACE_S) -> None:
        self.children = list(children)  # each inherits this process's environment
        self.stop_grace_s = stop_grace_s
        self.stopping = threading.Event()

    def run(self) -> int:
        """Start the children and watch them until a signal or a server's exit; the
        exit status (0 after a signal)."""
        def stop(_signum: int, _frame: FrameType | None) -> None:
            self.stopping.set()

        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, stop)
        status = 0
        try:
            for child in self.children:
                self._start(child)
            while not self.stopping.wait(POLL_S):
                status = self._watch()
                if status:
                    break
        finally:
            self.stop_all()
        return status

    def _start(self, child: Child) -> None:
        child.proc = subprocess.Popen(child.argv, process_group=0)
        log.info("started %s (pid %d)", child.name, child.proc.pid)

    def _watch(self) -> int:
        """Start again the helpers that are due; a server's exit status if one ended."""
        now = time.monotonic()
        for child in self.children:
            if child.proc is None:
                if now >= child.due:
                    self._start(child)
                continue
            code = child.proc.poll()
            if code is None:
                continue
            if not child.helper:
                log.error("%s exited with status %d: stopping the node", child.name, code)
                return code or 1
            log.error("%s exited with status %d: starting it again in %.0f s", child.name,
                      code, child.pause_s)
            child.proc, child.due = None, now + child.pause_s
            child.pause_s = min(2 * child.pause_s, MAX_PAUSE_S)
        return 0

    def stop_all(self) -> None:
        running = [c.proc for c in self.children if c.proc is not None and c.proc.poll() is None]
        for proc in running:
            proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + self.stop_grace_s
        for proc in running:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("pid %d did not stop within %.0f s: killed", proc.pid,
                            self.stop_grace_s)
                proc.kill()
                proc.wait()
