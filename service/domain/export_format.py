"""The format of an export, JSON Lines: writing a stream (one canonical event a line,
an optional signature line last, `signing`), and reading one from outside (imports):
parse it strictly within `export_bounds`, prove it is what the rules make of it, and
name the exact line that is not (`StreamRefused`)."""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections import Counter
from functools import cache
from itertools import accumulate
from typing import Any, Protocol

from .event_codec import event_from_dict, event_to_json
from .events import Event, EventFormatError
from .export_bounds import (
    EVENT_KEYS,
    MAX_DEPTH,
    MAX_EVENTS,
    MAX_INT_DIGITS,
    MAX_LINE_BYTES,
    MAX_STREAM_BYTES,
)
from .fold import apply_in_place, fold
from .replay_check import replay_check
from .signing import LINE_TYPE, Signature, SignatureFormatError, signature_from_dict
from .state import CorruptStream, GameState


class StreamRefused(ValueError):
    """A stream that is no legal game; details: ``line`` (1-based) and ``reason``. The
    service layer raises it as its `InvalidStream`, with the same message and details."""

    def __init__(self, message: str, *, line: int, reason: str) -> None:
        super().__init__(message)
        self.message = message
        self.details: dict[str, Any] = {"line": line, "reason": reason}


def to_jsonl(events: list[Event], signature: Signature | None = None) -> str:
    """JSON Lines: one canonical `event_to_json` per line, each ending in a newline,
    and the `signature` line last when given."""
    text = "".join(event_to_json(e) + "\n" for e in events)
    if signature is None:
        return text
    return text + json.dumps(signature.to_dict(), sort_keys=True, separators=(",", ":")) + "\n"


def stream_digest(events: list[Event]) -> str:
    """A 128-bit digest of a stream's canonical text: an imported game's id, so the
    same stream imported twice meets the games table's primary key."""
    return hashlib.sha256(to_jsonl(events).encode("utf-8")).hexdigest()[:32]


def refusal(line: int, reason: str) -> StreamRefused:
    return StreamRefused(f"line {line}: {reason}", line=line, reason=reason)


class LineSource(Protocol):
    """A binary file: `parse_lines` reads it with bounded ``readline`` calls only."""

    def readline(self, size: int = -1, /) -> bytes: ...


class _Refused(ValueError):
    """A line's JSON that breaks a bound; its message is the reason."""


# -- parsing ----------------------------------------------------------------------------
def parse_stream(text: str) -> list[Event]:
    """`parse_lines` of a text held in memory (its UTF-8 encoding)."""
    return parse_lines(io.BytesIO(text.encode("utf-8", "surrogatepass")))


def parse_signed_stream(text: str) -> tuple[list[Event], Signature | None]:
    """`parse_signed` of a text held in memory (its UTF-8 encoding)."""
    return parse_signed(io.BytesIO(text.encode("utf-8", "surrogatepass")))


def parse_lines(source: LineSource) -> list[Event]:
    """The events of `parse_signed` (a signature line is read, and left out)."""
    return parse_signed(source)[0]


def parse_signed(source: LineSource) -> tuple[list[Event], Signature | None]:
    """Events of a JSON Lines stream of UTF-8 text, strictly typed
    (`event_from_dict(strict=True)`) and within the bounds (`export_bounds`), and its
    signature line if the last line is one; `StreamRefused` with the 1-based line
    otherwise, and the stream is read no further than that line. Blank lines may end
    the stream, nowhere else."""
    events: list[Event] = []
    signature: Signature | None = None
    read = 0
    blank: int | None = None  # the first of the blank lines read since the last event
    # A longest line and its CR LF, or enough of a longer one to know it is too long.
    for number, raw in enumerate(iter(lambda: source.readline(MAX_LINE_BYTES + 2), b""),
                                 start=1):
        read += len(raw)
        line = _line_text(number, raw, read)
        if not line.strip():
            blank = number if blank is None else blank
            continue
        if blank is not None:
            raise refusal(blank, "empty line")
        if signature is not None:
            raise refusal(number, "a line after the signature, which ends a stream")
        item = parse_line(number, line)
        if isinstance(item, Signature):
            signature = item
            continue
        if len(events) == MAX_EVENTS:
            raise refusal(number, f"more than {MAX_EVENTS} events: no game has that many")
        events.append(item)
    if not events:
        raise refusal(1, "the stream is empty")
    return events, signature


