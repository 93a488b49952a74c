"""Schemathesis fuzzing of every operation of the live app's OpenAPI document.

The schema is loaded from the running Flask app (``/api/openapi.json``, through
WSGI, no network). Hypothesis is derandomized and writes no example database.
Every answer must be no 5xx, match its documented response schema and content
type. A seeded database (a fresh vs_computer game, a finished one, a
two_players and a computer_vs_computer game, all small) lets a share of the cases
reach real games: their generated ``game_id`` (and ``Authorization``, and a replay
``step``) are swapped for real ones, deterministically by case number.

Each operation has a test function of its own, ``test_fuzz_api_<method>_<path>``
(`fuzz_test`), so that each has a node id of its own and the file runs under xdist.
`test_fuzz_made_enough_requests` checks that at least `MIN_REQUESTS` requests were
made over all operations and that each answered some 2xx. It does not depend on the
order or the choice of the tests: an operation whose fuzz test has not run yet
(the check runs first, or alone) is fuzzed by the check itself, with the very test
function Schemathesis built for pytest: the one collected in this session (`BUILT`,
kept by ``tests/api/conftest.py`` before any test is deselected), else one collected
now (`fuzzers`). (Schemathesis builds some cases only once per schema, such as the
unexpected methods of a path, so the collected function comes first.)
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import Case
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
)

from service.domain.commands import PlaceLine
from service.services import Services
from service.store import migrate
from tests.apps import app_for_tests
from tests.factories import GameFactory

MIN_REQUESTS = 1000
EXAMPLES_PER_OPERATION = 100  # plus Schemathesis' explicit/coverage cases
CHECKS = [not_a_server_error, response_schema_conformance, content_type_conformance]

REQUESTS: Counter[str] = Counter()  # operation label -> requests made
STATUSES: Counter[tuple[str, int]] = Counter()  # (operation label, status) -> answers
BUILT: dict[str, Callable[..., None]] = {}  # operation label -> its collected fuzz test
# Operations no fuzzed request can pass: a passkey's signed answer, a recovery code
# or a session cookie is needed (tests/api/test_account_*.py reach them); the fuzzer
# still checks that they never fail with a 5xx or off their schemas.
NO_2XX_BY_FUZZ = {"POST /api/account/claim", "POST /api/account/sign-in",
                  "POST /api/account/recovery", "POST /api/account/passkeys/options",
                  "POST /api/account/passkeys"}


@dataclass(frozen=True)
class Seeded:
    game_id: str
    token: str
    version: int


# The app exists at import time (`schema.parametrize()` needs the schema then; the
# lazy `schemathesis.pytest.from_fixture` does not work with pytest 9.2). Its database
# is only touched once the `seeded` fixture has migrated it.
_DATABASE_DIR = tempfile.TemporaryDirectory(prefix="squares-fuzz-")
DATABASE_URL = f"sqlite:///{Path(_DATABASE_DIR.name) / 'fuzz.db'}"
# A live stream ends right after its backlog here (the fuzzer reads whole bodies). The
# rate limits are far away: every operation must reach its games (the fuzzed claims,
# invite checks and rematches share the creations' count; the limits have their own
# tests), and a fuzzer's junk counts against them too.
app = app_for_tests({"DATABASE_URL": DATABASE_URL,
                     "SQUARES_LIVE_MAX_S": 0.0, "SQUARES_LIVE_HEARTBEAT_S": 0.01,
                     **{f"SQUARES_LIMIT_{kind}": "100000 per minute"
                        for kind in ("CREATE", "HINT", "MOVE", "SIGN_IN")}})
schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app)


@pytest.fixture(scope="module")
def seeded() -> Iterator[list[Seeded]]:
    """Migrate the fuzz database and store the games cases are pointed at."""
    migrate(DATABASE_URL)
    services: Services = app.extensions["squares"]
    games = []
    for kwargs in (
        {"mode": "vs_computer", "difficulty": "easy"},
        {"mode": "two_players", "second_name": "Ayşe"},
        {"mode": "computer_vs_computer", "difficulty": "easy"},
    ):
        created = services.play.create_game(player_name="Fuzz", height=9, width=11, seed=5,
                                       **kwargs)  # type: ignore[arg-type]
        games.append(Seeded(created.game_id, created.token, 1))
    done = GameFactory.create(services=services, finished=True, small=True)
    games.append(Seeded(done.game_id, done.token, services.queries.get_summary(done.game_id).version))
    games.append(finished_online(services))
    yield games
    services.store.dispose()
    _DATABASE_DIR.cleanup()


def finished_online(services: Services) -> Seeded:
    """An online game played to its end (a rematch can be asked for); its creator's
    token."""
    created = services.play.create_game(player_name="Fuzz", mode="online", height=7,
                                        width=9, seed=5, hints=True)
    assert created.invite is not None
    claimed = services.play.claim_seat(created.game_id, created.invite.code, "Zuff")
    tokens = {1: created.token, 2: claimed.token}
    state = claimed.state
    while not state.over:
        hint = services.play.hint(created.game_id, tokens[state.turn]).command
        token = tokens[state.turn]
        if isinstance(hint, PlaceLine):
            state = services.play.place_line(created.game_id, token, hint.x, hint.y).state
        else:
            state = services.play.advance(created.game_id, token).state
    return Seeded(created.game_id, created.token, state.version)


PLAYER = "fuzz"  # a player of the seeded games (as "Fuzz": any way of writing it)


def aim(case: Case, games: list[Seeded], number: int) -> None:
    """Point some cases at real games, and a player's at a real player
    (deterministic: by the case's number)."""
    params = case.path_parameters
    if params and "name" in params and number % 4 != 0:
        params["name"] = PLAYER
    if not params or "game_id" not in params or number % 4 == 0:
        return
    game = games[(number // 4) % len(games)]
    params["game_id"] = game.game_id
    if number % 4 >= 2 and case.operation.definition.raw.get("security"):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game.token}"}
    if number % 4 == 3 and "step" in params:
        params["step"] = 1 + number % game.version


FUZZ_SETTINGS = settings(max_examples=EXAMPLES_PER_OPERATION, derandomize=True, database=None,
                         deadline=None, suppress_health_check=list(HealthCheck))


def fuzz_case(case: Case, games: list[Seeded]) -> None:
    """One case: aimed, sent, counted, every answer checked."""
    aim(case, games, sum(REQUESTS.values()))
    REQUESTS[case.operation.label] += 1
    response = case.call_and_validate(checks=CHECKS)
    STATUSES[case.operation.label, response.status_code] += 1


FUZZ_PREFIX = "test_fuzz_api_"  # then the operation, e.g. test_fuzz_api_post_api_games


def fuzz_test(method: str, path: str) -> Callable[..., None]:
    """The fuzz test of one operation. A test function each, not one for the whole
    schema: Schemathesis gives the tests of every operation of one function the same
    node id, and xdist tells tests apart by node id (under it only one would run)."""
    @schema.include(method=method, path=path).parametrize()
    @FUZZ_SETTINGS
    def test(case: Case, seeded: list[Seeded]) -> None:
        fuzz_case(case, seeded)

    return test


OPERATIONS = [result.ok() for result in schema.get_all_operations()]
for _operation in OPERATIONS:
    _name = re.sub(r"\W+", "_", f"{_operation.method} {_operation.path}").strip("_").lower()
    globals()[FUZZ_PREFIX + _name] = fuzz_test(_operation.method.upper(), _operation.path)


def operation_of(item: pytest.Function) -> str:
    """The operation label of a fuzz test's item (``<function>[<label>]``)."""
    return item.name.split("[", 1)[1].removesuffix("]")


def is_fuzz_item(item: pytest.Item) -> bool:
    return isinstance(item, pytest.Function) and item.originalname.startswith(FUZZ_PREFIX)


def fuzzers(module: pytest.Module) -> dict[str, Callable[..., None]]:
    """Each operation's fuzz test, as Schemathesis builds it for pytest (the module's
    collector asked again): operation label -> test function."""
    built = {}
    for collector in module.collect():
        if isinstance(collector, pytest.Collector) and collector.name.startswith(FUZZ_PREFIX):
            built.update((operation_of(item), item.obj) for item in collector.collect()
                         if isinstance(item, pytest.Function))
    return built


def test_fuzz_made_enough_requests(seeded: list[Seeded], request: pytest.FixtureRequest) -> None:
    operations = [operation.label for operation in OPERATIONS]
    missing = [label for label in operations if label not in REQUESTS]
    if missing:  # their fuzz tests have not run (yet): fuzz them here
        built = BUILT if set(missing) <= set(BUILT) else fuzzers(request.node.getparent(
            pytest.Module))
        for label in missing:
            built[label](seeded=seeded)
    print(f"fuzz requests: {sum(REQUESTS.values())} {dict(REQUESTS)}")
    print(f"fuzz statuses: {sorted(STATUSES.items())}")
    assert sum(REQUESTS.values()) >= MIN_REQUESTS, REQUESTS
    # the real games were reached: every operation answered some 2xx
    succeeded = {label for (label, status), _ in STATUSES.items() if 200 <= status < 300}
    assert set(operations) - NO_2XX_BY_FUZZ <= succeeded, set(operations) - succeeded
