"""Passkeys in a real Chromium: the account page at ``http://localhost:<port>`` (an IP
address cannot be a relying party id) with Chromium's virtual authenticator (the
DevTools protocol's WebAuthn domain: CTAP2, internal, resident keys, the user
verified, presence simulated), whose credentials py_webauthn verifies on the server.

A player claims a name (and saves the recovery codes shown once), signs out and in
again; another browser without the passkey cannot sign in, uses a recovery code to
add a passkey of its own, and removes the first one, which then signs in nobody.
Screenshots of the page go to ``/tmp/shots`` (desktop and phone, light and dark).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import SIZES, LiveServer, axe_violations, browser_context, checked_page

SHOTS = Path("/tmp/shots")
NAME = "Passkey Pat"
AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True,
                 "automaticPresenceSimulation": True}


def at_localhost(base_url: str) -> str:
    """The server's address by the name ``localhost`` (its pages are on 127.0.0.1)."""
    return base_url.replace("127.0.0.1", "localhost")


def with_authenticator(page: Any) -> tuple[Any, str]:
    """A virtual authenticator on `page` (its credentials live as long as it does):
    (the DevTools session, its id)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    found = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, found["authenticatorId"]


def credentials(cdp: Any, authenticator: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = cdp.send("WebAuthn.getCredentials",
                                          {"authenticatorId": authenticator})["credentials"]
    return found


def as_base64url(text: str) -> str:
    return text.rstrip("=").replace("+", "-").replace("/", "_")


def status_of(page: Any) -> str:
    text: str = page.locator("#account-status").inner_text()
    return text


def signed_in_view(page: Any) -> None:
    """The page of a signed-in player, its script ready (its buttons answer)."""
    page.wait_for_selector("#account[data-signed-in='true'][data-ready]")


def guest_view(page: Any) -> None:
    page.wait_for_selector("#account[data-signed-in='false'][data-ready]")


@pytest.fixture
def base(live_server: LiveServer) -> str:
    return at_localhost(live_server.base_url)


@pytest.fixture
def first_browser(browser: Any, base: str) -> Iterator[Any]:
    # the pages' CSP enforced: the account page's scripts run under it
    with browser_context(browser, base, "desktop", bypass_csp=False) as context, \
            checked_page(context, base, csp=True) as page:
        yield page


def claim(page: Any) -> list[str]:
    page.goto("/account")
    guest_view(page)
    assert page.locator("#nav-account").inner_text() == "Sign in"
    page.fill("#claim-name", NAME)
    page.click("#claim-form button[type=submit]")
    page.wait_for_selector("#codes:not([hidden])")
    codes = page.locator("#code-list li").all_inner_texts()
    assert page.locator("#codes-done").is_disabled()  # until "I saved them"
    page.check("#codes-saved")
    page.click("#codes-done")
    signed_in_view(page)
    return codes


def test_claim_sign_out_and_in_recover_and_remove(first_browser: Any, browser: Any,
                                                   base: str) -> None:
    page = first_browser
    cdp, authenticator = with_authenticator(page)
    codes = claim(page)
    assert len(codes) == 10 == len(set(codes))
    assert page.locator("#account-name").inner_text() == NAME
    assert page.locator("#account-name").get_attribute("href") == "/players/Passkey%20Pat"
    assert NAME in page.locator("#nav-account").inner_text()
    (held,) = credentials(cdp, authenticator)
    assert held["isResidentCredential"] and held["signCount"] >= 1
    assert page.locator("#passkey-list li").count() == 1
    assert page.locator(".passkey-remove").is_disabled()  # the only one stays
    page.goto("/")  # every page's header names the player
    assert NAME in page.locator("#nav-account").inner_text()
    page.goto("/account")
    signed_in_view(page)

    page.click("#sign-out")
    guest_view(page)
    assert page.locator("#nav-account").inner_text() == "Sign in"
    page.click("#sign-in")
    signed_in_view(page)
    assert page.locator("#account-name").inner_text() == NAME

    with browser_context(browser, base, "desktop", bypass_csp=False) as other, \
            checked_page(other, base, csp=True, console=("error", "assert")) as second:
        cdp2, authenticator2 = with_authenticator(second)
        second.goto("/account")
        guest_view(second)
        second.click("#sign-in")  # this browser holds no passkey of the site
        second.wait_for_selector("#account-status.error")
        assert "No passkey was used" in status_of(second)
        assert second.locator("#account").get_attribute("data-signed-in") == "false"

        second.click("#recover summary")
        second.fill("#recover-name", NAME.upper())
        second.fill("#recover-code", codes[0])
        second.click("#recover-form button[type=submit]")
        signed_in_view(second)
        assert second.locator("#passkey-list li").count() == 2
        assert len(credentials(cdp2, authenticator2)) == 1
        assert "9 recovery codes left" in second.locator("#codes-left").inner_text()

        first_id = as_base64url(held["credentialId"])  # DevTools: standard base64
        rows = second.locator("#passkey-list li")
        assert [rows.nth(i).get_attribute("data-id") for i in range(2)][0] == first_id
        second.locator(f".passkey-remove[data-id='{first_id}']").click()
        # the list is drawn again from the server's answer: one passkey, the new one
        expect(second.locator("#passkey-list li")).to_have_count(1)
        assert second.locator(f".passkey[data-id='{first_id}']").count() == 0

    page.click("#sign-out")  # the first browser's passkey was removed: it signs in nobody
    guest_view(page)
    page.click("#sign-in")
    page.wait_for_selector("#account-status.error")
    assert "no player has this passkey" in status_of(page)
    assert page.locator("#account").get_attribute("data-signed-in") == "false"
    assert page.evaluate("window.__cspViolations") == []


@pytest.mark.parametrize("size", sorted(SIZES))
def test_screenshots_of_the_account_page(browser: Any, base: str, size: str) -> None:
    """The page signed in, with two passkeys, in both colour schemes (no serious
    accessibility violation in either); and the recovery codes as a claim shows them."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    name = f"Shot {size}"
    with browser_context(browser, base, size) as context, \
            checked_page(context, base) as page:
        cdp, first = with_authenticator(page)
        page.goto("/account")
        guest_view(page)
        page.emulate_media(color_scheme="light")
        page.screenshot(path=str(SHOTS / f"account-guest-{size}-light.png"), full_page=True)
        assert axe_violations(page) == []
        page.fill("#claim-name", name)
        page.click("#claim-form button[type=submit]")
        page.wait_for_selector("#codes:not([hidden])")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            page.screenshot(path=str(SHOTS / f"account-codes-{size}-{scheme}.png"),
                            full_page=True)
        page.check("#codes-saved")
        page.click("#codes-done")
        signed_in_view(page)
        # a second device (Chromium keeps one internal authenticator at a time)
        cdp.send("WebAuthn.removeVirtualAuthenticator", {"authenticatorId": first})
        cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
        page.click("#add-passkey")
        page.locator("#passkey-list li").nth(1).wait_for()
        page.click("#forget summary")
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            shot = SHOTS / f"account-{size}-{scheme}.png"
            page.screenshot(path=str(shot), full_page=True)
            assert shot.stat().st_size > 0
            assert axe_violations(page) == [], scheme


