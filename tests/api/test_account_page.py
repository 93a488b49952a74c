"""The account page and every page's header as a browser gets them: who is signed in,
the passkeys listed, and where passkeys work when the page is opened at an address."""

from __future__ import annotations

import re
from typing import Any

from .account_steps import claim, sign_out


def _header_link(html: str) -> str:
    found = re.search(r'<a class="account-link" id="nav-account"[^>]*>(.*?)</a>', html, re.S)
    assert found is not None
    return re.sub(r"<[^>]+>", "", found.group(1))


def test_the_header_says_sign_in_then_the_players_name(client: Any) -> None:
    page = client.get("/")
    assert _header_link(page.text) == "Sign in"
    claim(client, "Ayşe <b>")
    for path in ("/", "/highscores", "/account"):
        assert _header_link(client.get(path).text) == "Signed in as Ayşe &lt;b&gt;"
    sign_out(client)
    assert _header_link(client.get("/").text) == "Sign in"


def test_the_account_page_lists_the_passkeys_and_is_never_cached(client: Any) -> None:
    guest = client.get("/account")
    assert guest.status_code == 200 and guest.headers["Cache-Control"] == "no-store"
    assert 'data-signed-in="false"' in guest.text and 'id="claim-form"' in guest.text
    authenticator, _ = claim(client, "Bora")
    page = client.get("/account")
    assert 'data-signed-in="true"' in page.text
    assert f'data-id="{authenticator.credentials[0].id_text}"' in page.text
    assert "10 recovery codes left." in page.text


def test_the_page_at_an_ip_address_says_where_passkeys_work(client: Any) -> None:
    page = client.get("/account", base_url="http://127.0.0.1:5000")
    assert 'href="http://localhost:5000/account"' in page.text
    assert 'id="wrong-host"' not in client.get("/account").text
