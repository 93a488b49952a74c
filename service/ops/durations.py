"""Durations as people write them: ``45m``, ``12h``, ``30d``, ``2w`` (the CLI's
``--...-older-than`` options and ``SQUARES_ABANDON_AFTER``)."""

from __future__ import annotations

import re
from datetime import timedelta
from functools import lru_cache

DURATION_UNITS = {"s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
_DURATION = re.compile(r"^\s*(\d+)\s*([mhdw])\s*$", re.IGNORECASE)
_SECONDS = re.compile(r"^\s*(\d+)\s*s?\s*$", re.IGNORECASE)
MAX_DURATION_DAYS = 36_500
"""The longest duration (100 years): older than any game, and far from the limits of
`datetime` arithmetic (year 1)."""


@lru_cache(maxsize=64)  # settings are parsed where they are needed: once each
def parse_duration(text: str, *, seconds: bool = False) -> timedelta:
    """``45m``, ``12h``, ``30d``, ``2w`` -> a timedelta (at most `MAX_DURATION_DAYS`);
    with `seconds` also a plain number of seconds (``3600``, ``3600s``);
    ValueError otherwise."""
    match = _DURATION.match(text)
    unit = match.group(2).lower() if match else "s"
    if match is None and seconds:
        match = _SECONDS.match(text)
    if match is None:
        raise ValueError(f"{text!r} is not a duration like 45m, 12h, 30d or 2w"
                         + (" (or seconds)" if seconds else ""))
    digits = match.group(1)
    shown = text if len(text) <= 24 else f"{text[:12]}...{text[-4:]}"
    too_long = ValueError(f"{shown!r} is too long: at most {MAX_DURATION_DAYS} days "
                          f"({MAX_DURATION_DAYS // 365} years)")
    if len(digits.lstrip("0")) > 12:  # ignore absurd numbers before converting them
        raise too_long
    try:
        duration = timedelta(**{DURATION_UNITS[unit]: int(digits)})
    except OverflowError:
        raise too_long from None
    if duration > timedelta(days=MAX_DURATION_DAYS):
        raise too_long
    return duration
