"""`ApiClient`: a keep-alive HTTP/1.1 JSON client of a server on 127.0.0.1."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass, field
from typing import Any

from squares_testing.net import HOST


class ConnectionFailed(Exception):
    """No HTTP answer (refused, reset, timed out): the outcome of the request is unknown."""


@dataclass
class Reply:
    status: int
    data: Any  # the decoded JSON body, or None
    body: bytes
    content_type: str
    elapsed: float  # seconds
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case
    started: float = 0.0  # time.monotonic() when the request was sent


class ApiClient:
    """A keep-alive HTTP/1.1 client for 127.0.0.1:`port` (reconnects when needed)."""

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.port = port
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def call(self, method: str, path: str, body: Any = None, *, token: str | None = None,
             raw: bytes | None = None, headers: dict[str, str] | None = None) -> Reply:
        """One request (`body` sent as JSON, or `raw` bytes as they are); the reply.
        ConnectionFailed when there is no HTTP answer."""
        sent_headers = {"Accept": "application/json"}
        payload: bytes | None = raw
        if body is not None:
            payload = json.dumps(body).encode("utf-8")
        if payload is not None:
            sent_headers["Content-Type"] = "application/json"
        if token is not None:
            sent_headers["Authorization"] = f"Bearer {token}"
        sent_headers.update(headers or {})
        if self._conn is None:
            self._conn = http.client.HTTPConnection(HOST, self.port, timeout=self.timeout)
        started_at = time.monotonic()
        started = time.perf_counter()
        try:
            self._conn.request(method, path, body=payload, headers=sent_headers)
            response = self._conn.getresponse()
            data = response.read()
        except (OSError, http.client.HTTPException) as exc:
            self.close()
            raise ConnectionFailed(f"{method} {path}: {exc!r}") from exc
        elapsed = time.perf_counter() - started
        if response.will_close:
            self.close()
        content_type = response.getheader("Content-Type", "")
        decoded: Any = None
        if "json" in content_type:
            try:
                decoded = json.loads(data)
            except ValueError:
                decoded = None
        return Reply(response.status, decoded, data, content_type, elapsed,
                     {k.lower(): v for k, v in response.getheaders()}, started_at)
