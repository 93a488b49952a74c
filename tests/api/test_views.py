"""The hand-built views equal the domain's own serialisation and the board."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from service.api import response_schemas as s
from service.api.views import state_view
from service.domain.fold import fold
from service.domain.state import EMPTY, OWNER_LETTERS
from service.protocol.event_json import event_data, event_view, timestamp
from service.store import StoredEvent
from tests.factories import EventStreamFactory

from .helpers import assert_valid

STREAMS = {
    "vs_computer": {"finished": True, "small": True},
    "two_players": {"mode": "two_players", "finished": True, "small": True},
    "computer_vs_computer": {"mode": "computer_vs_computer", "difficulty": "easy",
                             "finished": True},
    "default_size_two_turns": {},
}


@pytest.mark.parametrize("kind", list(STREAMS))
def test_event_views_equal_the_domains_to_dict(kind: str) -> None:
    stream = EventStreamFactory.build(**STREAMS[kind])
    types = set()
    now = datetime.now(UTC)
    for seq, event in enumerate(stream.events, start=1):
        expected = _without_records(event.to_dict())
        assert event_data(event) == expected["data"]
        view = event_view(StoredEvent("g", seq, event, now))
        assert view == {**expected, "seq": seq, "recorded_at": timestamp(now)}
        assert_valid(s.EventSchema, view)
        types.add(event.TYPE)
    assert "game_created" in types and "line_placed" in types


def _without_records(raw: dict) -> dict:
    """An event as readers get it: seats by name, with no player record."""
    data = raw["data"]
    data.pop("player", None)
    for each in (*data.get("seats", ()), *data.get("entries", ())):
        each.pop("player", None)
    return raw


@pytest.mark.parametrize("kind", list(STREAMS))
def test_state_view_lists_every_drawn_line_and_formed_box(kind: str) -> None:
    stream = EventStreamFactory.build(**STREAMS[kind])
    for upto in (1, len(stream.events) // 2, len(stream.events)):
        state = fold(stream.events[:upto])
        view = state_view("g", state)
        assert_valid(s.StateSchema, view)
        w = state.width
        assert [(d["x"], d["y"]) for d in view["lines"]] == [
            (i % w, i // w) for i, who in enumerate(state.lines) if who != EMPTY]
        assert [(b["x"], b["y"], b["owner"]) for b in view["boxes"]] == [
            (i % w, i // w, OWNER_LETTERS[o]) for i, o in enumerate(state.owners) if o != EMPTY]
        assert view["last_pieces"] == [p.to_dict()["data"] for p in state.last_pieces]
        assert view["explanations"] == [
            state.explanations[k].to_dict()["data"] for k in sorted(state.explanations)]
        assert view["version"] == upto


def test_timestamps_are_utc_with_z() -> None:
    assert timestamp(None) is None
    assert timestamp(datetime(2024, 5, 1, 12, 0, tzinfo=UTC)) == "2024-05-01T12:00:00Z"
    plus3 = timezone(timedelta(hours=3))
    assert timestamp(datetime(2024, 5, 1, 15, 0, tzinfo=plus3)) == "2024-05-01T12:00:00Z"
    assert timestamp(datetime(2024, 5, 1, 12, 0)) == "2024-05-01T12:00:00Z"  # naive: UTC
