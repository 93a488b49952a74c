"""Where the server's log lines go and what they look like.

``squares serve`` calls `configure` in every server process: access lines (logger
``squares.access``) to standard output, everything else at WARNING and above (and
our own loggers from INFO) to standard error. ``SQUARES_LOG_FORMAT`` chooses the
shape: ``text`` (the default; one readable line) or ``json`` (one JSON object a
line, for a log shipper). Every line written while a request is answered carries
that request's id (`access_log`). In the text shape every argument of a message
(a path, a client's address, a name: whatever a client may have chosen) has its
backslashes, quotes and control characters escaped, and the message its control
characters, so no request can end a line, forge another or send a terminal an escape
sequence (`TextFormatter`); JSON escapes by itself. An error that repeats (an outage
fails every request alike) is written with its traceback once per
`REPEAT_INTERVAL_S`; its repeats meanwhile are counted, and the next one written says
how many there were (`RepeatFilter`). Nothing logged here holds a token, an invite or
claim code or a password: paths hold none (codes travel in bodies and #fragments),
query strings are never logged, and neither are headers or bodies.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import threading
import time
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

FORMATS = ("text", "json")
FORMAT_ENV = "SQUARES_LOG_FORMAT"
ACCESS_LOGGER = "squares.access"
OUR_LOGGERS = ("service", "cli", "squares")
# the fields an access line adds to its record (`access_log`), in this order
ACCESS_FIELDS = ("method", "route", "status", "duration_ms", "game_id", "client")
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"
REPEAT_INTERVAL_S = 10.0
REPEATS_KEPT = 1_000  # kinds of error remembered at once


def log_format(value: str) -> str:
    """`value` (``SQUARES_LOG_FORMAT``; empty: text), ValueError if unknown."""
    chosen = value or "text"
    if chosen not in FORMATS:
        raise ValueError(f"{FORMAT_ENV} must be one of {', '.join(FORMATS)}, not {chosen!r}")
    return chosen


_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _control(found: re.Match[str]) -> str:
    c = found.group()
    return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def escape_controls(text: str) -> str:
    """`text` with its control characters written as ``\\n``, ``\\x1b``, ``\\u2028``."""
    return _CONTROLS.sub(_control, text)


def escape(value: object) -> object:
    """A string with its backslashes, double quotes and control characters escaped
    (other values as they are): a client's text, safe inside a text log line's quotes."""
    if not isinstance(value, str):
        return value
    return escape_controls(value.replace("\\", "\\\\").replace('"', '\\"'))


class TextFormatter(logging.Formatter):
    """The text shape: the message's arguments escaped (`escape`), then its own
    control characters; the record itself is left as it is for other handlers."""

    def format(self, record: logging.LogRecord) -> str:
        args = record.args
        if isinstance(args, Mapping):
            safe_args: Any = {k: escape(v) for k, v in args.items()}
        else:
            safe_args = tuple(escape(a) for a in args or ())
        message = str(record.msg) % safe_args if args else str(record.msg)
        shown = logging.makeLogRecord(record.__dict__)
        shown.msg, shown.args = escape_controls(message), None
        return super().format(shown)


class RepeatFilter(logging.Filter):
    """Lets an error with a traceback through once per `interval_s` for each kind (its
    logger, message template and exception type); drops its repeats meanwhile and
    counts them on the next one let through (``repeats``, and in its message)."""

    def __init__(self, interval_s: float = REPEAT_INTERVAL_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.interval_s = interval_s
        self.clock = clock
        self._lock = threading.Lock()
        self._kinds: dict[tuple[str, str, type], list[Any]] = {}  # -> [written at, repeats]

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.exc_info or record.exc_info[0] is None:
            return True
        kind = (record.name, str(record.msg), record.exc_info[0])
        now = self.clock()
        with self._lock:
            seen = self._kinds.get(kind)
            if seen is not None and now - seen[0] < self.interval_s:
                seen[1] += 1
                return False
            repeats = seen[1] if seen is not None else 0
            self._kinds.pop(kind, None)
            self._kinds[kind] = [now, 0]
            while len(self._kinds) > REPEATS_KEPT:
                del self._kinds[next(iter(self._kinds))]
        if repeats:
            record.repeats = repeats
            record.msg = (f"{record.msg} (and {repeats} more like it since the last one "
                          "written, their tracebacks left out)")
        return True


def _no_request() -> str | None:
    return None


# Where the current request's id comes from. The HTTP side knows what a request is and
# sets this (`take_request_ids_from`), so that logging, which every layer uses, needs
# none of it.
_current_request_id: Callable[[], str | None] = _no_request


def take_request_ids_from(current: Callable[[], str | None]) -> None:
    """Name the current request's id on every record with `current` (None: outside a
    request): the app factory passes `service.protocol.request_ids.current`."""
    global _current_request_id
    _current_request_id = current


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every record (``-`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not hasattr(record, "request_id"):
            record.request_id = _current_request_id() or "-"
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, request_id, the access
    fields when present, and the traceback of an error."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", "-"),
        }
        for field in (*ACCESS_FIELDS, "repeats"):
            if hasattr(record, field):
                line[field] = getattr(record, field)
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def formatter_for(fmt: str) -> logging.Formatter:
    return JsonFormatter() if fmt == "json" else TextFormatter(TEXT_FORMAT)


def configure(fmt: str = "text") -> None:
    """Send this process' logs to standard output and error in format `fmt`."""
    chosen = log_format(fmt)
    formatter = formatter_for(chosen)
    # a text access line is its message alone: it names its request id itself
    access_formatter = formatter if chosen == "json" else TextFormatter("%(message)s")
    request_ids = RequestIdFilter()
    repeats = RepeatFilter()

    def handler(stream: Any, shape: logging.Formatter) -> logging.Handler:
        made = logging.StreamHandler(stream)
        made.addFilter(request_ids)
        made.addFilter(repeats)
        made.setFormatter(shape)
        return made

    access = logging.getLogger(ACCESS_LOGGER)
    access.handlers = [handler(sys.stdout, access_formatter)]
    access.setLevel(logging.INFO)
    access.propagate = False
    root = logging.getLogger()
    root.handlers = [handler(sys.stderr, formatter)]
    root.setLevel(logging.WARNING)
    for name in OUR_LOGGERS:
        logging.getLogger(name).setLevel(logging.INFO)
