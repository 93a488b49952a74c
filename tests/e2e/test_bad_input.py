"""Hostile and broken input against the real service (``squares serve``, 2 app workers, real database).

Every case must be answered 4xx with the one JSON error shape
``{"error": {"code", "message", "details"}}``, and must change no game: the games'
versions and stored events are compared before and after each case. Names with
Unicode and HTML are accepted, stored and returned literally.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from squares_testing.client import ApiClient, Reply
from squares_testing.net import HOST
from squares_testing.server import Server
from tests.e2e.reliability_helpers import (
    BACKENDS,
    assert_error_shape,
    create_game,
    game_state,
    play_hint,
    served,
    stored_events,
)

pytestmark = pytest.mark.e2e

MiB = 1024 * 1024


@dataclass
class Target:
    server: Server
    client: ApiClient
    game: str  # the game the cases aim at
    token: str
    other_game: str
    other_token: str

    def snapshot(self) -> Any:
        """What must never change: both games' versions and events, and the game count."""
        listing = self.client.call("GET", "/api/games?limit=1")
        assert listing.status == 200, listing.body[:300]
        return (
            [(game_state(self.client, g)["version"], stored_events(self.client, g))
             for g in (self.game, self.other_game)],
            listing.data["total"],
        )

    def legal_line(self) -> tuple[int, int]:
        """A line the game would accept right now (so a wrongly coerced value would land)."""
        state = game_state(self.client, self.game)
        lines = state["legal"]["lines"]
        assert lines, state["legal"]
        x, y = lines[0]
        return int(x), int(y)

    def version(self) -> int:
        return int(game_state(self.client, self.game)["version"])


@pytest.fixture(scope="module", params=BACKENDS)
def target(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    tmp = tmp_path_factory.mktemp(f"bad-input-{request.param}")
    with served(request.param, tmp) as server:
        client = ApiClient(server.port)
        # seed 9: three hinted lines in, stage 1 still has a line to take
        game, token, _ = create_game(client, name="Target", seed=9)
        other, other_token, _ = create_game(client, name="Other", seed=6)
        # a few moves first: a stale version must be a real past version (>= 1)
        for _ in range(3):
            play_hint(client, game, token)
        try:
            yield Target(server, client, game, token, other, other_token)
        finally:
            client.close()


def send_raw(port: int, head: bytes, body: bytes, timeout: float = 10.0) -> Reply:
    """Send `head` then as much of `body` as the server takes; read its answer."""
    with socket.create_connection((HOST, port), timeout=timeout) as sock:
        sock.sendall(head)
        try:
            for start in range(0, len(body), 64 * 1024):
                sock.sendall(body[start:start + 64 * 1024])
        except OSError:
            pass  # the server answered early and stopped reading: read that answer
        chunks = []
        try:
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if _complete(b"".join(chunks)):
                    break
        except OSError:
            pass
    raw = b"".join(chunks)
    head_part, _, payload = raw.partition(b"\r\n\r\n")
    lines = head_part.decode("latin-1").split("\r\n")
    assert lines and lines[0].startswith("HTTP/1."), raw[:300]
    status = int(lines[0].split()[1])
    headers = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in lines[1:])}
    content_type = headers.get("content-type", "")
    data = json.loads(payload) if "json" in content_type and payload else None
    return Reply(status, data, payload, content_type, 0.0)


def _complete(raw: bytes) -> bool:
    head, sep, payload = raw.partition(b"\r\n\r\n")
    if not sep:
        return False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return len(payload) >= int(value.strip())
    return False


Case = Callable[[Target], Reply]


TokenChoice = str | Callable[["Target"], str] | None


def pick_token(t: Target, token: TokenChoice) -> str | None:
    """"own", "other" (the other game's token), a literal, a function of the target."""
    if callable(token):
        return token(t)
    return {"own": t.token, "other": t.other_token}.get(token, token) if token else None


def post_line(body: Any = None, *, raw: bytes | None = None, token: TokenChoice = "own",
              headers: dict[str, str] | None = None, game: str = "own") -> Case:
    def case(t: Target) -> Reply:
        gid = t.game if game == "own" else game
        tok = pick_token(t, token)
        payload = body(t) if callable(body) else body
        return t.client.call("POST", f"/api/games/{gid}/lines", payload, raw=raw, token=tok,
                             headers=headers)
    return case


