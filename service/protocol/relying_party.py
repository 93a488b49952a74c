"""Who a request's passkeys are for, and which origin is ours (`service.ops.hosts`).

With ``SQUARES_PUBLIC_URL`` the relying party id is its host name and the one
expected origin its scheme and host (a passkey answered on any other origin is
refused). Without one, a bare run on this machine: rp id ``localhost`` and the
request's own ``http://localhost:<port>``, and only for a request at ``localhost``.
An IP address cannot be a relying party id (WebAuthn), so a page opened at
``127.0.0.1`` gets a clear 400 ``passkey_host`` that says where to open it instead.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from flask import current_app, request

from ..errors import PasskeyHost
from ..ops import hosts
from ..ops.settings import of_app
from ..services.accounts import RelyingParty


def own_origin() -> str:
    """The origin our pages are served from: the public URL's, else the request's."""
    public_url = of_app(current_app).public_url
    if public_url:
        scheme, host = hosts.public_address(public_url)
        return f"{scheme}://{host}"
    return f"{request.scheme}://{request.host.lower()}"


def cookie_is_secure() -> bool:
    """Whether the session cookie says Secure: when the public URL is https."""
    return of_app(current_app).public_url.startswith("https://")


def relying_party() -> RelyingParty:
    """The relying party of this request's passkey step; `PasskeyHost` when the
    request's host cannot be one."""
    public_url = of_app(current_app).public_url
    if public_url:
        _, host = hosts.public_address(public_url)
        name = hosts.host_name(host) or ""
        if _is_address(name):
            raise PasskeyHost("passkeys need a host name, and SQUARES_PUBLIC_URL names an "
                              "IP address", host=name)
        return RelyingParty(name, own_origin())
    name = hosts.host_name(request.host) or ""
    if name != "localhost":
        try:
            port = urlsplit(f"//{request.host}").port
        except ValueError:
            port = None
        where = f"http://localhost:{port}" if port else "http://localhost"
        raise PasskeyHost(f"passkeys need a host name, not {name!r}: open this page at "
                          f"{where}", host=name, open_at=where)
    return RelyingParty("localhost", own_origin())


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
    except ValueError:
        return False
    return True
