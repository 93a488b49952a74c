"""The cases of the bad-input tests (`test_bad_input`): each builds one hostile or
broken request against the target's game, and `CASES` names the status and error
code the API answers each with."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from squares_testing.client import Reply
from squares_testing.net import HOST
from tests.e2e.bad_input_target import Target, send_raw

MiB = 1024 * 1024


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
