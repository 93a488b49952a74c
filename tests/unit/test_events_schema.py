"""Event schema versions: the line_placed v1 -> v2 upcaster, and strict decoding of
data from outside (a JSON boolean is no integer)."""

from __future__ import annotations

import json

import pytest

from service.domain.event_codec import event_from_dict, event_to_json
from service.domain.events import EventFormatError, LinePlaced
from service.domain.upcasters import UPCASTER_ADDS, UPCASTERS
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


@pytest.mark.parametrize("v", [0, -1, 2, 10**19])
def test_an_event_of_a_version_that_does_not_exist_is_refused(v: int) -> None:
    """Issue 34: an import refuses an unknown ``v`` (here of a version-1 event)."""
    raw = {"type": "stage_advanced", "v": v,
           "data": {"seat": 1, "stage": 2, "turn": 1, "round": 1, "reason": "player"}}
    with pytest.raises(EventFormatError, match="no version of this event"):
        event_from_dict(raw, strict=True)
    raw["v"] = 1
    assert event_from_dict(raw, strict=True)


def test_an_old_version_carrying_a_later_version_s_field_is_refused() -> None:
    """A v2 game_created with the v3 field rules_edition would be read as edition 1,
    whatever it says: an event is exactly of the version it names."""
    stream = EventStreamFactory.build(small=True, seed=5)
    data = stream.events[0].to_dict()["data"]
    v2 = {k: value for k, value in data.items() if k not in ("rules_edition", "rated")}
    assert event_from_dict({"type": "game_created", "v": 2, "data": v2},
                           strict=True).rules_edition == 1  # type: ignore[attr-defined]
    with pytest.raises(EventFormatError, match="game_created v2 has no rules_edition"):
        event_from_dict({"type": "game_created", "v": 2,
                         "data": {k: v for k, v in data.items() if k != "rated"}}, strict=True)
    with pytest.raises(EventFormatError, match="game_created v3 has no rated"):
        event_from_dict({"type": "game_created", "v": 3, "data": data}, strict=True)


def test_each_upcaster_adds_exactly_the_fields_it_declares() -> None:
    assert set(UPCASTER_ADDS) == set(UPCASTERS)
    samples = {("line_placed", 1): _v1(True)["data"],
               ("game_created", 1): {"seed": 5, "height": 7},
               ("game_created", 2): {"seed": "5", "height": 7},
               ("game_created", 3): {"seed": "5", "rules_edition": 2},
               ("seat_claimed", 1): {"seat": 2, "name": "Bo"},
               ("high_scores_entered", 1): {"entries": []}}
    for key, upcast in UPCASTERS.items():
        data = samples[key]
        assert set(upcast(dict(data))) - set(data) == UPCASTER_ADDS[key], key
