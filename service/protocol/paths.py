"""What the API's paths and cursors name, checked before anything is read: a game id
(ids that cannot exist never reach the database), a live stream's position, and the
one rule for every number a client writes as text (`ascii_int`). Plain Python: the
pages, the Flask API and the streams server (`service.live.app`) share it."""

from __future__ import annotations

import re

from ..domain.texts import english

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
# ASCII digits, spelled out: a str pattern's \d and int() also take every script's
# decimal digits (Arabic-Indic "١٢", Devanagari "१२", full-width "１２"), and
# str.isdigit() takes superscripts ("²") that int() then refuses.
INTEGER = re.compile(r"-?[0-9]+")
INT32_MAX = 2**31 - 1  # numbers the database stores as 32-bit integers


def ascii_int(raw: str, *, signed: bool = False) -> int | None:
    """`raw` as an integer when it is ASCII digits only, with a leading ``-`` when
    `signed`; else None. Every number in a query string, path or header goes through
    here, so "١٢" is never read as 12 and "²" never reaches int()."""
    if INTEGER.fullmatch(raw) is None or (raw.startswith("-") and not signed):
        return None
    try:
        return int(raw)
    except ValueError:  # more digits than int() converts (sys.get_int_max_str_digits)
        return None


STREAM_QUERY_ERROR = english("Last-Event-ID (or after) must be a non-negative integer in "
                             "ASCII digits, and viewers 0 or 1")


def parse_after(raw: str) -> int | None:
    """The position a stream resumes after (``Last-Event-ID`` or ``?after=``), or None
    when it is not a non-negative integer the store could hold. Spaces and tabs around
    it are allowed (a header's value may carry them)."""
    after = ascii_int(raw.strip(" \t"))
    return after if after is not None and after <= INT32_MAX else None


def parse_flag(raw: str | None) -> bool | None:
    """A 0/1 switch of a query string (``?viewers=1``): absent, empty or ``0`` is
    off, ``1`` on; None for anything else, which the caller refuses."""
    if raw is None or raw in ("", "0"):
        return False
    return True if raw == "1" else None
