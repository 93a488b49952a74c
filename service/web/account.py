"""The account page, ``/account``: a guest claims a name with a passkey (and sees its
recovery codes once), signs in, or uses a recovery code; a signed-in player sees
their name, their passkeys (add, remove), signs out here or everywhere, or has
themselves forgotten. The page is rendered for who the session cookie signs in;
``static/account/main.js`` takes the passkey steps through ``/api/account`` and
loads the page again after each."""

from __future__ import annotations

from flask import Response, make_response, render_template

from ..errors import DatabaseUnavailable, PasskeyHost
from ..protocol.relying_party import relying_party
from ..protocol.signed_in import SignedIn, current_player
from .blueprint import bp, page_services


def signed_in_player() -> SignedIn | None:
    """Who the page's header names (every page): None for a guest, and while the
    database is away (an error page must still render)."""
    try:
        return current_player()
    except DatabaseUnavailable:
        return None


@bp.get("/account")
def account() -> Response:
    player = current_player()
    found = page_services().accounts.account(player.player_id) if player else None
    try:
        relying_party()
        wrong_host = None
    except PasskeyHost as exc:  # an IP address: say where passkeys work before a click
        wrong_host = exc.details.get("open_at")
    response = make_response(render_template("account.html", active="account",
                                             account=found, wrong_host=wrong_host))
    response.headers["Cache-Control"] = "no-store"  # whose page it is depends on the cookie
    return response


bp.add_app_template_global(signed_in_player, "signed_in_player")
