"""`service.serve.late_stop`: a stop signal that comes while a worker loads the app is
sent again once the app is loaded (granian installs the worker's handlers only then).
Each case runs in a process of its own: the signal goes to that process's main thread."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent("""
    import os, signal, sys, time
    from service.serve.late_stop import kept_while_loading
    got = []
    inherited = lambda signum, frame: None  # a worker's handler from granian's master
    signal.signal(signal.SIGTERM, inherited)
    with kept_while_loading():
        if sys.argv[1] == "stopped":
            os.kill(os.getpid(), signal.SIGTERM)  # while "loading"
        time.sleep(0.05)
    assert signal.getsignal(signal.SIGTERM) is inherited  # given back
    signal.signal(signal.SIGTERM, lambda signum, frame: got.append(signum))  # granian's
    deadline = time.monotonic() + 2
    while not got and time.monotonic() < deadline:
        time.sleep(0.01)
    print(got[:1])
""")


def run(case: str) -> str:
    done = subprocess.run([sys.executable, "-c", SCRIPT, case], capture_output=True,
                          text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_stop_received_while_loading_reaches_the_handler_installed_after() -> None:
    assert run("stopped") == f"[{int(signal.SIGTERM)}]"


def test_without_a_stop_nothing_is_sent() -> None:
    assert run("not stopped") == "[]"
