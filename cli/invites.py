"""Online games' invite links: the link a creator sends (`invite_url`), what
``squares play --join`` accepts (`parse_join`), and when an invitation runs out."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from urllib.parse import parse_qs, urlsplit

from service.ops.times import human_utc

from .output import CliFailure

GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # as the API's (service/api/blueprint.py)


def invite_url(base_url: str, game_id: str, code: str) -> str:
    """The web's invite link: ``<base-url>/join/<game_id>#code=<code>``."""
    return f"{base_url.rstrip('/')}/join/{game_id}#code={code}"


def parse_join(value: str) -> tuple[str, str | None]:
    """``--join``'s argument: an invite link (its game id and ``#code=``) or a bare
    game id (no code). A usage error (exit 2) for anything else."""
    text = value.strip()
    parts = urlsplit(text)
    if "/join/" in parts.path:
        game_id = parts.path.rsplit("/join/", 1)[1].strip("/")
    elif not parts.scheme and not parts.netloc and not parts.fragment and "/" not in text:
        game_id = text
    else:
        game_id = ""
    if not GAME_ID.match(game_id):
        raise CliFailure(f"{value!r} is neither an invite link (<base-url>/join/<id>#code=...) "
                         "nor a game id", exit_code=2)
    codes = parse_qs(parts.fragment).get("code") if parts.fragment else None
    return game_id, (codes[0] if codes else None)


def until(when: datetime) -> str:
    """``2025-01-31 18:00 UTC, in 24 h``."""
    seconds = int((when - datetime.now(UTC)).total_seconds())
    if seconds >= 2 * 3600:
        left = f"{round(seconds / 3600)} h"
    elif seconds >= 120:
        left = f"{round(seconds / 60)} min"
    else:
        left = f"{max(seconds, 0)} s"
    return f"{human_utc(when)} UTC, in {left}"