def _line_text(number: int, raw: bytes, read: int) -> str:
    """Line `number` (its newline cut) as text, once the bounds allow it."""
    if number > MAX_EVENTS + 1:  # the events, and a signature
        raise refusal(number, f"more than {MAX_EVENTS + 1} lines: no game has that many "
                              "events")
    if read > MAX_STREAM_BYTES:
        raise refusal(number, f"the stream passes {MAX_STREAM_BYTES} bytes here: "
                              "no game's stream is that long")
    content = raw[:-2] if raw.endswith(b"\r\n") else raw.removesuffix(b"\n")
    if len(content) > MAX_LINE_BYTES:
        raise refusal(number, f"longer than {MAX_LINE_BYTES} bytes: no event is that long")
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise refusal(number, f"this line is not UTF-8 text ({exc.reason} at byte "
                              f"{exc.start + 1})") from exc


def parse_line(number: int, line: str) -> Event | Signature:
    """The event (or the signature) of one line of a stream (`InvalidStream` naming
    `number` if none)."""
    try:
        _check_depth(line)
        raw = json.loads(line, parse_int=_small_int, parse_float=_no_float,
                         parse_constant=_no_constant, object_pairs_hook=_unique_keys)
    except json.JSONDecodeError as exc:
        raise refusal(number, f"not JSON: {exc.msg} (column {exc.colno})") from exc
    except _Refused as exc:
        raise refusal(number, str(exc)) from exc
    problem = _envelope_problem(raw)
    if problem is not None:
        raise refusal(number, problem)
    if raw["type"] == LINE_TYPE:
        try:
            return signature_from_dict(raw)
        except SignatureFormatError as exc:
            raise refusal(number, str(exc)) from exc
    try:
        return event_from_dict(raw, strict=True)
    except EventFormatError as exc:
        raise refusal(number, _shortened(str(exc), 300)) from exc


# Strings (an unterminated one runs to the end of the line), so brackets in names
# do not count; every match starts at a quote and ends past it, so the scan is linear.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_DEPTH_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def _check_depth(line: str) -> None:
    """Refuse arrays and objects nested deeper than `MAX_DEPTH` before ``json.loads``
    recurses into them."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", line))
    if max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0) > MAX_DEPTH:
        raise _Refused(f"nested deeper than {MAX_DEPTH}: no event is")


def _small_int(text: str) -> int:
    if len(text) <= 4:
        return _shared_int(text)
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"an integer of {len(text.lstrip('-'))} digits: no event holds "
                       f"one of more than {MAX_INT_DIGITS}")
    return int(text)


@cache
def _shared_int(text: str) -> int:
    """One object for each short integer (at most 11,000 of them): a list of one
    number repeated costs a pointer per item, not an integer object per item."""
    return int(text)


def _no_float(text: str) -> float:
    raise _Refused(f"the number {_shortened(text, 30)} is not an integer: no event holds one")


def _no_constant(text: str) -> float:
    raise _Refused(f"not JSON: {text} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        twice = next(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise _Refused(f"the key {_shortened(repr(twice), 40)} twice in one object")
    return found


def _envelope_problem(raw: object) -> str | None:
    """Why `raw` is not ``{"type": text, "v": integer, "data": object}``, or None."""
    if not isinstance(raw, dict):
        return "not a JSON object"
    if raw.keys() != EVENT_KEYS:
        keys = ", ".join(_shortened(repr(k), 40) for k in sorted(raw)[:5])
        return f"an event has exactly the keys 'data', 'type' and 'v', not {keys}"
    if type(raw["type"]) is not str or type(raw["v"]) is not int:
        return "an event's type is text and its v an integer"
    if type(raw["data"]) is not dict:
        return "an event's data is a JSON object"
    return None


def _shortened(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_stream(events: list[Event]) -> GameState:
    """The final state of a whole, legal stream (`replay_check.replay_check`: every random
    outcome re-derived from the seed); `StreamRefused` naming the first bad line."""
    try:
        return replay_check(events)
    except CorruptStream as exc:
        match = re.match(r"event (\d+)", str(exc))
        line = int(match.group(1)) if match else len(events)
        raise refusal(line, str(exc)) from exc
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        # well-typed values no board takes (e.g. a coordinate of a billion)
        raise refusal(_first_unfoldable(events), f"malformed event: {exc!r}") from exc


def _first_unfoldable(events: list[Event]) -> int:
    """The 1-based position of the first event that cannot be folded (else the last)."""
    try:
        state = fold(events[:1])
    except Exception:  # noqa: BLE001 - any failure names line 1
        return 1
    for position, event in enumerate(events[1:], start=2):
        try:
            apply_in_place(state, event)
        except Exception:  # noqa: BLE001
            return position
    return len(events)
