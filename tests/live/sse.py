"""A small Server-Sent Events client for the tests (http.client, one connection)."""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Message:
    id: int | None
    event: str | None
    data: dict[str, Any] | None
    comment: str | None = None


@dataclass
class SseClient:
    host: str
    port: int
    path: str
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float = 10.0

    def __post_init__(self) -> None:
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        self.conn.request("GET", self.path, headers={"Accept": "text/event-stream",
                                                     **self.headers})
        self.response = self.conn.getresponse()
        self.status = self.response.status

    def body_json(self) -> Any:
        return json.loads(self.response.read())

    def next(self, timeout: float | None = None) -> Message | None:
        """The next message or comment; None when the stream ended."""
        sock = self.conn.sock
        if timeout is not None and sock is not None:
            sock.settimeout(timeout)
        fields: dict[str, str] = {}
        comment = None
        while True:
            try:
                raw = self.response.readline()
            except TimeoutError:
                raise TimeoutError("no SSE message in time") from None
            if not raw:
                return None
            line = raw.decode("utf-8").rstrip("\r\n")
            if line == "":
                if fields or comment is not None:
                    data = fields.get("data")
                    return Message(int(fields["id"]) if "id" in fields else None,
                                   fields.get("event"),
                                   json.loads(data) if data is not None else None, comment)
                continue
            if line.startswith(":"):
                comment = line[1:].strip()
                continue
            name, _, value = line.partition(":")
            fields[name] = value[1:] if value.startswith(" ") else value

    def events(self, until: float = 10.0) -> list[Message]:
        """Every event message until the stream ends (comments skipped)."""
        deadline = time.monotonic() + until
        out = []
        while time.monotonic() < deadline:
            message = self.next(timeout=max(0.1, deadline - time.monotonic()))
            if message is None:
                return out
            if message.id is not None:
                out.append(message)
        raise TimeoutError(f"the stream did not end in {until} s")

    def close(self) -> None:
        # The response holds its own reference to the socket: close both, or the
        # server never sees the connection go.
        self.response.close()
        self.conn.close()
