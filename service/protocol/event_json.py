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
    """An event's data as readers get it: seats by name, never by player record (the
    services hand back events named as shown, `domain.seat_names`)."""
    data: dict[str, Any] = event.to_dict()["data"]
    data.pop("player", None)  # seat_claimed
    for seat in data.get("seats", ()):  # game_created
        seat.pop("player", None)
    for entry in data.get("entries", ()):  # high_scores_entered
        entry.pop("player", None)
    return data


def event_view(stored: StoredEvent) -> dict[str, Any]:
    event = stored.event
    return {"type": event.TYPE, "v": event.VERSION, "data": event_data(event),
            "seq": stored.seq, "recorded_at": timestamp(stored.recorded_at)}
