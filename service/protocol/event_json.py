"""A stored event as JSON (what ``/events`` shows and a live stream sends), and the one
way an answer writes a moment, `timestamp`: ISO 8601 in UTC with a ``Z``
(`ops.times.iso_utc`, which the CLI's JSON and the errors' details use too)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..domain.events import Event
from ..ops.times import iso_utc as timestamp

if TYPE_CHECKING:
    from ..services import StoredEvent


def event_data(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = event.to_dict()["data"]
    return data


def event_view(stored: StoredEvent) -> dict[str, Any]:
    event = stored.event
    return {"type": event.TYPE, "v": event.VERSION, "data": event_data(event),
            "seq": stored.seq, "recorded_at": timestamp(stored.recorded_at)}
