"""Event streams from outside (imports): parse JSON Lines strictly, prove the stream
is what the rules make of it, and name the exact line that is not."""

from __future__ import annotations

import hashlib
import json
import re

from ..domain.events import Event, EventFormatError, event_from_dict, event_to_json
from ..domain.replay_check import replay_check
from ..domain.state import CorruptStream, GameState, apply_in_place, fold
from ..errors import InvalidStream


def to_jsonl(events: list[Event]) -> str:
    """JSON Lines: one canonical `event_to_json` per line, each ending in a newline."""
    return "".join(event_to_json(e) + "\n" for e in events)


def stream_digest(events: list[Event]) -> str:
    """A 128-bit digest of a stream's canonical text: an imported game's id, so the
    same stream imported twice meets the games table's primary key."""
    return hashlib.sha256(to_jsonl(events).encode("utf-8")).hexdigest()[:32]


def refusal(line: int, reason: str) -> InvalidStream:
    return InvalidStream(f"line {line}: {reason}", line=line, reason=reason)


def parse_stream(text: str) -> list[Event]:
    """Events of a JSON Lines text, strictly typed (`event_from_dict(strict=True)`);
    `InvalidStream` with the 1-based line otherwise."""
    lines = text.split("\n")
    while lines and lines[-1].strip() == "":
        lines.pop()
    if not lines:
        raise refusal(1, "the stream is empty")
    events: list[Event] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            raise refusal(number, "empty line")
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise refusal(number, f"not JSON: {exc.msg} (column {exc.colno})") from exc
        if not isinstance(raw, dict):
            raise refusal(number, "not a JSON object")
        try:
            events.append(event_from_dict(raw, strict=True))
        except EventFormatError as exc:
            raise refusal(number, str(exc)) from exc
    return events


def check_stream(events: list[Event]) -> GameState:
    """The final state of a whole, legal stream (`replay_check.replay_check`: every random
    outcome re-derived from the seed); `InvalidStream` naming the first bad line."""
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
