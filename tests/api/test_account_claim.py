"""Claiming a name with a passkey (POST /api/account/claim/options, /claim): what a
client gets (the recovery codes once, the session cookie and its attributes) and
what it is refused."""

from __future__ import annotations

from typing import Any

from flask import Flask

from service.services.accounts import RECOVERY_CODES
from squares_testing.authenticator import SoftAuthenticator
from tests.apps import app_for_tests
from tests.conftest import close_app

from .account_steps import SAME_SITE, claim, finish, options, signed_in_as
from .helpers import assert_error


def test_a_claim_signs_the_browser_in_and_shows_ten_codes_once(any_client: Any) -> None:
    started = options(any_client, "/api/account/claim/options", {"name": "  Ayşe  Kaya "})
    public_key = started["public_key"]
    assert public_key["rp"]["id"] == "localhost"
    assert public_key["user"]["name"] == "Ayşe Kaya"
    assert public_key["authenticatorSelection"]["residentKey"] == "required"
    authenticator = SoftAuthenticator()
    response = finish(any_client, "/api/account/claim", started,
                      authenticator.create(public_key))
    assert response.status_code == 201
    body = response.get_json()
    assert body["name"] == "Ayşe Kaya"
    assert body["player_url"] == "/players/Ay%C5%9Fe%20Kaya"
    codes = body["recovery_codes"]
    assert len(codes) == RECOVERY_CODES == len(set(codes))
    account = any_client.get("/api/account").get_json()
    assert account["recovery_codes_left"] == RECOVERY_CODES
    assert [p["id"] for p in account["passkeys"]] == [authenticator.credentials[0].id_text]
    assert "recovery_codes" not in account


def test_the_session_cookie_as_a_client_sees_it(client: Any) -> None:
    started = options(client, "/api/account/claim/options", {"name": "Cem"})
    response = finish(client, "/api/account/claim", started,
                      SoftAuthenticator().create(started["public_key"]))
    (cookie,) = response.headers.getlist("Set-Cookie")
    name, _, rest = cookie.partition("=")
    token, *attributes = rest.split("; ")
    assert name == "squares_session" and len(token) >= 43
    assert {"HttpOnly", "Path=/", "SameSite=Lax"} <= set(attributes)
    assert "Secure" not in attributes  # no https public URL
    assert any(a.startswith("Expires=") for a in attributes)
    assert response.headers["Cache-Control"] == "no-store"


def test_the_cookie_is_secure_behind_an_https_public_url(sqlite_database_url: str) -> None:
    app: Flask = app_for_tests({"DATABASE_URL": sqlite_database_url,
                                "SQUARES_PUBLIC_URL": "https://squares.example"})
    try:
        client = app.test_client()
        here = {"base_url": "https://squares.example"}
        started = client.post("/api/account/claim/options", json={"name": "Cem"},
                              **here).get_json()
        assert started["public_key"]["rp"]["id"] == "squares.example"
        authenticator = SoftAuthenticator(origin="https://squares.example")
        response = client.post("/api/account/claim", json={
            "ceremony": started["ceremony"],
            "credential": authenticator.create(started["public_key"])},
            headers={"Origin": "https://squares.example"}, **here)
        assert response.status_code == 201, response.get_json()
        assert "Secure" in response.headers["Set-Cookie"].split("; ")
    finally:
        close_app(app)


def test_names_that_cannot_be_claimed(any_client: Any) -> None:
    claim(any_client, "Ayşe")

    def claim_options(body: dict[str, Any]) -> Any:
        return any_client.post("/api/account/claim/options", json=body, headers=SAME_SITE)

    assert assert_error(claim_options({"name": "AYSE"}), 409, "name_claimed")["field"] == "name"
    assert_error(claim_options({"name": "eda firat"}), 409, "name_reserved")
    assert_error(claim_options({"name": "a\u200bb"}), 422, "invalid_name")
    assert_error(claim_options({}), 400, "invalid_request")


def test_two_claims_of_one_name_begun_together_give_it_once(any_client: Any) -> None:
    first = options(any_client, "/api/account/claim/options", {"name": "Deniz"})
    second = options(any_client, "/api/account/claim/options", {"name": "deniz"})
    assert finish(any_client, "/api/account/claim", first,
                  SoftAuthenticator().create(first["public_key"])).status_code == 201
    late = finish(any_client, "/api/account/claim", second,
                  SoftAuthenticator().create(second["public_key"]))
    assert_error(late, 409, "name_claimed")
    assert signed_in_as(any_client) == "Deniz"


def test_passkeys_at_an_ip_address_say_to_open_the_page_at_localhost(client: Any) -> None:
    response = client.post("/api/account/claim/options", json={"name": "Cem"},
                           base_url="http://127.0.0.1:5000")
    details = assert_error(response, 400, "passkey_host")
    assert details["open_at"] == "http://localhost:5000"
    assert "localhost" in response.get_json()["error"]["message"]


def test_a_registration_for_another_origin_or_rp_id_is_refused(any_client: Any) -> None:
    authenticator = SoftAuthenticator()
    for wrong in ({"origin": "http://evil.localhost"}, {"rp_id": "evil.example"}):
        started = options(any_client, "/api/account/claim/options", {"name": "Ece"})
        response = finish(any_client, "/api/account/claim", started,
                          authenticator.create(started["public_key"], **wrong))
        assert assert_error(response, 403, "passkey_refused")["reason"]
    assert signed_in_as(any_client) is None
    assert any_client.post("/api/account/claim/options",
                           json={"name": "Ece"}, headers=SAME_SITE).status_code == 200
