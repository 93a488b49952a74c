"""Requests the API must refuse with its one error shape, changing nothing.

Each case is sent to a fresh 9 x 11 game; the game's version and events are
compared before and after.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from service.http.app import MAX_BODY_BYTES
from service.services import Services
from service.store.queries import Queries

from .helpers import CheckedClient, assert_error, bearer, create_game, snapshot


@dataclass
class Target:
    client: CheckedClient
    game_id: str
    token: str
    other_token: str


@pytest.fixture
def target(client: CheckedClient) -> Target:
    game = create_game(client, height=9, width=11, seed=1, difficulty="easy")
    other = create_game(client, seed=2)
    return Target(client, game["game_id"], game["token"], other["token"])


@dataclass
class Bad:
    """One bad request: raw body bytes (or a JSON value) to `path` (``{g}``: the game)."""

    path: str = "/api/games/{g}/lines"
    raw: bytes | None = None
    body: Any = None
    method: str = "POST"
    content_type: str | None = "application/json"
    token: str | None = "own"  # own | other | None | a literal token
    headers: dict[str, str] = field(default_factory=dict)

    def send(self, t: Target) -> Any:
        headers = dict(self.headers)
        token = {"own": t.token, "other": t.other_token}.get(self.token or "", self.token)
        if token:
            headers.update(bearer(token))
        data = self.raw if self.raw is not None else (
            None if self.body is None else json.dumps(self.body).encode())
        kwargs: dict[str, Any] = {"headers": headers, "data": data}
        if self.content_type is not None:
            kwargs["content_type"] = self.content_type
        return t.client.open(self.path.format(g=t.game_id), method=self.method, **kwargs)


def nested(depth: int, kind: str = "list") -> bytes:
    if kind == "list":
        return b"[" * depth + b"]" * depth
    return b'{"a":' * depth + b"1" + b"}" * depth


def padded(size: int) -> bytes:
    """A JSON object of exactly `size` bytes (it has an unknown field)."""
    head, tail = b'{"x":1,"y":2,"pad":"', b'"}'
    return head + b"a" * (size - len(head) - len(tail)) + tail


# (id, the request, status, code)
CASES: list[tuple[str, Bad, int, str]] = [
    # not JSON / not an object (400 malformed_json / invalid_request)
    ("malformed-json", Bad(raw=b'{"x": 1, "y": '), 400, "malformed_json"),
    ("malformed-json-single-quotes", Bad(raw=b"{'x': 1, 'y': 2}"), 400, "malformed_json"),
    ("trailing-garbage", Bad(raw=b'{"x": 1, "y": 2} x'), 400, "malformed_json"),
    ("invalid-utf8", Bad(raw=b'{"x": "\xff\xfe"}'), 400, "malformed_json"),
    ("nan", Bad(raw=b'{"x": NaN, "y": 2}'), 400, "invalid_request"),
    ("infinity", Bad(raw=b'{"x": 1e400, "y": 2}'), 400, "invalid_request"),
    ("integer-over-4300-digits", Bad(raw=b'{"x": 1' + b"0" * 5000 + b', "y": 2}'), 400,
     "malformed_json"),
    ("nested-lists-30000", Bad(raw=nested(30_000)), 400, "malformed_json"),
    ("nested-objects-5000", Bad(raw=nested(5_000, "dict")), 400, "malformed_json"),
    ("nested-in-field", Bad(raw=b'{"x": ' + nested(20_000) + b', "y": 2}'), 400,
     "malformed_json"),
    ("nested-advance", Bad(path="/api/games/{g}/advance", raw=nested(30_000)), 400,
     "malformed_json"),
    ("nested-create", Bad(path="/api/games", token=None,
                          raw=b'{"player_name": ' + nested(20_000) + b"}"), 400,
     "malformed_json"),
    # a key twice (the decoder would keep the last one): malformed, as imports say
    ("duplicate-key", Bad(raw=b'{"x": 1, "y": 2, "x": 3}'), 400, "malformed_json"),
    ("duplicate-key-same-value", Bad(raw=b'{"x": 1, "y": 2, "y": 2}'), 400,
     "malformed_json"),
    ("duplicate-version", Bad(path="/api/games/{g}/advance",
                              raw=b'{"expected_version": 1, "expected_version": 99}'),
     400, "malformed_json"),
    ("duplicate-key-create", Bad(path="/api/games", token=None,
                                 raw=b'{"player_name": "A", "player_name": "B"}'), 400,
     "malformed_json"),
    ("duplicate-key-nested", Bad(raw=b'{"x": 1, "y": 2, "z": {"a": 1, "a": 2}}'), 400,
     "malformed_json"),
    ("json-array", Bad(body=[1, 2]), 400, "invalid_request"),
    ("json-array-advance", Bad(path="/api/games/{g}/advance", body=[]), 400,
     "invalid_request"),
    ("json-array-create", Bad(path="/api/games", token=None, body=[{"player_name": "A"}]),
     400, "invalid_request"),
    ("json-string", Bad(body="x=1&y=2"), 400, "invalid_request"),
    ("json-number", Bad(body=12), 400, "invalid_request"),
    ("json-null", Bad(raw=b"null"), 400, "invalid_request"),
    ("empty-body", Bad(raw=b""), 400, "invalid_request"),
    # a body that is not sent as JSON (415, nothing played)
    ("form-encoded", Bad(raw=b"x=1&y=2", content_type="application/x-www-form-urlencoded"),
     415, "unsupported_media_type"),
    ("json-as-text-plain", Bad(raw=b'{"x": 1, "y": 2}', content_type="text/plain"), 415,
     "unsupported_media_type"),
    ("json-without-content-type", Bad(raw=b'{"x": 1, "y": 2}', content_type=None), 415,
     "unsupported_media_type"),
    ("advance-form-encoded", Bad(path="/api/games/{g}/advance",
                                 raw=b'{"expected_version":999}',
                                 content_type="application/x-www-form-urlencoded"),
     415, "unsupported_media_type"),
    ("advance-text-plain", Bad(path="/api/games/{g}/advance", raw=b'{"expected_version":999}',
                               content_type="text/plain"), 415, "unsupported_media_type"),
    ("advance-no-content-type", Bad(path="/api/games/{g}/advance",
                                    raw=b'{"expected_version":999}', content_type=None),
     415, "unsupported_media_type"),
    ("computer-turn-form", Bad(path="/api/games/{g}/computer-turn", raw=b"a=1",
                               content_type="application/x-www-form-urlencoded"),
     415, "unsupported_media_type"),
    ("create-form-encoded", Bad(path="/api/games", token=None, raw=b"player_name=A",
                                content_type="application/x-www-form-urlencoded"),
     415, "unsupported_media_type"),
    # wrong types and missing fields (400 invalid_request)
    ("x-missing", Bad(body={"y": 2}), 400, "invalid_request"),
    ("both-missing", Bad(body={}), 400, "invalid_request"),
    ("x-string", Bad(body={"x": "1", "y": 2}), 400, "invalid_request"),
    ("x-float", Bad(body={"x": 1.5, "y": 2}), 400, "invalid_request"),
    ("x-float-integral", Bad(body={"x": 1.0, "y": 2}), 400, "invalid_request"),
    ("x-bool", Bad(body={"x": True, "y": 2}), 400, "invalid_request"),
    ("x-null", Bad(body={"x": None, "y": 2}), 400, "invalid_request"),
    ("x-list", Bad(body={"x": [1], "y": 2}), 400, "invalid_request"),
    ("x-object", Bad(body={"x": {"v": 1}, "y": 2}), 400, "invalid_request"),
    ("unknown-field", Bad(body={"x": 1, "y": 2, "seat": 2}), 400, "invalid_request"),
    ("advance-unknown-field", Bad(path="/api/games/{g}/advance", body={"x": 1}), 400,
     "invalid_request"),
    ("version-string", Bad(body={"x": 1, "y": 2, "expected_version": "1"}), 400,
     "invalid_request"),
    # values no game accepts (422)
    ("x-negative", Bad(body={"x": -1, "y": 2}), 422, "out_of_field"),
    ("y-negative-huge", Bad(body={"x": 1, "y": -(10**40)}), 422, "out_of_field"),
    ("x-huge", Bad(body={"x": 10**40, "y": 2}), 422, "out_of_field"),
    ("y-2-to-63", Bad(body={"x": 1, "y": 2**63}), 422, "out_of_field"),
    ("a-dot", Bad(body={"x": 2, "y": 2}), 422, "not_a_line_slot"),
    ("a-box", Bad(body={"x": 3, "y": 3}), 422, "not_a_line_slot"),
    # size (413)
    ("body-over-64k", Bad(raw=padded(MAX_BODY_BYTES + 1)), 413, "body_too_large"),
    ("body-1mb", Bad(raw=b"[" + b"1," * 500_000 + b"1]"), 413, "body_too_large"),
    ("create-body-over-64k", Bad(path="/api/games", token=None,
                                 body={"player_name": "a" * MAX_BODY_BYTES}), 413,
     "body_too_large"),
    ("body-exactly-64k-is-read", Bad(raw=padded(MAX_BODY_BYTES)), 400, "invalid_request"),
    # tokens (401 / 403)
    ("token-missing", Bad(body={"x": 1, "y": 2}, token=None), 401, "token_missing"),
    ("token-other-game", Bad(body={"x": 1, "y": 2}, token="other"), 403, "token_invalid"),
    ("token-wrong", Bad(body={"x": 1, "y": 2}, token="wrong"), 403, "token_invalid"),
    # versions (409)
    ("version-stale", Bad(body={"x": 1, "y": 2, "expected_version": 7}), 409,
     "version_conflict"),
    # unknown things (404), wrong methods (405)
    ("unknown-game", Bad(path="/api/games/" + "f" * 32 + "/lines", body={"x": 1, "y": 2}),
     404, "game_not_found"),
    ("unknown-route", Bad(path="/api/no-such-thing", method="GET", content_type=None), 404,
     "not_found"),
    ("unknown-route-below-game", Bad(path="/api/games/{g}/moves", body={}), 404, "not_found"),
    ("unknown-route-deeper", Bad(path="/api/games/{g}/lines/1/2", body={}), 404, "not_found"),
    ("put-lines", Bad(method="PUT", body={"x": 1, "y": 2}), 405, "method_not_allowed"),
    ("get-lines", Bad(method="GET", content_type=None), 405, "method_not_allowed"),
    ("delete-game", Bad(path="/api/games/{g}", method="DELETE", content_type=None), 405,
     "method_not_allowed"),
    ("patch-games", Bad(path="/api/games", method="PATCH", body={}), 405,
     "method_not_allowed"),
    ("post-highscores", Bad(path="/api/highscores", body={"name": "x", "score": 999}), 405,
     "method_not_allowed"),
    ("post-healthz", Bad(path="/healthz", body={}), 405, "method_not_allowed"),
    ("post-replay", Bad(path="/api/games/{g}/replay/1", body={}), 405, "method_not_allowed"),
]


@pytest.mark.parametrize(("bad", "status", "code"),
                         [pytest.param(b, st, c, id=name) for name, b, st, c in CASES])
def test_bad_request_is_refused_with_the_error_shape_and_changes_nothing(
        target: Target, bad: Bad, status: int, code: str) -> None:
    before = snapshot(target.client, target.game_id)
    games_before = target.client.get("/api/games").get_json()["total"]
    response = bad.send(target)
    details = assert_error(response, status, code)
    assert response.mimetype == "application/json"
    assert snapshot(target.client, target.game_id) == before
    assert target.client.get("/api/games").get_json()["total"] == games_before
    if code == "invalid_request":
        assert details["fields"], details
    if code == "version_conflict":
        assert details["current_version"] == before[0]
    if code == "token_missing":
        assert response.headers["WWW-Authenticate"] == 'Bearer realm="squares"'
    if status == 405:
        assert response.headers["Allow"]


def test_RULES_a_body_with_a_key_twice_is_malformed_even_when_one_value_is_playable(
        target: Target) -> None:
    """Issue 34: the decoder would keep the last value, so ``{"x": 1, "x": 3}`` played
    a line the client may never have meant; now the whole body is refused, as an import
    line with a key twice is."""
    state = target.client.get(f"/api/games/{target.game_id}").get_json()["state"]
    x, y = state["legal"]["lines"][0]
    before = snapshot(target.client, target.game_id)
    body = f'{{"x": 0, "y": {y}, "x": {x}}}'.encode()
    assert_error(Bad(raw=body).send(target), 400, "malformed_json")
    assert snapshot(target.client, target.game_id) == before
    played = Bad(raw=f'{{"x": {x}, "y": {y}}}'.encode()).send(target)
    assert played.status_code == 200  # the same line, each key once


def test_405_names_the_allowed_methods(target: Target) -> None:
    response = target.client.put(f"/api/games/{target.game_id}/lines", json={})
    assert_error(response, 405, "method_not_allowed")
    assert {m.strip() for m in response.headers["Allow"].split(",")} >= {"POST"}


def test_pages_keep_html_errors(client: CheckedClient) -> None:
    """Only /api/* and /healthz answer errors as JSON; a page 404 stays HTML."""
    response = client.get("/no-such-page", headers={"Accept": "text/html"})
    assert response.status_code == 404
    assert response.mimetype == "text/html"


def test_json_404_for_unknown_api_routes_whatever_the_accept_header(
        client: CheckedClient) -> None:
    response = client.get("/api/nothing", headers={"Accept": "text/html"})
    assert_error(response, 404, "not_found")


def test_replay_steps_outside_the_stream_are_404_and_no_number_is_400(target: Target) -> None:
    version = snapshot(target.client, target.game_id)[0]
    for step in (0, -1, version + 1, 10**6, 10**30):
        response = target.client.get(f"/api/games/{target.game_id}/replay/{step}")
        details = assert_error(response, 404, "step_out_of_range")
        assert details["version"] == version
    for step in ("x", "1.5", "+1", "1e3", "١", "-"):  # no number: the request is bad
        response = target.client.get(f"/api/games/{target.game_id}/replay/{step}")
        assert_error(response, 400, "invalid_request")


@pytest.mark.parametrize("query", ["after=-1", "after=x", "after=1.5", "limit=0",
                                   "limit=10001", "limit=x", "after=99999999999999999999"])
def test_events_refuse_bad_queries(target: Target, query: str) -> None:
    response = target.client.get(f"/api/games/{target.game_id}/events?{query}")
    details = assert_error(response, 400, "invalid_request")
    assert "query" in details["fields"]




def test_an_unexpected_failure_is_a_logged_json_500_under_api(
        client: CheckedClient, services: Services, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Queries, "high_scores", broken)
    monkeypatch.setattr(Queries, "games", broken)
    response = client.get("/api/highscores")
    details = assert_error(response, 500, "internal_error")
    assert details == {} and "disk on fire" not in response.get_data(as_text=True)
    assert "disk on fire" in caplog.text  # logged with its traceback
    page = client.get("/games", headers={"Accept": "text/html"})
    assert page.status_code == 500 and page.mimetype == "text/html"


def _chunked(target: Target, body: bytes) -> Any:
    """POST a body the way a server hands over a chunked one: no Content-Length, the
    stream terminated by the server (``wsgi.input_terminated``)."""
    return target.client.post(
        f"/api/games/{target.game_id}/lines", input_stream=io.BytesIO(body),
        headers={**bearer(target.token), "Content-Type": "application/json",
                 "Transfer-Encoding": "chunked"},
        environ_overrides={"wsgi.input_terminated": True})


def test_a_chunked_body_over_64k_is_413_not_cut_and_played(target: Target) -> None:
    state = target.client.get(f"/api/games/{target.game_id}").get_json()["state"]
    x, y = state["legal"]["lines"][0]
    legal = json.dumps({"x": x, "y": y}).encode()
    before = snapshot(target.client, target.game_id)
    # the first 64 KiB alone would be a valid move
    assert_error(_chunked(target, legal + b" " * MAX_BODY_BYTES), 413, "body_too_large")
    assert_error(_chunked(target, padded(MAX_BODY_BYTES * 3)), 413, "body_too_large")
    assert snapshot(target.client, target.game_id) == before
    # at or under the limit a chunked body is read whole
    response = _chunked(target, legal + b" " * (MAX_BODY_BYTES - len(legal)))
    assert response.status_code == 200, response.get_json()
    assert _chunked(target, padded(MAX_BODY_BYTES)).get_json()["error"]["code"] == \
        "invalid_request"
