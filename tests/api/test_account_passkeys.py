"""A player's passkeys: adding one (signed in, or with a recovery code, spent once),
listing and removing them (never the last)."""

from __future__ import annotations

from typing import Any

from flask import Flask

from squares_testing.authenticator import SoftAuthenticator
from tests.conftest import services_of

from .account_steps import SAME_SITE, claim, finish, options, sign_in, signed_in_as
from .helpers import assert_error


def _passkeys(client: Any) -> list[dict[str, Any]]:
    response = client.get("/api/account/passkeys")
    assert response.status_code == 200
    found: list[dict[str, Any]] = response.get_json()["passkeys"]
    return found


def test_add_a_second_passkey_and_remove_the_first(any_client: Any) -> None:
    first, _ = claim(any_client, "Ayşe")
    started = options(any_client, "/api/account/passkeys/options")
    excluded = [c["id"] for c in started["public_key"]["excludeCredentials"]]
    assert excluded == [first.credentials[0].id_text]
    second = SoftAuthenticator()
    response = any_client.post("/api/account/passkeys", json={
        "ceremony": started["ceremony"], "credential": second.create(started["public_key"]),
        "label": "laptop"}, headers=SAME_SITE)
    assert response.status_code == 201
    assert response.headers.get("Set-Cookie") is None  # signed in already
    assert response.get_json()["passkey"]["label"] == "laptop"
    assert [p["label"] for p in _passkeys(any_client)][1] == "laptop"
    old = first.credentials[0].id_text
    assert any_client.delete(f"/api/account/passkeys/{old}",
                             headers=SAME_SITE).status_code == 204
    assert [p["id"] for p in _passkeys(any_client)] == [second.credentials[0].id_text]
    assert_error(sign_in(any_client, first), 403, "passkey_unknown")
    assert sign_in(any_client, second).status_code == 200


def test_the_last_passkey_stays(any_client: Any) -> None:
    authenticator, _ = claim(any_client, "Bora")
    only = authenticator.credentials[0].id_text
    assert_error(any_client.delete(f"/api/account/passkeys/{only}", headers=SAME_SITE),
                 409, "last_passkey")
    assert_error(any_client.delete("/api/account/passkeys/nope", headers=SAME_SITE),
                 403, "passkey_unknown")


def test_another_players_passkey_cannot_be_removed(any_app: Flask) -> None:
    ann, bob = any_app.test_client(), any_app.test_client()
    ann_key, _ = claim(ann, "Ann")
    claim(bob, "Bob")
    target = ann_key.credentials[0].id_text
    assert_error(bob.delete(f"/api/account/passkeys/{target}", headers=SAME_SITE), 403,
                 "passkey_unknown")


def test_a_recovery_code_adds_a_passkey_once(any_app: Flask) -> None:
    lost = any_app.test_client()
    _, codes = claim(lost, "Cem")
    device = any_app.test_client()
    started = options(device, "/api/account/recovery",
                      {"name": "cem", "code": codes[3].upper().replace("-", " ")})
    new = SoftAuthenticator()
    response = finish(device, "/api/account/passkeys", started,
                      new.create(started["public_key"]))
    assert response.status_code == 201
    assert "squares_session=" in response.headers["Set-Cookie"]
    assert signed_in_as(device) == "Cem"
    assert device.get("/api/account").get_json()["recovery_codes_left"] == 9
    assert len(_passkeys(device)) == 2
    again = device.post("/api/account/recovery", json={"name": "Cem", "code": codes[3]},
                        headers=SAME_SITE)
    assert_error(again, 403, "recovery_code_invalid")


def test_a_wrong_code_or_name_is_one_refusal(any_client: Any) -> None:
    _, codes = claim(any_client, "Deniz")
    for name, code in (("Deniz", "aaaa-bbbb-cccc"), ("Nobody", codes[0]),
                       ("Eda Fırat", codes[0]), ("\u200b", codes[0])):
        assert_error(any_client.post("/api/account/recovery",
                                     json={"name": name, "code": code}, headers=SAME_SITE),
                     403, "recovery_code_invalid")


def test_account_pages_need_a_session(client: Any) -> None:
    assert_error(client.get("/api/account"), 401, "not_signed_in")
    assert_error(client.get("/api/account/passkeys"), 401, "not_signed_in")
    assert_error(client.post("/api/account/passkeys/options", json={}), 401,
                 "not_signed_in")


def test_dropped_credentials_sign_in_nobody(any_app: Flask) -> None:
    client = any_app.test_client()
    authenticator, codes = claim(client, "Ece")
    player_id = services_of(any_app).accounts.signed_in(
        client.get_cookie("squares_session").value).player_id
    services_of(any_app).accounts.drop_credentials(player_id)
    assert signed_in_as(client) is None
    assert_error(sign_in(client, authenticator), 403, "passkey_unknown")
    assert_error(client.post("/api/account/recovery", json={"name": "Ece", "code": codes[0]},
                             headers=SAME_SITE), 403, "recovery_code_invalid")
