"""Hostile and broken input against the real service (``squares serve``, 2 app workers, real database).

Every case must be answered 4xx with the one JSON error shape
``{"error": {"code", "message", "details"}}``, and must change no game: the games'
versions and stored events are compared before and after each case. Names with
Unicode and HTML are accepted, stored and returned literally.

The target (a served instance, its two games) and the cases are in
`bad_input_target` and `bad_input_cases`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from squares_testing.client import ApiClient
from tests.e2e.bad_input_cases import CASES, Case
from tests.e2e.bad_input_target import Target
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
