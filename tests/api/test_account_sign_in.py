"""Signing in and out with a passkey (discoverable credentials), and every refusal
of an assertion: a replayed or expired challenge, another origin or rp id, an
unknown credential, a counter that went back; the cross-site check."""

from __future__ import annotations

import logging
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta
from typing import Any

import pytest
from flask import Flask

from service.services.accounts import RelyingParty
from service.store import utcnow
from squares_testing.authenticator import SoftAuthenticator
from tests.conftest import services_of

from .account_steps import (
    ORIGIN,
    SAME_SITE,
    claim,
    finish,
    options,
    sign_in,
    sign_out,
    signed_in_as,
)
from .helpers import assert_error


def test_sign_out_then_in_again_gives_a_new_token(any_client: Any) -> None:
    authenticator, _ = claim(any_client, "Ayşe")
    first = any_client.get_cookie("squares_session").value
    sign_out(any_client)
    assert any_client.get_cookie("squares_session") is None
    assert signed_in_as(any_client) is None
    response = sign_in(any_client, authenticator)
    assert response.status_code == 200
    assert response.get_json() == {"name": "Ayşe", "player_url": "/players/Ay%C5%9Fe"}
    second = any_client.get_cookie("squares_session").value
    assert second != first
    assert signed_in_as(any_client) == "Ayşe"
    any_client.set_cookie("squares_session", first)  # signed out: its record is gone
    assert signed_in_as(any_client) is None


def test_sign_out_everywhere_ends_every_session(any_app: Flask) -> None:
    phone, laptop = any_app.test_client(), any_app.test_client()
    authenticator, _ = claim(phone, "Bora")
    assert sign_in(laptop, authenticator).status_code == 200
    assert signed_in_as(laptop) == "Bora"
    response = phone.post("/api/account/sign-out-everywhere", headers=SAME_SITE)
    assert response.status_code == 204
    assert signed_in_as(phone) is None and signed_in_as(laptop) is None
    assert_error(laptop.post("/api/account/sign-out-everywhere", headers=SAME_SITE), 401,
                 "not_signed_in")


def test_a_session_opened_for_a_player_signs_in_like_a_passkeys(any_app: Flask) -> None:
    """`accounts.open_session` (a tool's, a benchmark's) leaves the session a sign-in
    does: its cookie signs the player in, and signing out ends it."""
    services = services_of(any_app)
    with services.store.unit_of_work() as uow:
        player_id = uow.player_records.claim("Leyla", utcnow())
    session = services.accounts.open_session(player_id)
    assert session.expires_at > utcnow()
    client = any_app.test_client()
    client.set_cookie("squares_session", session.token)
    assert signed_in_as(client) == "Leyla"
    sign_out(client)
    client.set_cookie("squares_session", session.token)
    assert signed_in_as(client) is None


def test_a_replayed_assertion_finds_its_challenge_used(any_client: Any) -> None:
    authenticator, _ = claim(any_client, "Cem")
    started = options(any_client, "/api/account/sign-in/options")
    assertion = authenticator.get(started["public_key"])
    assert finish(any_client, "/api/account/sign-in", started, assertion).status_code == 200
    assert_error(finish(any_client, "/api/account/sign-in", started, assertion), 409,
                 "ceremony_used")


def test_a_challenge_older_than_five_minutes_is_expired(any_app: Flask) -> None:
    client = any_app.test_client()
    authenticator, _ = claim(client, "Deniz")
    services = services_of(any_app)
    started = options(client, "/api/account/sign-in/options")
    later = utcnow() + timedelta(minutes=5, seconds=1)
    services.core.clock = lambda: later
    response = finish(client, "/api/account/sign-in", started,
                      authenticator.get(started["public_key"]))
    assert_error(response, 410, "ceremony_expired")
    assert services.accounts.sweep().ceremonies == 1  # the sweep deletes it
    assert_error(finish(client, "/api/account/sign-in", started,
                        authenticator.get(started["public_key"])), 409, "ceremony_used")


def test_an_assertion_for_another_origin_or_rp_id_is_refused(any_client: Any) -> None:
    authenticator, _ = claim(any_client, "Ece")
    sign_out(any_client)
    for wrong, said in (({"origin": "http://localhost.evil"}, "origin"),
                        ({"rp_id": "evil.example"}, "RP ID")):
        details = assert_error(sign_in(any_client, authenticator, **wrong), 403,
                               "passkey_refused")
        assert said in details["reason"]
    assert signed_in_as(any_client) is None