def post_advance(body: Any = None, *, raw: bytes | None = None, token: TokenChoice = "own",
                 headers: dict[str, str] | None = None) -> Case:
    def case(t: Target) -> Reply:
        tok = pick_token(t, token)
        payload = body(t) if callable(body) else body
        return t.client.call("POST", f"/api/games/{t.game}/advance", payload, raw=raw,
                             token=tok, headers=headers)
    return case


def legal_with(**overrides: Any) -> Callable[[Target], dict[str, Any]]:
    """A legal line at the current version, with some fields replaced by bad values."""
    def body(t: Target) -> dict[str, Any]:
        x, y = t.legal_line()
        values: dict[str, Any] = {"x": x, "y": y, "expected_version": t.version()}
        for key, value in overrides.items():
            values[key] = value(values) if callable(value) else value
        return {k: v for k, v in values.items() if v is not OMIT}
    return body


OMIT = object()


def nested(depth: int, kind: str = "list") -> bytes:
    inner = '"x": ' + ("[" * depth + "]" * depth if kind == "list"
                       else '{"a": ' * depth + "1" + "}" * depth)
    return ('{' + inner + ', "y": 0, "expected_version": 1}').encode()


def request(method: str, path: Callable[[Target], str] | str, body: Any = None,
            raw: bytes | None = None, headers: dict[str, str] | None = None) -> Case:
    def case(t: Target) -> Reply:
        where = path(t) if callable(path) else path
        return t.client.call(method, where, body, raw=raw, headers=headers)
    return case


def create(body: Any = None, raw: bytes | None = None,
           headers: dict[str, str] | None = None) -> Case:
    return request("POST", "/api/games", body, raw=raw, headers=headers)