FORGOTTEN = "Forget Fatma"


def start_game(page: Any, name: str) -> None:
    page.goto("/")
    page.fill("#player-name", name)
    page.click("#start-btn")


def test_a_claimed_name_is_its_holders_and_forget_me_takes_it_everywhere(
        browser: Any, base: str) -> None:
    with browser_context(browser, base, "desktop", bypass_csp=False) as mine, \
            checked_page(mine, base, csp=True) as page:
        with_authenticator(page)
        page.goto("/account")
        guest_view(page)
        page.fill("#claim-name", FORGOTTEN)
        page.click("#claim-form button[type=submit]")
        page.wait_for_selector("#codes:not([hidden])")
        page.check("#codes-saved")
        page.click("#codes-done")
        signed_in_view(page)

        with browser_context(browser, base, "desktop") as other, \
                checked_page(other, base) as stranger:
            for look_alike in (FORGOTTEN, "forget fatma", "FORGET FATMA", "Forget  Fatma"):
                start_game(stranger, look_alike)
                error = stranger.locator("#start-error")
                error.wait_for(state="visible")
                assert "belongs to a player who signs in" in error.inner_text(), look_alike
            start_game(stranger, "Forget\u3164Fatma")  # a blank letter: no name at all
            stranger.locator("#start-error").wait_for(state="visible")
            assert "invisible or blank" in stranger.locator("#start-error").inner_text()

        start_game(page, "forget fatma")  # the holder, signed in, any way of writing it
        page.wait_for_url("**/play/*")
        page.locator("#status .who-1").wait_for()
        assert FORGOTTEN in page.locator("#status .who-1").inner_text()
        game_url = page.url

        page.goto("/account")
        signed_in_view(page)
        page.click("#forget summary")
        page.check("#forget-confirm")
        page.click("#forget-me")
        guest_view(page)
        assert page.request.get(f"/api/players/{FORGOTTEN}").status == 404
        page.goto(game_url.replace("/play/", "/games/"))
        assert FORGOTTEN not in page.content() and "deleted player" in page.content()
        start_game(page, FORGOTTEN)  # held for everyone while its hold lasts
        page.locator("#start-error").wait_for(state="visible")
