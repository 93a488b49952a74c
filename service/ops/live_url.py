"""Where the pages open live streams: ``SQUARES_LIVE_URL``.

- ``same-origin``: the page's own origin (behind the proxy, which routes
  ``/api/games/*/live`` to the streams server);
- ``:PORT``: the page's own scheme and host name at that port (``squares serve`` run
  bare sets this: its streams server's port);
- ``http(s)://host[:port]``: that origin (a streams server on a host name of its own).

Unset, the pages use their own origin (a single app under a plain WSGI server
answers the events so far and a ``retry:``, so pages follow by polling).
"""

from __future__ import annotations

import re

ENV = "SQUARES_LIVE_URL"
SAME_ORIGIN = "same-origin"
PORT = re.compile(r"^:(\d{1,5})$")
ORIGIN = re.compile(r"^https?://[A-Za-z0-9.\-\[\]:]+$")


def check(raw: str) -> str:
    """`raw` if it is a valid setting, else ValueError naming the setting."""
    value = raw.strip()
    if value in ("", SAME_ORIGIN) or ORIGIN.match(value):
        return value
    match = PORT.match(value)
    if match and 1 <= int(match.group(1)) <= 65535:
        return value
    raise ValueError(f"{ENV}={raw!r}: {SAME_ORIGIN}, :PORT or an origin such as "
                     "https://live.example.com")


def origin_for(setting: str, scheme: str, host: str) -> str:
    """The origin a page served at `scheme`://`host` opens its streams on ("" for its
    own), by `setting` (`check`ed)."""
    match = PORT.match(setting)
    if match is None:
        return "" if setting in ("", SAME_ORIGIN) else setting
    name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
    return f"{scheme}://{name}:{match.group(1)}"
