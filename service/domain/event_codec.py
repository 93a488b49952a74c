"""Events to and from dicts and JSON text: ``event_from_dict`` reads a
``{"type", "v", "data"}`` dict, upcasting older versions (`upcasters`) first, and
with ``strict=True`` (imports, `verify`) also checks every field's JSON type against
the dataclass (a JSON ``true`` is not an integer); ``event_to_json`` writes an
event's canonical text.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

from .events import EVENT_TYPES, Event, EventFormatError, field_names, plain
from .upcasters import UPCASTER_ADDS, UPCASTERS


def event_from_dict(raw: dict[str, Any], *, strict: bool = False) -> Event:
    """The event of a ``{"type", "v", "data"}`` dict, upcast to the current version.

    ``strict`` also checks each field's JSON type (for data from outside: imports,
    and `verify` of what is stored); `EventFormatError` on anything off.
    """
    try:
        cls = EVENT_TYPES[raw["type"]]
        version = int(raw.get("v", 1))
        data = dict(raw["data"])
    except (KeyError, TypeError, ValueError) as exc:
        raise EventFormatError(f"not an event: {exc!r}") from exc
    if not 1 <= version <= cls.VERSION:
        raise EventFormatError(f"{cls.TYPE} v{version} is no version of this event "
                               f"(1 to {cls.VERSION})")
    while version < cls.VERSION:
        upcast = UPCASTERS[(cls.TYPE, version)]
        later = set(data) & UPCASTER_ADDS[(cls.TYPE, version)]
        if strict and later:
            raise EventFormatError(f"{cls.TYPE} v{version} has no {', '.join(sorted(later))}")
        data = upcast(data)
        version += 1
    try:
        event = cls.from_data(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise EventFormatError(f"malformed {cls.TYPE}: {exc!r}") from exc
    if strict:
        if set(data) != set(field_names(cls)):
            raise EventFormatError(f"malformed {cls.TYPE}: fields {sorted(data)}")
        for name, hint in _field_hints(cls):
            if not _conforms(getattr(event, name), hint):
                raise EventFormatError(
                    f"malformed {cls.TYPE}: {name} = {plain(getattr(event, name))!r} "
                    "is of the wrong type"
                )
    return event


def event_to_json(event: Event) -> str:
    """Canonical JSON text of an event (sorted keys, no spaces)."""
    return json.dumps(event.to_dict(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _field_hints_of(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((name, hints[name]) for name in field_names(cls))


# Declared as a function of a class, as `events.field_names` is (python/mypy#20409).
_field_hints: Callable[[type], tuple[tuple[str, Any], ...]] = cache(_field_hints_of)


def _conforms(value: Any, hint: Any) -> bool:
    """Whether `value` is exactly of type `hint` (``bool`` is no ``int`` here)."""
    if hint is Any:
        return True
    if hint in (int, str, bool):
        return type(value) is hint
    if hint is type(None):
        return value is None
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, a) for a in args)
    if origin is tuple:
        if type(value) is not tuple:
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(map(_conforms, value, args))
    if dataclasses.is_dataclass(hint):
        return type(value) is hint and all(
            _conforms(getattr(value, name), h) for name, h in _field_hints(hint)
        )
    return isinstance(value, hint)
