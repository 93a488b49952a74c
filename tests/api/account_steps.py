"""The passkey steps of the account API, as a browser's script takes them, with the
software authenticator (`squares_testing.authenticator`) in the browser's place."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from squares_testing.authenticator import SoftAuthenticator

ORIGIN = "http://localhost"  # Flask's test client: http://localhost/
SAME_SITE = {"Origin": ORIGIN}  # what a browser sends with our pages' writes


def options(client: FlaskClient, path: str, body: dict[str, Any] | None = None,
            **kwargs: Any) -> dict[str, Any]:
    """POST a step's options; the 200 answer (``ceremony``, ``public_key``)."""
    response = client.post(path, json=body or {}, headers=SAME_SITE, **kwargs)
    assert response.status_code == 200, response.get_json()
    answer: dict[str, Any] = response.get_json()
    return answer


def finish(client: FlaskClient, path: str, started: dict[str, Any],
           credential: dict[str, Any], **kwargs: Any) -> TestResponse:
    return client.post(path, json={"ceremony": started["ceremony"], "credential": credential},
                       headers=SAME_SITE, **kwargs)


def claim(client: FlaskClient, name: str,
          authenticator: SoftAuthenticator | None = None) -> tuple[SoftAuthenticator,
                                                                   list[str]]:
    """Claim `name` with a new passkey: (the authenticator, the recovery codes)."""
    authenticator = authenticator or SoftAuthenticator()
    started = options(client, "/api/account/claim/options", {"name": name})
    response = finish(client, "/api/account/claim", started,
                      authenticator.create(started["public_key"]))
    assert response.status_code == 201, response.get_json()
    codes: list[str] = response.get_json()["recovery_codes"]
    return authenticator, codes


def sign_in(client: FlaskClient, authenticator: SoftAuthenticator,
            **assertion: Any) -> TestResponse:
    started = options(client, "/api/account/sign-in/options")
    return finish(client, "/api/account/sign-in", started,
                  authenticator.get(started["public_key"], **assertion))


def signed_in_as(client: FlaskClient) -> str | None:
    """The name GET /api/account answers, None for 401."""
    response = client.get("/api/account")
    if response.status_code == 401:
        return None
    assert response.status_code == 200, response.get_json()
    name: str = response.get_json()["name"]
    return name


def sign_out(client: FlaskClient) -> None:
    assert client.post("/api/account/sign-out", headers=SAME_SITE).status_code == 204