def raw_post(t: Target, path: str, body: bytes, *, token: str | None = None,
             declared: int | None = None) -> Reply:
    """POST `body` over a plain socket, declaring `declared` bytes (default: its size)."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\n{auth}"
            f"Content-Type: application/json\r\n"
            f"Content-Length: {len(body) if declared is None else declared}\r\n"
            f"Connection: close\r\n\r\n").encode()
    return send_raw(t.server.port, head, body)


def declared_huge_body(t: Target) -> Reply:
    """Content-Length: 64 MiB, of which the first 256 KiB are sent."""
    return raw_post(t, f"/api/games/{t.game}/lines", b'{"x": "' + b"a" * (256 * 1024),
                    token=t.token, declared=64 * MiB)


def sent_huge_body(t: Target) -> Reply:
    """A complete 4 MiB JSON body: a legal line plus 4 MiB of padding."""
    x, y = t.legal_line()
    body = json.dumps({"x": x, "y": y, "expected_version": t.version(),
                       "padding": "a" * (4 * MiB)}).encode()
    return raw_post(t, f"/api/games/{t.game}/lines", body, token=t.token)


def chunked_post(t: Target, path: str, body: bytes, *, token: str | None = None) -> Reply:
    """POST `body` with ``Transfer-Encoding: chunked`` (no Content-Length at all)."""
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    head = (f"POST {path} HTTP/1.1\r\nHost: {HOST}\r\n{auth}"
            f"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
            f"Connection: close\r\n\r\n").encode()
    step = 8192
    chunks = b"".join(b"%x\r\n" % len(body[i:i + step]) + body[i:i + step] + b"\r\n"
                      for i in range(0, len(body), step))
    return send_raw(t.server.port, head, chunks + b"0\r\n\r\n")


def chunked_huge_body(t: Target) -> Reply:
    """A 200 KB JSON body, chunked: a legal line plus padding inside the JSON."""
    x, y = t.legal_line()
    body = json.dumps({"x": x, "y": y, "expected_version": t.version(),
                       "padding": "a" * 200_000}).encode()
    return chunked_post(t, f"/api/games/{t.game}/lines", body, token=t.token)


def chunked_huge_body_whitespace(t: Target) -> Reply:
    """A legal line followed by 200 KB of spaces, chunked: over the limit all the same."""
    x, y = t.legal_line()
    body = json.dumps({"x": x, "y": y, "expected_version": t.version()}).encode()
    return chunked_post(t, f"/api/games/{t.game}/lines", body + b" " * 200_000,
                        token=t.token)


def huge_name(t: Target) -> Reply:
    body = json.dumps({"player_name": "N" * (2 * MiB), "difficulty": "easy"}).encode()
    return raw_post(t, "/api/games", body)


# (id, the request, the status and error code the API answers)
CASES: list[tuple[str, Case, int, str]] = [
    # huge bodies
    ("huge-declared-content-length", declared_huge_body, 413, "body_too_large"),
    ("huge-body-sent", sent_huge_body, 413, "body_too_large"),
    ("huge-name-create", huge_name, 413, "body_too_large"),
    ("huge-body-chunked", chunked_huge_body, 413, "body_too_large"),
    ("huge-body-chunked-whitespace", chunked_huge_body_whitespace, 413, "body_too_large"),
    # deeply nested JSON
    ("nested-lists-3000", post_line(raw=nested(3_000)), 400, "malformed_json"),
    ("nested-objects-3000", post_line(raw=nested(3_000, "dict")), 400, "malformed_json"),
    ("nested-lists-50000", post_line(raw=nested(50_000)), 413, "body_too_large"),
    ("nested-create", create(raw=b'{"player_name": ' + b"[" * 5000 + b"]" * 5000 + b"}"),
     400, "malformed_json"),
    # not JSON at all / not an object
    ("invalid-json", post_line(raw=b'{"x": 1, "y": '), 400, "malformed_json"),
    ("empty-body-lines", post_line(raw=b""), 400, "invalid_request"),
    ("json-array-body", post_line([1, 0, 1]), 400, "invalid_request"),
    ("json-string-body", post_line("x=1&y=0"), 400, "invalid_request"),
    ("json-null-body", post_line(raw=b"null"), 400, "invalid_request"),
    ("utf8-garbage", post_line(raw=b'{"x": "\xff\xfe\xfa"}'), 400, "malformed_json"),
    ("utf8-bom", post_line(raw=b'\xef\xbb\xbf{"x": 1, "y": 0}'), 400, "malformed_json"),
    ("text-plain-body",
     post_line(raw=b'{"x": 1, "y": 0}', headers={"Content-Type": "text/plain"}),
     415, "unsupported_media_type"),
    ("unknown-field", post_line(legal_with(evil=1)), 400, "invalid_request"),
    ("nan-coordinate", post_line(raw=b'{"x": NaN, "y": 0, "expected_version": 1}'),
     400, "invalid_request"),
    ("infinite-coordinate", post_line(raw=b'{"x": 1e400, "y": 0, "expected_version": 1}'),
     400, "invalid_request"),
    ("form-encoded", post_line(raw=b"x=1&y=0&expected_version=1",
                               headers={"Content-Type": "application/x-www-form-urlencoded"}),
     415, "unsupported_media_type"),
    # wrong types, each around a line the game would accept
    ("x-as-string", post_line(legal_with(x=lambda v: str(v["x"]))), 400, "invalid_request"),
    ("x-as-float", post_line(legal_with(x=lambda v: v["x"] + 0.5)), 400, "invalid_request"),
    ("x-as-float-integral", post_line(legal_with(x=lambda v: float(v["x"]))), 400,
     "invalid_request"),
    ("x-as-bool", post_line(legal_with(x=True)), 400, "invalid_request"),
    ("x-as-null", post_line(legal_with(x=None)), 400, "invalid_request"),
    ("x-as-list", post_line(legal_with(x=lambda v: [v["x"]])), 400, "invalid_request"),
    ("x-as-object", post_line(legal_with(x=lambda v: {"value": v["x"]})), 400,
     "invalid_request"),
    ("x-missing", post_line(legal_with(x=OMIT)), 400, "invalid_request"),
    ("version-as-string", post_line(legal_with(expected_version=lambda v:
                                               str(v["expected_version"]))),
     400, "invalid_request"),
    ("version-as-float", post_line(legal_with(expected_version=lambda v:
                                              v["expected_version"] + 0.25)),
     400, "invalid_request"),
    ("advance-version-as-string", post_advance({"expected_version": "latest"}), 400,
     "invalid_request"),
    ("advance-body-array", post_advance([]), 400, "invalid_request"),
    ("name-as-number", create({"player_name": 12345, "difficulty": "easy"}), 400,
     "invalid_request"),
    ("height-as-string", create({"player_name": "Ali", "height": "9", "width": 13}), 400,
     "invalid_request"),
    ("difficulty-unknown", create({"player_name": "Ali", "difficulty": "impossible"}),
     422, "invalid_level"),
    ("mode-unknown", create({"player_name": "Ali", "mode": "vs_everyone"}), 422, "invalid_mode"),
    ("field-even", create({"player_name": "Ali", "height": 10, "width": 13}), 422,
     "invalid_field_size"),
    ("field-huge", create({"player_name": "Ali", "height": 10**6 + 1, "width": 10**6 + 1}),
     422, "invalid_field_size"),
    ("seed-as-string", create({"player_name": "Ali", "seed": "seven"}), 400, "invalid_request"),
    ("seed-2-to-64", create({"player_name": "Ali", "seed": 2**64}), 400, "invalid_request"),
    ("seed-negative", create({"player_name": "Ali", "seed": -1}), 400, "invalid_request"),
    ("two-players-no-second-name", create({"player_name": "Ali", "mode": "two_players"}),
     422, "invalid_name"),
    ("second-level-unknown", create({"player_name": "Ali", "mode": "computer_vs_computer",
                                     "second_level": "godlike"}), 422, "invalid_level"),
    # negative and huge coordinates / versions
    ("x-negative", post_line(legal_with(x=-1)), 422, "out_of_field"),
    ("y-negative", post_line(legal_with(y=-2)), 422, "out_of_field"),
    ("x-huge", post_line(legal_with(x=10**40 + 1)), 422, "out_of_field"),
    ("y-2-to-63", post_line(legal_with(y=2**63)), 422, "out_of_field"),
    ("x-beyond-field", post_line(legal_with(x=13)), 422, "out_of_field"),
    ("dot-not-a-line", post_line(legal_with(x=2, y=2)), 422, "not_a_line_slot"),
    ("box-not-a-line", post_line(legal_with(x=1, y=1)), 422, "not_a_line_slot"),
    ("version-negative", post_line(legal_with(expected_version=-1)), 400, "invalid_request"),
    ("version-huge", post_line(legal_with(expected_version=10**30)), 400, "invalid_request"),
    ("version-stale", post_line(legal_with(expected_version=lambda v:
                                           v["expected_version"] - 1)), 409,
     "version_conflict"),
    # names that can never be valid
    ("name-empty", create({"player_name": "", "difficulty": "easy"}), 422, "invalid_name"),
    ("name-blank", create({"player_name": "   \t ", "difficulty": "easy"}), 422, "invalid_name"),
    ("name-33-chars", create({"player_name": "x" * 33, "difficulty": "easy"}), 422,
     "invalid_name"),
    ("name-control-char", create({"player_name": "Ali\x00Veli", "difficulty": "easy"}),
     422, "invalid_name"),
    ("name-bell-newline", create({"player_name": "Ali\n\x07", "difficulty": "easy"}),
     422, "invalid_name"),
    ("name-missing", create({"difficulty": "easy"}), 400, "invalid_request"),
    ("name-lone-surrogate", create(raw=b'{"player_name": "\\ud800x", "difficulty": "easy"}'),
     422, "invalid_name"),
    # tokens
    ("token-missing", post_line(legal_with(), token=None), 401, "token_missing"),
    ("token-wrong", post_line(legal_with(), token="not-the-token"), 403, "token_invalid"),
    ("token-other-game", post_line(legal_with(), token="other"), 403, "token_invalid"),
    ("token-other-game-advance", post_advance(lambda t: {"expected_version": t.version()},
                                              token="other"), 403, "token_invalid"),
    ("token-missing-advance", post_advance(lambda t: {"expected_version": t.version()},
                                           token=None), 401, "token_missing"),
    ("token-empty-bearer", post_line(legal_with(), token=None,
                                     headers={"Authorization": "Bearer "}), 401, "token_missing"),
    ("token-basic-scheme", post_line(legal_with(), token=None,
                                     headers={"Authorization": "Basic YWxpOnZlbGk="}),
     401, "token_missing"),
    ("token-very-long", post_line(legal_with(), token="t" * 4000), 403, "token_invalid"),
    ("token-own-with-suffix", post_line(legal_with(), token=lambda t: t.token + "x"),
     403, "token_invalid"),
    ("token-own-truncated", post_line(legal_with(), token=lambda t: t.token[:-1]),
     403, "token_invalid"),
    # unknown things
    ("unknown-game", post_line(legal_with(), game="0" * 32), 404, "game_not_found"),
    ("unknown-game-traversal", request("GET", "/api/games/..%2F..%2Fetc%2Fpasswd"),
     404, "not_found"),
    ("unknown-route", request("GET", "/api/nothing-here"), 404, "not_found"),
    ("game-id-too-long", request("GET", "/api/games/" + "a" * 65), 404, "game_not_found"),
    ("computer-turn-of-a-human", lambda t: t.client.call(
        "POST", f"/api/games/{t.game}/computer-turn", token=t.token), 409, "not_computer_turn"),
    ("method-not-allowed", request("PUT", lambda t: f"/api/games/{t.game}/lines",
                                   {"x": 1, "y": 0}), 405, "method_not_allowed"),
    ("delete-game", request("DELETE", lambda t: f"/api/games/{t.game}"), 405,
     "method_not_allowed"),
    ("replay-step-0", request("GET", lambda t: f"/api/games/{t.game}/replay/0"), 404,
     "step_out_of_range"),
    ("replay-step-beyond", request("GET", lambda t: f"/api/games/{t.game}/replay/100000"),
     404, "step_out_of_range"),
    ("replay-step-negative", request("GET", lambda t: f"/api/games/{t.game}/replay/-1"),
     404, "step_out_of_range"),
    ("list-limit-text", request("GET", "/api/games?limit=many"), 400, "invalid_request"),
    ("events-after-huge",
     request("GET", lambda t: f"/api/games/{t.game}/events?after=1{'0' * 30}"),
     400, "invalid_request"),
    ("replay-step-huge", request("GET", lambda t: f"/api/games/{t.game}/replay/1{'0' * 30}"),
     404, "step_out_of_range"),
    ("events-after-text", request("GET", lambda t: f"/api/games/{t.game}/events?after=x"),
     400, "invalid_request"),
    ("highscores-limit-text", request("GET", "/api/highscores?limit=ten"), 400, "invalid_request"),
]


# Known app bugs: the case is right, the answer is not (strict: a fix makes these fail
# until the entry is removed).
KNOWN_BUGS: dict[str, str] = {}  # case name -> why it fails (strict xfail); none known


@pytest.mark.parametrize(("case", "status", "code"), [
    pytest.param(c, s, k, id=name, marks=[pytest.mark.xfail(reason=KNOWN_BUGS[name],
                                                            strict=True)]
                 if name in KNOWN_BUGS else [])
    for name, c, s, k in CASES
])
def test_bad_input_is_refused_with_the_error_shape_and_changes_nothing(
        target: Target, case: Case, status: int, code: str) -> None:
    before = target.snapshot()
    reply = case(target)
    assert_error_shape(reply, (status,), code)
    assert target.snapshot() == before


@pytest.mark.parametrize("name", [
    "<script>alert('x')</script>",
    "Eda Fırat ğüşöçİı",
    "\"quotes\" & 'amps' <b>",
    "名前 🎲 ✓ ∑ Ω",
    "Robert'); DROP TABLE games;--",
    "&lt;not escaped&gt; %s {0}",
], ids=["html-script", "turkish", "quotes-amp", "cjk-emoji", "sql", "entities-format"])
def test_unicode_and_html_names_are_stored_and_returned_literally(target: Target,
                                                                   name: str) -> None:
    client = target.client
    reply = client.call("POST", "/api/games", {"player_name": name, "difficulty": "easy",
                                               "height": 9, "width": 13})
    assert reply.status == 201, reply.body[:300]
    assert reply.data["state"]["seats"][0]["name"] == name
    game_id = reply.data["game_id"]
    assert game_state(client, game_id)["seats"][0]["name"] == name
    listing = client.call("GET", "/api/games?limit=100")
    assert listing.status == 200
    assert name in [g["player_name"] for g in listing.data["games"]]
    created = stored_events(client, game_id)[0]
    assert created["type"] == "game_created", created
    assert created["data"]["seats"][0]["name"] == name


def test_error_answers_leave_no_server_error_in_the_log(target: Target) -> None:
    """After all the cases above, the workers logged no exception (no hidden 500)."""
    log = target.server.log_tail(200_000)
    assert "Traceback" not in log, log[-3000:]
    assert "[ERROR]" not in log, log[-3000:]
