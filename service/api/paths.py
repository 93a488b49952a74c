"""What the API's paths and cursors name, checked before anything is read: a game id
(ids that cannot exist never reach the database) and a live stream's position.
Plain Python: the Flask API and the streams server (`service.live.app`) share it."""

from __future__ import annotations

import re

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
POSITION = re.compile(r"^\s*(\d{1,10})\s*$")
INT32_MAX = 2**31 - 1  # numbers the database stores as 32-bit integers


def parse_after(raw: str) -> int | None:
    """The position a stream resumes after (``Last-Event-ID`` or ``?after=``), or None
    when it is not a non-negative integer the store could hold."""
    match = POSITION.match(raw)
    if match is None or int(match.group(1)) > INT32_MAX:
        return None
    return int(match.group(1))
