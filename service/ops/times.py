"""How a moment is written, in UTC always: one form for programs and one for people.

- `iso_utc`: ISO 8601 with a ``Z`` ("2024-05-01T12:00:00Z"), what the API's fields and
  its errors' details carry and the CLI's ``--json`` prints, so that a client compares
  the moments it is given as they are;
- `human_utc`: "2024-05-01 12:00" (to the day or the second when asked), what the
  CLI's tables and the pages show beside a "UTC" of their own.

A naive moment is taken as UTC: the store's columns are UTC (`store.schema.UTCDateTime`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal, overload

_HUMAN = {"day": "%Y-%m-%d", "minute": "%Y-%m-%d %H:%M", "second": "%Y-%m-%d %H:%M:%S"}


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


@overload
def iso_utc(moment: datetime) -> str: ...
@overload
def iso_utc(moment: None) -> None: ...
@overload
def iso_utc(moment: datetime | None) -> str | None: ...
def iso_utc(moment: datetime | None) -> str | None:
    """`moment` in ISO 8601, UTC, with a ``Z`` (None stays None: a field not set)."""
    if moment is None:
        return None
    return _utc(moment).isoformat().replace("+00:00", "Z")


def human_utc(moment: datetime | None,
              to: Literal["day", "minute", "second"] = "minute") -> str:
    """`moment` as "YYYY-MM-DD HH:MM" in UTC (`to` the day or the second instead);
    "-" for none."""
    if moment is None:
        return "-"
    return _utc(moment).strftime(_HUMAN[to])
