"""`service.wsgi_bridge` and the HTTP side of `service.asgi`, driven with fake ASGI
`receive`/`send` on tiny Flask apps (no server, no database)."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from flask import Flask, Response, request

from service.asgi import SquaresAsgi
from service.live.hub import HANDOFF_KEY, Handoff, StreamRequest, offer
from service.wsgi_bridge import Answer, WsgiApp, WsgiBridge, build_environ

Message = dict[str, Any]
T = TypeVar("T")
ERROR = {"error": {"code": "internal_error", "message": "something went wrong on our side",
                   "details": {}}}


def scope_of(path: str = "/", *, method: str = "GET", query: bytes = b"",
             headers: list[tuple[bytes, bytes]] | None = None, **extra: Any) -> Message:
    return {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
            "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
            "root_path": "", "query_string": query, "headers": headers or [],
            "client": ("10.1.2.3", 50123), "server": ("127.0.0.1", 8000), **extra}


class Sent:
    """A fake ASGI `send` that keeps every message."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def __call__(self, message: Message) -> None:
        self.messages.append(message)

    @property
    def status(self) -> int:
        return int(self.messages[0]["status"])

    @property
    def headers(self) -> dict[bytes, bytes]:
        return dict(self.messages[0]["headers"])

    @property
    def body(self) -> bytes:
        return b"".join(m.get("body", b"") for m in self.messages[1:])

    @property
    def ended(self) -> bool:
        return self.messages[-1]["type"] == "http.response.body" and \
            not self.messages[-1].get("more_body", False)


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run` in a thread of its own: this one may have a loop running already
    (the browser tests' Playwright leaves one)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def through(app: WsgiApp, scope: Message | None = None, body: bytes = b"", *,
            end: bool = True) -> tuple[Answer, Sent]:
    """`app`'s answer to one request through a bridge, and what it sent."""
    bridge = WsgiBridge(app, threads=2)
    sent = Sent()

    async def go() -> Answer:
        answer = await bridge.call(scope or scope_of(), body)
        await answer.send(sent, end=end)
        return answer

    try:
        return run(go()), sent
    finally:
        bridge.close()


@pytest.fixture
def app() -> Flask:
    app = Flask(__name__)

    @app.post("/echo")
    def echo() -> Any:
        return Response(request.get_data(), status=201, headers={"X-Seen": "yes"},
                        mimetype="application/octet-stream")

    @app.get("/environ")
    def environ() -> Any:
        env = request.environ
        return {key: env.get(key) for key in ("REMOTE_ADDR", "REMOTE_PORT", "QUERY_STRING",
                                              "CONTENT_LENGTH", "CONTENT_TYPE", "PATH_INFO",
                                              "HTTP_X_TRACE", "HTTP_COOKIE",
                                              "HTTP_X_FORWARDED_FOR")} | {
            "has_scope": env.get("asgi.scope", {}).get("marker") == "here",
            "args": request.args.to_dict()}

    @app.get("/stream")
    def streamed() -> Any:
        def parts() -> Iterator[bytes]:
            for i in range(200):
                yield f"{i},".encode()
        return Response(parts(), mimetype="text/plain")

    @app.get("/boom")
    def boom() -> Any:
        raise RuntimeError("boom")

    return app


def test_status_headers_and_body_pass_through(app: Flask) -> None:
    scope = scope_of("/echo", method="POST",
                     headers=[(b"content-length", b"5"), (b"content-type", b"text/plain")])
    answer, sent = through(app, scope, b"hello")
    assert not answer.failed
    assert sent.status == 201
    assert sent.headers[b"x-seen"] == b"yes"
    assert sent.headers[b"content-type"] == b"application/octet-stream"
    assert sent.headers[b"content-length"] == b"5"
    assert sent.body == b"hello"
    assert sent.ended and len(sent.messages) == 2  # one start, one whole body


def test_a_generator_body_is_collected_whole(app: Flask) -> None:
    answer, sent = through(app, scope_of("/stream"))
    assert sent.status == 200
    assert sent.body == "".join(f"{i}," for i in range(200)).encode()
    assert sent.ended
    assert len(sent.messages) <= 2 + 200 // 64  # joined into a few messages


def test_the_environ_has_the_client_query_length_and_scope(app: Flask) -> None:
    scope = scope_of("/environ", query=b"a=1&b=x%20y", marker="here", headers=[
        (b"content-length", b"0"), (b"content-type", b"text/plain"),
        (b"x-trace", b"one"), (b"x-trace", b"two"),
        (b"cookie", b"a=1"), (b"cookie", b"b=2"),
        (b"x_forwarded_for", b"6.6.6.6")])  # an underscore: dropped, never trusted
    _, sent = through(app, scope)
    seen = json.loads(sent.body)
    assert seen == {"REMOTE_ADDR": "10.1.2.3", "REMOTE_PORT": "50123",
                    "QUERY_STRING": "a=1&b=x%20y", "CONTENT_LENGTH": "0",
                    "CONTENT_TYPE": "text/plain", "PATH_INFO": "/environ",
                    "HTTP_X_TRACE": "one,two", "HTTP_COOKIE": "a=1; b=2",
                    "HTTP_X_FORWARDED_FOR": None, "has_scope": True,
                    "args": {"a": "1", "b": "x y"}}


def test_build_environ_follows_pep_3333() -> None:
    scope = scope_of("/app/caf\u00e9", root_path="/app", query=b"q=1")
    environ = build_environ(scope, b"body")
    assert environ["SCRIPT_NAME"] == "/app"
    assert environ["PATH_INFO"] == "/caf\u00e9".encode().decode("latin-1")  # bytes as latin-1
    assert environ["SERVER_NAME"] == "127.0.0.1" and environ["SERVER_PORT"] == "8000"
    assert environ["SERVER_PROTOCOL"] == "HTTP/1.1"
    assert environ["wsgi.input"].read() == b"body"
    assert environ["wsgi.url_scheme"] == "http" and environ["wsgi.version"] == (1, 0)
    assert environ["asgi.scope"] is scope


def test_an_app_that_raises_answers_500_in_the_api_shape_logged_once(
        app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    app.config["PROPAGATE_EXCEPTIONS"] = True  # Flask lets it out: the bridge answers
    with caplog.at_level(logging.ERROR, logger="squares.asgi"):
        answer, sent = through(app, scope_of("/boom"))
    assert answer.failed
    assert sent.status == 500
    assert sent.headers[b"content-type"] == b"application/json"
    assert sent.headers[b"x-content-type-options"] == b"nosniff"
    assert json.loads(sent.body) == ERROR
    assert int(sent.headers[b"content-length"]) == len(sent.body)
    assert sent.ended
    failures = [r for r in caplog.records if r.name == "squares.asgi"]
    assert len(failures) == 1 and failures[0].exc_info is not None
    request_id = sent.headers[b"x-request-id"].decode()  # on the answer and in the log
    assert len(request_id) == 32 and failures[0].request_id == request_id  # type: ignore[attr-defined]


def test_exc_info_replaces_the_headers_and_the_body_so_far() -> None:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        write = start_response("200 OK", [("Content-Type", "text/plain")])
        write(b"half an answer")
        try:
            raise ValueError("changed its mind")
        except ValueError:
            start_response("503 Service Unavailable", [("Retry-After", "2")], sys.exc_info())
        return [b"later"]

    answer, sent = through(app)
    assert not answer.failed
    assert sent.status == 503 and sent.headers == {b"retry-after": b"2"}
    assert sent.body == b"later"


def test_the_legacy_write_callable_goes_before_the_iterable_and_close_is_called() -> None:
    closed: list[bool] = []

    class Body:
        def __iter__(self) -> Iterator[bytes]:
            yield b"b"
            yield b""
            yield b"c"

        def close(self) -> None:
            closed.append(True)

    def app(environ: dict[str, Any], start_response: Any) -> Body:
        start_response("200 OK", [])(b"a")
        return Body()

    _, sent = through(app)
    assert sent.body == b"abc" and closed == [True]


@pytest.mark.parametrize("broken", ["twice", "never", "str body"])
def test_an_app_that_breaks_the_protocol_answers_500(broken: str) -> None:
    def app(environ: dict[str, Any], start_response: Any) -> list[Any]:
        if broken != "never":
            start_response("200 OK", [])
        if broken == "twice":
            start_response("200 OK", [])
        return ["text"] if broken == "str body" else [b""]

    answer, sent = through(app)
    assert answer.failed and sent.status == 500 and json.loads(sent.body) == ERROR


def test_a_held_back_answer_sends_no_end() -> None:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("200 OK", [("Content-Type", "text/event-stream")])
        return [b"retry: 1\n\n"]

    _, sent = through(app, end=False)
    assert [m["type"] for m in sent.messages] == ["http.response.start", "http.response.body"]
    assert sent.messages[1] == {"type": "http.response.body", "body": b"retry: 1\n\n",
                                "more_body": True}
    _, sent = through(lambda e, s: (s("200 OK", []), [])[1], end=False)
    assert [m["type"] for m in sent.messages] == ["http.response.start"]  # nothing empty


class FakeHub:
    """What `SquaresAsgi` uses of the live hub: it records instead of streaming."""

    def __init__(self) -> None:
        self.served: list[StreamRequest] = []
        self.released: list[str] = []
        self.slots = self

    def release(self, client: str) -> None:
        self.released.append(client)

    async def serve(self, request: StreamRequest, receive: Any, send: Any) -> None:
        self.served.append(request)
        await send({"type": "http.response.body", "body": b"", "more_body": False})


def asgi_through(app: Flask, path: str) -> tuple[FakeHub, Sent]:
    hub = FakeHub()
    app.extensions["squares_live"] = hub
    app.config["MAX_CONTENT_LENGTH"] = 1024
    asgi = SquaresAsgi(app, threads=2)
    sent = Sent()

    async def receive() -> Message:
        return {"type": "http.request", "body": b"", "more_body": False}

    try:
        run(asgi(scope_of(path), receive, sent))
    finally:
        asgi.bridge.close()
    return hub, sent


def stream_app(*, fail_after_offer: bool) -> Flask:
    app = Flask(__name__)
    app.config["PROPAGATE_EXCEPTIONS"] = True

    @app.get("/live")
    def live() -> Any:
        assert isinstance(request.environ["asgi.scope"][HANDOFF_KEY], Handoff)
        assert offer(request.environ, StreamRequest("g1", 0, False, "10.1.2.3"))
        if fail_after_offer:
            raise RuntimeError("after the offer")
        return Response(iter(()), mimetype="text/event-stream")

    return app


def test_a_handed_over_stream_has_its_end_held_back_for_the_hub() -> None:
    hub, sent = asgi_through(stream_app(fail_after_offer=False), "/live")
    assert sent.status == 200
    assert [r.game_id for r in hub.served] == ["g1"] and hub.released == []
    # the start, then only the hub's end: the bridge's own end was held back
    assert sent.messages[1:] == [{"type": "http.response.body", "body": b"",
                                  "more_body": False}]


def test_an_app_failing_after_the_handoff_answers_500_and_frees_the_slot() -> None:
    hub, sent = asgi_through(stream_app(fail_after_offer=True), "/live")
    assert sent.status == 500 and json.loads(sent.body) == ERROR and sent.ended
    assert hub.served == [] and hub.released == ["10.1.2.3"]
