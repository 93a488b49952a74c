"""Debian's nginx in front of test servers, with the very file we ship: ``deploy/nginx.conf``.

`running_nginx(upstreams)` fills the file's placeholders (``@LISTEN@`` with
127.0.0.1:<free port>, ``@UPSTREAM_1@``, ``@UPSTREAM_2@``, ... with the servers'
``host:port``, ``@LIVE_UPSTREAM_1@``, ... with their live streams' (the next port);
nothing else is changed), writes it into a fresh prefix directory
and runs ``nginx -p <prefix> -c <prefix>/nginx.conf -g 'daemon off;'`` in its own
process group, as the file's header shows: pid, logs and temp files stay under the
prefix, nothing under /etc or /var is touched, as root (workers as ``www-data``, the
file's ``user``) or not. It waits until nginx answers, yields an `Nginx`, and stops
it at exit (also after a failure), keeping a copy of its config and logs where the
test says. nginx missing: RuntimeError, saying so
(``./dev test`` installs Debian's package).

Like PostgreSQL for the storage tests, nginx is started by the tests themselves,
never as the system's service.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from squares_testing.net import HOST, free_port

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "deploy" / "nginx.conf"
DEBIAN_NGINX = "/usr/sbin/nginx"
PLACEHOLDER = re.compile(r"@[A-Z0-9_]+@")


def nginx_binary() -> str | None:
    """Debian's nginx (in /usr/sbin, often not on a user's PATH), or None."""
    found = shutil.which("nginx")
    if found:
        return found
    return DEBIAN_NGINX if os.access(DEBIAN_NGINX, os.X_OK) else None


def live_address(address: str) -> str:
    """The live streams of the ``squares serve`` at `address` (``host:port``): its
    default ``--live-port``, the next port."""
    host, _, port = address.rpartition(":")
    return f"{host}:{int(port) + 1}"


def render_config(listen: str, upstreams: Sequence[str], template: str | None = None) -> str:
    """deploy/nginx.conf with its placeholders filled: ``@LISTEN@`` = `listen`,
    ``@UPSTREAM_n@`` = ``upstreams[n - 1]`` (an instance's app) and
    ``@LIVE_UPSTREAM_n@`` = its live streams (`live_address`). The file must have
    exactly as many upstream placeholders as `upstreams` has entries."""
    text = CONFIG.read_text() if template is None else template
    text = text.replace("@LISTEN@", listen)
    for number, address in enumerate(upstreams, start=1):
        for name, value in ((f"@UPSTREAM_{number}@", address),
                            (f"@LIVE_UPSTREAM_{number}@", live_address(address))):
            if name not in text:
                raise ValueError(f"{CONFIG} has no {name} (add a `server` line for it)")
            text = text.replace(name, value)
    left = sorted(set(PLACEHOLDER.findall(text)))
    if left:
        raise ValueError(f"placeholders left unfilled in {CONFIG}: {', '.join(left)}")
    return text


@dataclass
class Nginx:
    proc: subprocess.Popen[bytes]
    port: int
    prefix: Path

    @property
    def base_url(self) -> str:
        return f"http://{HOST}:{self.port}"

    @property
    def access_log(self) -> Path:
        return self.prefix / "logs" / "access.log"

    @property
    def error_log(self) -> Path:
        return self.prefix / "logs" / "error.log"

    def access_lines(self) -> list[str]:
        try:
            return self.access_log.read_text(errors="replace").splitlines()
        except OSError:
            return []

    def log_tail(self, chars: int = 4000) -> str:
        parts = []
        for path in (self.error_log, self.prefix / "nginx.out"):
            with contextlib.suppress(OSError):
                parts.append(f"-- {path.name}:\n" + path.read_text(errors="replace")[-chars:])
        return "\n".join(parts)

    def answers(self) -> bool:
        """Any HTTP answer (the upstreams may be down: nginx's 502 counts)."""
        conn = http.client.HTTPConnection(HOST, self.port, timeout=2.0)
        try:
            conn.request("GET", "/healthz")
            conn.getresponse().read()
            return True
        except (OSError, http.client.HTTPException):
            return False
        finally:
            conn.close()

    def stop(self) -> None:
        """Fast shutdown (SIGTERM: open streams are cut), SIGKILL to the whole group
        after 10 s; idempotent."""
        pgid = self.proc.pid
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=10)
        # workers left behind by a master that did not stop (or died)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)


def start_nginx(upstreams: Sequence[str], *, prefix: Path | None = None,
                timeout: float = 15.0) -> Nginx:
    """nginx with deploy/nginx.conf on 127.0.0.1:<free port>, in front of
    `upstreams` (``host:port`` each), its prefix `prefix` (default: a new temp
    directory, left behind); returns once it answers."""
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("Debian's nginx is not installed: `apt-get install nginx` "
                           "(`./dev test` installs it when missing)")
    if prefix is None:
        prefix = Path(tempfile.mkdtemp(prefix="squares-nginx-"))
    prefix.mkdir(parents=True, exist_ok=True)
    # the workers (www-data when started as root) go through it to their temp dirs
    prefix.chmod(0o755)
    (prefix / "logs").mkdir(exist_ok=True)
    conf = prefix / "nginx.conf"
    last = ""
    for _attempt in range(3):  # a free port may be taken before nginx binds it
        port = free_port()
        conf.write_text(render_config(f"{HOST}:{port}", upstreams))
        out = (prefix / "nginx.out").open("ab")
        try:
            # -e: the error log before the config is read, too (Debian's default: stderr)
            argv = [binary, "-p", f"{prefix}/", "-c", str(conf),
                    "-e", str(prefix / "logs" / "error.log"), "-g", "daemon off;"]
            proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                                    start_new_session=True)
        finally:
            out.close()
        nginx = Nginx(proc, port, prefix)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and proc.poll() is None:
            if nginx.answers():
                return nginx
            time.sleep(0.05)
        nginx.stop()
        last = nginx.log_tail()
        if "Address already in use" not in last:
            break
    raise RuntimeError(f"nginx did not start (prefix {prefix}):\n{last}")


@contextlib.contextmanager
def running_nginx(upstreams: Sequence[str], *, logs_to: Path | None = None) -> Iterator[Nginx]:
    """`start_nginx` in a fresh prefix under the system's temp directory (the test's
    own tmp_path is not traversable by www-data); always stopped at exit, then its
    config and logs are copied to `logs_to` (e.g. the test's tmp_path) and the
    prefix is removed."""
    prefix = Path(tempfile.mkdtemp(prefix="squares-nginx-"))
    try:
        nginx = start_nginx(upstreams, prefix=prefix)
        try:
            yield nginx
        finally:
            nginx.stop()
    finally:
        if logs_to is not None:
            logs_to.mkdir(parents=True, exist_ok=True)
            for path in [prefix / "nginx.conf", prefix / "nginx.out",
                         *sorted((prefix / "logs").glob("*"))]:
                with contextlib.suppress(OSError):
                    shutil.copyfile(path, logs_to / path.name)
        shutil.rmtree(prefix, ignore_errors=True)
