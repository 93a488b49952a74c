"""Request ids and request logs (`service.protocol.request_ids`, `service.protocol.access_log`,
`service.ops.logs`): every answer carries an id, every log line of a request names it,
an error is logged once with its traceback, the JSON shape holds every field, and
nothing logged holds a token, an invite code or a claim code."""

from __future__ import annotations

import io
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest

from service.ops import logs
from service.services import Services
from service.store.queries import Queries

from .helpers import bearer, create_game
from .test_readiness import _wrapped


@pytest.fixture
def records(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    """Every record at INFO and above, with the request-id filter the server's
    handlers have (`logs.configure`)."""
    caplog.set_level(logging.INFO)
    id_filter = logs.RequestIdFilter()
    caplog.handler.addFilter(id_filter)
    yield caplog
    caplog.handler.removeFilter(id_filter)


def access(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == logs.ACCESS_LOGGER]


@pytest.mark.parametrize("sent", ["abc-123", "req:42/a+b=", "x" * 128,
                                  "0b8f0f2c-3b6f-4e4f-9c56-0e3b1f5b6a11"])
def test_a_sane_request_id_is_echoed(client: Any, sent: str) -> None:
    assert client.get("/healthz", headers={"X-Request-ID": sent}).headers["X-Request-ID"] == sent


@pytest.mark.parametrize("sent", ["", "has space", "x" * 129, "<script>", "naïve", "a\tb"])
def test_an_insane_request_id_is_replaced(client: Any, sent: str) -> None:
    got = client.get("/healthz", headers={"X-Request-ID": sent}).headers["X-Request-ID"]
    assert got != sent and len(got) == 32 and int(got, 16) >= 0


def test_every_answer_carries_a_request_id_errors_too(client: Any) -> None:
    answers = [client.get("/healthz"), client.get("/api/games/nope"),
               client.post("/api/games", data="{", content_type="application/json"),
               client.get("/no/such/page"), client.get("/")]
    ids = [a.headers.get("X-Request-ID") for a in answers]
    assert [a.status_code for a in answers] == [200, 404, 400, 404, 200]
    assert all(ids) and len(set(ids)) == len(ids)


def test_one_access_record_per_request_with_its_fields(
        client: Any, records: pytest.LogCaptureFixture) -> None:
    game = create_game(client)
    records.clear()
    answer = client.get(f"/api/games/{game['game_id']}", headers={"X-Request-ID": "r-1"})
    [line] = access(records)
    assert answer.status_code == 200
    assert {k: getattr(line, k) for k in ("request_id", "method", "route", "status",
                                         "game_id", "client")} == {
        "request_id": "r-1", "method": "GET", "route": "/api/games/<game_id>",
        "status": 200, "game_id": game["game_id"], "client": "127.0.0.1"}
    assert line.duration_ms >= 0  # type: ignore[attr-defined]
    assert "id=r-1" in line.getMessage()  # the text line names it too


def test_the_json_format_holds_every_field(client: Any,
                                           records: pytest.LogCaptureFixture) -> None:
    client.get("/api/games/nope", headers={"X-Request-ID": "r-2"})
    [line] = access(records)
    shaped = json.loads(logs.JsonFormatter().format(line))
    assert shaped["request_id"] == "r-2" and shaped["logger"] == "squares.access"
    assert {k: shaped[k] for k in ("method", "route", "status", "game_id", "client")} == {
        "method": "GET", "route": "/api/games/<game_id>", "status": 404, "game_id": "nope",
        "client": "127.0.0.1"}
    assert set(shaped) >= {"time", "level", "message", "duration_ms"}


def test_an_error_is_logged_once_with_its_request_id_and_traceback(
        client: Any, services: Services, monkeypatch: pytest.MonkeyPatch,
        records: pytest.LogCaptureFixture) -> None:
    def broken(*_: Any, **__: Any) -> Any:
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(Queries, "high_scores", broken)
    answer = client.get("/api/highscores", headers={"X-Request-ID": "boom-1"})
    assert answer.status_code == 500
    errors = [r for r in records.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1
    [error] = errors
    assert error.request_id == "boom-1"  # type: ignore[attr-defined]
    shaped = json.loads(logs.JsonFormatter().format(error))
    assert shaped["request_id"] == "boom-1" and shaped["level"] == "ERROR"
    assert "RuntimeError: disk on fire" in shaped["traceback"]
    text = logging.Formatter(logs.TEXT_FORMAT).format(error)
    assert "[boom-1]" in text and "Traceback" in text


def test_no_token_or_code_is_ever_logged(client: Any,
                                         records: pytest.LogCaptureFixture) -> None:
    game = create_game(client)
    token = game["token"]
    client.post(f"/api/games/{game['game_id']}/lines", json={"x": 1, "y": 0},
                headers=bearer(token))
    client.post(f"/api/games/{game['game_id']}/lines", json={"x": 1, "y": 0},
                headers=bearer("wrong-" + token))
    online = create_game(client, mode="online")
    code = online["invite"]["code"]
    claimed = client.post(f"/api/games/{online['game_id']}/claim",
                          json={"code": code, "name": "Bob"})
    secrets = [token, online["token"], code, claimed.get_json()["token"]]
    shaped = [logs.JsonFormatter().format(r) for r in records.records]
    text = records.text + "\n".join(shaped)
    assert len(access(records)) == 5
    assert not [s for s in secrets if s in text]


def test_an_unknown_log_format_is_refused() -> None:
    assert logs.log_format("json") == "json" and logs.log_format("") == "text"
    with pytest.raises(ValueError, match="SQUARES_LOG_FORMAT"):
        logs.log_format("yaml")


@dataclass
class Written:
    out: io.StringIO  # the access lines
    err: io.StringIO  # the rest


@pytest.fixture
def text_logs() -> Iterator[Written]:
    """The server's own logging (`logs.configure`, text), its two streams kept here;
    the loggers as they were afterwards."""
    saved = [(logger, logger.handlers[:], logger.level, logger.propagate)
             for logger in [logging.getLogger(), logging.getLogger(logs.ACCESS_LOGGER),
                            *(logging.getLogger(n) for n in logs.OUR_LOGGERS)]]
    logs.configure("text")
    written = Written(io.StringIO(), io.StringIO())
    for name, stream in ((logs.ACCESS_LOGGER, written.out), ("", written.err)):
        [handler] = logging.getLogger(name).handlers
        assert isinstance(handler, logging.StreamHandler)
        handler.setStream(stream)
    yield written
    for logger, handlers, level, propagate in saved:
        logger.handlers, logger.level, logger.propagate = handlers, level, propagate


FORGED = '127.0.0.1 "GET /forged" 200 1.0 ms id=forged'
FORGED_SENT = FORGED.replace(" ", "%20").replace('"', "%22")
ACCESS_LINE = re.compile(r'127\.0\.0\.1 "(?P<request>(?:[^"\\]|\\.)*)" 404 [0-9.]+ ms id=r-9')


@pytest.mark.parametrize(("sent", "written"), [
    (f"/x%0a{FORGED_SENT}",
     '/x\\n127.0.0.1 \\"GET /forged\\" 200 1.0 ms id=forged'),
    ("/a%0d%0ab", "/a\\r\\nb"),
    ("/%1b[31mred%1b[0m", "/\\x1b[31mred\\x1b[0m"),
    ('/say%22hi%22%5c', '/say\\"hi\\"\\\\'),
    ("/nul%00del%7fc1%c2%85ls%e2%80%a8", "/nul\\x00del\\x7fc1\\x85ls\\u2028"),
])
def test_a_client_s_path_cannot_forge_or_colour_a_text_log_line(
        client: Any, text_logs: Written, sent: str, written: str) -> None:
    client.get(sent, headers={"X-Request-ID": "r-9"})
    out = text_logs.out.getvalue()
    assert out.count("\n") == 1 and out.endswith("\n"), out  # one line, the request's own
    line = out[:-1]
    assert not [c for c in line if ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f], line
    # read as a log reader would: one quoted request (\" and \\ inside), then the rest
    read = ACCESS_LINE.fullmatch(line)
    assert read is not None, line
    assert read["request"] == f"GET {written}", line


def test_other_text_lines_escape_what_they_quote(text_logs: Written) -> None:
    logging.getLogger("service.test").warning("name %s, %s", 'Ada\n"x"', "b\x1bc")
    err = text_logs.err.getvalue()
    assert err.count("\n") == 1 and "\x1b" not in err, err
    assert err.endswith(' name Ada\\n\\"x\\", b\\x1bc\n'), err


def test_an_outage_writes_its_traceback_once_with_a_count_of_the_repeats(
        client: Any, services: Services, monkeypatch: pytest.MonkeyPatch,
        text_logs: Written) -> None:
    def lost(*_: Any, **__: Any) -> Any:
        raise _wrapped(psycopg.OperationalError("connection refused"), statement=None)

    monkeypatch.setattr(Queries, "high_scores", lost)
    answers = [client.get("/api/highscores").status_code for _ in range(30)]
    assert answers == [503] * 30
    err = text_logs.err.getvalue()
    assert err.count("Traceback") == 1 and err.count("the database is not available") == 1
    assert len(text_logs.out.getvalue().splitlines()) == 30  # every access line stays


def test_a_repeated_error_is_written_once_per_interval_with_its_count() -> None:
    now = [0.0]
    repeats = logs.RepeatFilter(interval_s=10.0, clock=lambda: now[0])

    def record(msg: str, exc: type[BaseException] = OSError) -> logging.LogRecord:
        made = logging.LogRecord("service.x", logging.ERROR, __file__, 1, msg, ("a",),
                                 (exc, exc("x"), None))
        return made

    assert repeats.filter(record("lost %s"))
    assert not any(repeats.filter(record("lost %s")) for _ in range(41))
    assert repeats.filter(record("lost %s", ValueError))  # another kind of error
    assert repeats.filter(record("other %s"))  # another message
    plain = logging.LogRecord("service.x", logging.ERROR, __file__, 1, "no traceback", (), None)
    assert repeats.filter(plain) and repeats.filter(plain)
    now[0] = 10.5
    later = record("lost %s")
    assert repeats.filter(later)
    assert later.repeats == 41  # type: ignore[attr-defined]
    assert "and 41 more like it" in later.getMessage()
    assert json.loads(logs.JsonFormatter().format(later))["repeats"] == 41
    assert not repeats.filter(record("lost %s"))
