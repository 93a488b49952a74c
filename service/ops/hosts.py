"""Which names a request may reach the service by (``SQUARES_TRUSTED_HOSTS``), and
the public address (``SQUARES_PUBLIC_URL``) that links and stream addresses are
built on.

Invite links and the pages' live-stream origin are built on ``SQUARES_PUBLIC_URL``
when it is set, else on the request's ``Host``. A request that names a host the
service does not answer to (a forged ``Host``, to plant a link to another site in an
invite or a page, or a page of another name rebound to this server's address) is
refused with 400 before anything reads it. One rule (`TrustedHosts.allows`) for both
apps: the Flask app checks ``request.host`` first thing in its before-request hook
(`service.http.hooks`), the streams app its ``Host`` (`service.live.app`). Both
see the host the trusted proxies forwarded (``X-Forwarded-Host``), as every other
per-request decision does.

The setting lists names separated by commas: ``squares.example`` matches that name,
``.example.org`` that name and every name under it, an IPv4 address itself, an IPv6
one written in brackets (``[2001:db8::1]``). Ports are never compared (the instances
behind a proxy listen on ports of their own), and names are compared in lower case.
Unset, it is the host of ``SQUARES_PUBLIC_URL``, or without one the loopback names
(`LOOPBACK`): a bare run on this machine.

Not Flask's ``TRUSTED_HOSTS`` (werkzeug's ``host_is_trusted``): it cuts a pattern's
port at its first colon, so no IPv6 address (``[::1]``) can be trusted; it compares
names as sent (``LOCALHOST`` is refused); it takes no address range; and once it has
refused a request every later read of ``request.host`` raises again, in the
after-request hooks that add the answer's headers too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from ..domain.texts import english

ENV = "SQUARES_TRUSTED_HOSTS"
PUBLIC_URL_ENV = "SQUARES_PUBLIC_URL"
REFUSED = english("this server does not answer to the host this request names")
"""The 400's message, from either app."""

# A Host header: a name or an IPv4 address, or an IPv6 address in brackets, and an
# optional port (werkzeug's characters: what a request's host may hold at all)
_HOST = re.compile(r"(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::[0-9]{1,5})?",
                   re.ASCII | re.IGNORECASE)
# An entry of the setting: a name (with a leading dot: and the names under it), an
# IPv4 address, or an IPv6 address in brackets; no port
_ENTRY = re.compile(r"\.?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\]",
                    re.ASCII | re.IGNORECASE)
_LOOPBACK_V4 = re.compile(r"127\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}", re.ASCII)


def host_name(host: str | None) -> str | None:
    """The name (or address) of a ``Host`` value, in lower case, without its port or
    a final dot; None when it is not a host at all."""
    if not host:
        return None
    match = _HOST.fullmatch(host)
    if match is None:
        return None
    return match.group(1).lower().rstrip(".")


@dataclass(frozen=True)
class TrustedHosts:
    """The hosts requests may name: `names` exactly, any name ending with one of
    `suffixes` (``.example.org``), and with `loopback` every 127.0.0.0/8 address."""

    names: frozenset[str]
    suffixes: tuple[str, ...] = ()
    loopback: bool = False

    def allows(self, host: str | None) -> bool:
        """Whether a request whose ``Host`` is `host` (a port or none) is answered; a
        few string operations, for every request."""
        name = host_name(host)
        if name is None:
            return False
        return (name in self.names or name.endswith(self.suffixes)
                or (self.loopback and _LOOPBACK_V4.fullmatch(name) is not None))


LOOPBACK = TrustedHosts(frozenset({"localhost", "[::1]"}), (".localhost",), loopback=True)
"""Unset, without a public URL: this machine's own names (browsers resolve every name
under ``localhost`` to it)."""

LOOPBACK_NAMES = "localhost, its subdomains, 127.0.0.0/8 and [::1]"


def parse(text: str, public_url: str = "") -> TrustedHosts:
    """The setting's `text` (entries separated by commas); empty: the host of
    `public_url` (checked by `check_public_url`), or `LOOPBACK`. ValueError saying
    why when an entry is not a name or address, or the list does not allow the public
    URL's own host (every request by it would be refused)."""
    entries = [entry.strip().lower() for entry in text.split(",") if entry.strip()]
    public_host = urlsplit(public_url).netloc if public_url else ""
    if not entries:
        return LOOPBACK if not public_host else parse(host_name(public_host) or "")
    for entry in entries:
        if _ENTRY.fullmatch(entry) is None:
            raise ValueError(f"{entry!r} is not a host name, .domain, IPv4 or [IPv6] "
                             "address (no port, no *)")
    names = frozenset(entry.lstrip(".") for entry in entries)
    rule = TrustedHosts(names, tuple(entry for entry in entries if entry.startswith(".")))
    if public_host and not rule.allows(public_host):
        raise ValueError(f"it does not allow {PUBLIC_URL_ENV}'s own host "
                         f"{host_name(public_host)!r}")
    return rule


def check_public_url(text: str) -> str:
    """`text` without a final ``/`` when it is an ``http(s)://host[:port][/path]``
    URL; else ValueError."""
    url = text.strip().rstrip("/")
    parts = urlsplit(url)
    if (parts.scheme not in ("http", "https") or host_name(parts.netloc) is None
            or parts.query or parts.fragment or url.endswith(("?", "#"))):
        raise ValueError(f"{url!r}: an http(s) URL such as https://squares.example")
    return url


def public_address(public_url: str) -> tuple[str, str]:
    """The scheme and ``host[:port]`` of a `check_public_url`-checked URL."""
    parts = urlsplit(public_url)
    return parts.scheme, parts.netloc.lower()
