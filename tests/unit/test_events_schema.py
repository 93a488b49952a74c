"""Event schema versions: the line_placed v1 -> v2 upcaster, and strict decoding of
data from outside (a JSON boolean is no integer)."""

from __future__ import annotations

import json

import pytest

from service.domain.events import (
    UPCASTERS,
    EventFormatError,
    LinePlaced,
    event_from_dict,
    event_to_json,
)
from tests.factories import EventStreamFactory


def _v1(penalty: object) -> dict[str, object]:
    return {"type": "line_placed", "v": 1,
            "data": {"seat": 1, "x": 3, "y": 2, "stage": 1, "squares": [[3, 1, ":"]],
                     "penalty": penalty}}


def test_RULES_T2_a_v1_line_placed_is_read_as_v2_with_the_points_it_cost() -> None:
    assert ("line_placed", 1) in UPCASTERS and LinePlaced.VERSION == 2
    costly = event_from_dict(_v1(True), strict=True)
    assert costly == LinePlaced(1, 3, 2, 1, ((3, 1, ":"),), 5)
    assert event_from_dict(_v1(False), strict=True).penalty == 0  # type: ignore[attr-defined]
    assert json.loads(event_to_json(costly))["v"] == 2  # written back as the current shape


def test_a_v1_line_placed_with_a_non_boolean_penalty_is_refused() -> None:
    with pytest.raises(EventFormatError):
        event_from_dict(_v1(5))


def test_every_event_of_a_whole_game_round_trips_strictly() -> None:
    stream = EventStreamFactory.build(finished=True, small=True, seed=5,
                                      mode="two_players")
    for event in stream.events:
        assert event_from_dict(json.loads(event_to_json(event)), strict=True) == event


@pytest.mark.parametrize("field, value", [
    ("x", True), ("x", 1.0), ("x", "3"), ("penalty", False), ("squares", [[3, 1, 7]]),
    ("seat", None),
])
def test_strict_decoding_refuses_a_value_of_the_wrong_json_type(field: str,
                                                                value: object) -> None:
    raw = {"type": "line_placed", "v": 2,
           "data": {"seat": 1, "x": 3, "y": 2, "stage": 1, "squares": [[3, 1, ":"]],
                    "penalty": 0}}
    event_from_dict(raw, strict=True)
    raw["data"][field] = value  # type: ignore[index]
    with pytest.raises(EventFormatError):
        event_from_dict(raw, strict=True)


def test_strict_decoding_refuses_unknown_or_missing_fields() -> None:
    raw = _v1(False)
    raw["data"]["extra"] = 1  # type: ignore[index]
    with pytest.raises(EventFormatError):
        event_from_dict(raw, strict=True)