def test_an_unknown_credential_is_refused(any_client: Any) -> None:
    claim(any_client, "Filiz")
    stranger = SoftAuthenticator()
    started = options(any_client, "/api/account/sign-in/options")
    stranger.create({"rp": {"id": "localhost"}, "user": {"id": "AA"}, "challenge": "AA"})
    assert_error(finish(any_client, "/api/account/sign-in", started,
                        stranger.get(started["public_key"])), 403, "passkey_unknown")


def test_a_counter_that_went_back_is_refused(any_client: Any) -> None:
    authenticator, _ = claim(any_client, "Gül")
    assert sign_in(any_client, authenticator, sign_count=5).status_code == 200
    details = assert_error(sign_in(any_client, authenticator, sign_count=5), 403,
                           "counter_went_back")
    assert details == {"seen": 5, "given": 5}
    assert_error(sign_in(any_client, authenticator, sign_count=2), 403, "counter_went_back")
    assert sign_in(any_client, authenticator, sign_count=6).status_code == 200


def test_an_authenticator_without_a_counter_signs_in_again_and_again(any_client: Any) -> None:
    authenticator, _ = claim(any_client, "Hale", SoftAuthenticator(counting=False))
    for _ in range(3):
        assert sign_in(any_client, authenticator).status_code == 200


def test_a_session_expires_after_its_lifetime(any_app: Flask) -> None:
    client = any_app.test_client()
    claim(client, "Irmak")
    services = services_of(any_app)
    later = utcnow() + services.settings.session_lifetime + timedelta(seconds=1)
    services.core.clock = lambda: later
    assert signed_in_as(client) is None
    assert services.accounts.sweep().sessions == 1


def test_a_cross_site_write_with_the_cookie_is_refused(any_client: Any) -> None:
    claim(any_client, "Jale")
    for headers in ({"Origin": "https://evil.example"}, {"Origin": "null"},
                    {"Referer": "https://evil.example/page"}, {}):
        response = any_client.post("/api/account/sign-out-everywhere", headers=headers)
        assert_error(response, 403, "cross_site")
    assert signed_in_as(any_client) == "Jale"
    by_referer = any_client.post("/api/account/sign-out",
                                 headers={"Referer": "http://localhost/account"})
    assert by_referer.status_code == 204


def test_writes_without_the_cookie_are_not_checked(client: Any) -> None:
    response = client.post("/api/games", json={"player_name": "Kaan", "height": 7,
                                               "width": 9, "seed": 7},
                           headers={"Origin": "https://elsewhere.example"})
    assert response.status_code == 201


def test_one_ceremony_is_taken_once_by_racing_requests(any_app: Flask) -> None:
    services = services_of(any_app)
    started = services.accounts.sign_in_options(RelyingParty("localhost", ORIGIN))
    barrier = threading.Barrier(4)

    def take(_: int) -> object:
        barrier.wait()
        with services.store.unit_of_work() as uow:
            return uow.credentials.take_ceremony(started.ceremony, "sign_in", utcnow())

    with ThreadPoolExecutor(4) as pool:
        taken = list(pool.map(take, range(4)))
    assert sorted(type(t).__name__ for t in taken) == ["Ceremony", "str", "str", "str"]
    assert [t for t in taken if isinstance(t, str)] == ["used"] * 3


def test_a_refusal_is_logged_with_the_player_id_and_no_secret(
        any_client: Any, caplog: pytest.LogCaptureFixture) -> None:
    authenticator, codes = claim(any_client, "Leyla Gizli")
    token = any_client.get_cookie("squares_session").value
    assert sign_in(any_client, authenticator, sign_count=4).status_code == 200
    with caplog.at_level(logging.WARNING, logger="service"):
        assert_error(sign_in(any_client, authenticator, sign_count=1), 403,
                     "counter_went_back")
    (line,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert re.fullmatch(r"account refusal counter_went_back for player \d+", line), line
    for secret in ("Leyla", token, authenticator.credentials[0].id_text, *codes):
        assert secret not in caplog.text
