"""The streams server reads ``after``, ``Last-Event-ID`` and ``viewers`` as ASCII
digits only: a number in another script's digits (``١``, ``１``, ``१``), a
superscript or an int() spelling (``+1``, ``1_0``) is a 400 ``invalid_request``
before any stream, as on the app's own port (``tests/api/test_ascii_digits.py``).

A query's value is percent-encoded UTF-8, a header's the UTF-8 bytes as a client
such as curl sends them."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from service.protocol.paths import STREAM_QUERY_ERROR
from tests.api.test_ascii_digits import FORMS
from tests.factories import GameFactory

from .conftest import Live
from .sse import SseClient

# where the value goes, and the ASCII value that is taken there
PLACES = {"after": "1", "Last-Event-ID": "1", "viewers": "1"}


def _open(live: Live, game_id: str, name: str, value: str) -> SseClient:
    path = f"/api/games/{game_id}/live"
    if name == "Last-Event-ID":  # str to http.client, latin-1: the value's UTF-8 bytes
        return SseClient("127.0.0.1", live.port, path,
                         {name: value.encode("utf-8").decode("latin-1")})
    return SseClient("127.0.0.1", live.port, f"{path}?{name}={quote(value)}")


@pytest.mark.parametrize("name", PLACES)
def test_a_number_not_in_ascii_digits_is_a_400_before_any_stream(live: Live,
                                                                 name: str) -> None:
    game = GameFactory.create(services=live.services, finished=True, small=True)
    for form in FORMS.values():
        sse = _open(live, game.game_id, name, form)
        try:
            assert sse.status == 400, (name, form)
            assert sse.body_json()["error"] == {"code": "invalid_request",
                                                "message": STREAM_QUERY_ERROR,
                                                "details": {}}, (name, form)
        finally:
            sse.close()


@pytest.mark.parametrize("name", PLACES)
def test_the_same_number_in_ascii_digits_streams(live: Live, name: str) -> None:
    game = GameFactory.create(services=live.services, finished=True, small=True)
    sse = _open(live, game.game_id, name, PLACES[name])
    try:
        assert sse.status == 200
        first = 2 if name != "viewers" else 1  # after 1, or from the start
        assert [m.id for m in sse.events()][0] == first
    finally:
        sse.close()


def test_a_blank_after_is_no_number(live: Live) -> None:
    """``?after=`` is a 400 here as on the app's port (not the default 0)."""
    game = GameFactory.create(services=live.services, finished=True, small=True)
    sse = SseClient("127.0.0.1", live.port, f"/api/games/{game.game_id}/live?after=")
    try:
        assert sse.status == 400 and sse.body_json()["error"]["code"] == "invalid_request"
    finally:
        sse.close()
