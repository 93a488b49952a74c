"""`squares_testing.server.launch` tries another free port when the one it picked was
taken meanwhile, also when the bind error sits far above the log's end (granian prints a
Rust backtrace after it when ``RUST_BACKTRACE`` is set)."""

from __future__ import annotations

import sys
from pathlib import Path

from squares_testing.server import launch

HEALTHY = """
import http.server, sys
class Ok(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.end_headers(); self.wfile.write(b"ok")
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Ok).serve_forever()
"""


def test_a_port_taken_meanwhile_is_tried_again_past_a_long_backtrace(tmp_path: Path) -> None:
    script = tmp_path / "healthy.py"
    script.write_text(HEALTHY)
    ports: list[int] = []

    def command(port: int) -> str:
        ports.append(port)
        if len(ports) == 1:  # the bind error, then 9,000 characters of backtrace
            return ("echo 'RuntimeError: Address already in use (os error 98)'; "
                    "head -c 9000 /dev/zero | tr '\\0' x; exit 1")
        return f"{sys.executable} {script} {port}"

    server = launch(command, log_path=tmp_path / "log", timeout=20)
    try:
        assert len(ports) == 2 and server.port == ports[1]
    finally:
        server.stop()
