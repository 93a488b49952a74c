"""Where a move's server CPU goes: the app's own share of it, by part.

    .venv/bin/python benchmarks/move_cost.py             # 60 games of 9 x 13, easy
    .venv/bin/python benchmarks/move_cost.py --quick     # 6 games
    .venv/bin/python benchmarks/move_cost.py --signed-in # the games of a signed-in player
    .venv/bin/python benchmarks/move_cost.py --daily     # today's daily challenge, as guests
    .venv/bin/python benchmarks/move_cost.py --size 19x33 --level hard  # its like, not daily

The same play as ``benchmarks/load.py`` (for each move ``GET .../hint``, then ``POST
.../lines`` or ``.../advance`` with ``expected_version`` and the token; a new 9 x 13
game against the easy computer whenever one ends, unless ``--size`` and ``--level``
say otherwise), driven straight into the WSGI app in this process on a fresh SQLite
file, as shipped (limits on, set high enough that one client is never refused), one
request at a time. No HTTP server and no thread hop: load.py's "server CPU per
healthz" minus the app's own cost of one ``/healthz`` (printed here) is what those
add to every request.

First the CPU per move is measured without a profiler; then the same play runs again
while the process's CPU clock interrupts it every half millisecond (SIGPROF), and
each interruption counts for the part (`PARTS`) of the innermost frame that belongs
to one (a standard-library frame counts for its caller's part): the samples give the
shares, the plain run the milliseconds. Sampling slows nothing down, so call-heavy
code (the AI) is not overstated as under a tracing profiler such as cProfile.

By default the games are guests'. With ``--signed-in`` one player with a claimed
record creates them all under its name, and every request carries its session cookie
and, when it writes, the ``Origin`` of the app's own pages, as a browser sends them
(the cross-site check refuses a write with the cookie and without our origin): what
a player's record and session add to a move.

With ``--daily`` every game is today's daily challenge (``"daily": true``, only the
name given): the default 19 x 33 field against the hard computer, rules edition 2. A
guest's daily game is practice, so it has hints, and the play is the same. A date has
one daily game under one daily secret, so each game is started under a secret of its
own (the services' setting, changed between games as a test changes it), as if each
were another instance's game of the date: the games differ as the chosen seeds' do,
rather than one game played 60 times. Its like without the daily challenge is
``--size 19x33 --level hard``, which the API plays by the newest rules edition, not
2: on the default field both editions draw the same initial lines and the same pieces
from a seed (`domain.random_lines`), so the server does the same work a move. What
the daily code could change is the app's own share of a move, printed as "app CPU
per move without the AI" (the move less the part "hint and computer turns"); the AI's
part is what the positions of the games played cost.
"""

from __future__ import annotations

import argparse
import io
import json
import signal
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

from service.domain import daily
from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.start import LEVELS
from squares_testing import results as _results
from squares_testing.play import play_hints

SIGNED_IN_NAME = "Bench Player"
AI_PART = "hint and computer turns (the AI)"
DAILY_SECRET = "move-cost daily secret #{n}"  # game n's (at least 16 characters)
# the origin of the app's pages as the requests below address it (SERVER_NAME, _PORT)
OWN_ORIGIN = "http://127.0.0.1:5000"
HIGH_LIMITS = {key: "1000000 per minute" for key in
               ("SQUARES_LIMIT_CREATE", "SQUARES_LIMIT_HINT", "SQUARES_LIMIT_MOVE")}

# (part, module path fragments): a function's own time goes to the first part one of
# whose fragments is in its file name (or its built-in's description)
PARTS: list[tuple[str, tuple[str, ...]]] = [
    (AI_PART, ("/domain/ai/", "/domain/pieces.py", "random.py")),
    ("fold and copy (projection)", ("/domain/state.py", "/domain/events.py",
                                    "/domain/event_codec.py", "/domain/upcasters.py",
                                    "/domain/board.py")),
    ("decide (rules)", ("/domain/rules.py", "/domain/players.py", "/domain/")),
    ("commit (sqlite3 COMMIT, fsync)", (":do_commit",)),
    ("database statements (SQLAlchemy, sqlite3)", ("sqlalchemy/", "sqlite3", "/store/")),
    ("rate limiter (limits)", ("/service/http/limits.py", "/limits/")),
    ("headers, request id, access log, metrics", ("/service/http/headers.py",
                                                  "access_log.py", "request_ids.py",
                                                  "/service/ops/", "prometheus_client/",
                                                  "logging/", "uuid.py")),
    ("serialization (marshmallow, webargs, JSON)", ("marshmallow/", "webargs/", "json/",
                                                   "flask_smorest/", "/api/views.py",
                                                   "/api/request_schemas.py",
                                                   "/api/response_schemas.py",
                                                   "/api/schema_fields.py", "/flask/json/",
                                                   "/http/json.py", "orjson")),
    ("service layer (use cases)", ("/service/services/", "/service/api/", "/service/http/",
                                   "hmac.py")),
    ("Flask and werkzeug (routing, request, response)", ("flask/", "werkzeug/")),
]
OTHER = "other (the standard library, called from nothing of the above)"


class App:
    """Requests straight into a WSGI app; each answer's status and JSON (a
    `squares_testing.play.Send`). `moves`: the moves sent so far. `cookie`: a
    signed-in player's session cookie (``name=token``), sent with every request, and
    then our origin with every write, as the player's browser does."""

    def __init__(self, wsgi: Callable[..., Any], cookie: str | None = None) -> None:
        self.wsgi = wsgi
        self.moves = 0
        self.cookie = cookie

    def __call__(self, method: str, path: str, body: Any = None,
                 token: str | None = None) -> tuple[int, Any]:
        self.moves += method == "POST" and path.endswith(("/lines", "/advance"))
        raw = b"" if body is None else json.dumps(body).encode()
        environ = {
            "REQUEST_METHOD": method, "PATH_INFO": path, "QUERY_STRING": "",
            "SERVER_NAME": "127.0.0.1", "SERVER_PORT": "5000", "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1", "wsgi.url_scheme": "http", "wsgi.input": io.BytesIO(raw),
            "wsgi.errors": sys.stderr, "wsgi.multithread": True, "wsgi.multiprocess": True,
            "wsgi.run_once": False, "wsgi.version": (1, 0),
        }
        if body is not None:
            environ.update(CONTENT_TYPE="application/json", CONTENT_LENGTH=str(len(raw)))
        if token is not None:
            environ["HTTP_AUTHORIZATION"] = f"Bearer {token}"
        if self.cookie is not None:
            environ["HTTP_COOKIE"] = self.cookie
            if method != "GET":
                environ["HTTP_ORIGIN"] = OWN_ORIGIN
        status: list[str] = []
        answer = self.wsgi(environ, lambda s, _h, _e=None: status.append(s))
        try:
            data = b"".join(answer)
        finally:
            getattr(answer, "close", lambda: None)()
        return int(status[0].split()[0]), json.loads(data) if data.startswith(b"{") else None


@dataclass(frozen=True)
class Kind:
    """The games a run plays: `level` on a `height` x `width` field from chosen seeds,
    or (`daily`) today's daily challenge under the daily secret `new_secret` sets for
    each game's number (then the level and size are the daily's)."""

    level: str = "easy"
    height: int = 9
    width: int = 13
    daily: bool = False
    new_secret: Callable[[int], None] = lambda _n: None


def play(app: App, games: int, seed: int, kind: Kind = Kind()) -> int:
    """Play `games` whole games the way load.py's clients do; the moves made. A
    signed-in app's games are its player's, under the claimed name."""
    moves = 0
    for n in range(games):
        name = SIGNED_IN_NAME if app.cookie is not None else f"Cost #{n}"
        body: dict[str, Any] = {"player_name": name}
        if kind.daily:
            kind.new_secret(seed + n)
            body["daily"] = True
        else:
            body.update(difficulty=kind.level, height=kind.height, width=kind.width,
                        seed=seed + n)
        status, created = app("POST", "/api/games", body)
        assert status == 201, created
        state = created["state"]
        # the games are the kind asked for (a daily one a practice game, with hints)
        assert (state["daily"], state["practice"], state["hints"], state["difficulty"],
                state["height"], state["width"]) \
            == (kind.daily, True, True, kind.level, kind.height, kind.width), state
        before = app.moves
        play_hints(app, created["game_id"], created["token"], state)
        moves += app.moves - before
    return moves


def part_of(file_and_name: str) -> str:
    for part, fragments in PARTS:
        if any(fragment in file_and_name for fragment in fragments):
            return part
    return OTHER


class Sampler:
    """Samples of this thread's stack every `interval_s` of the process's CPU time;
    `counts`: samples by part (see the module docstring)."""

    def __init__(self, interval_s: float = 0.0005) -> None:
        self.interval_s = interval_s
        self.counts: Counter[str] = Counter()

    def __enter__(self) -> Sampler:
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval_s, self.interval_s)
        return self

    def __exit__(self, *_exc: object) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)
        signal.signal(signal.SIGPROF, signal.SIG_DFL)

    def _sample(self, _signum: int, frame: FrameType | None) -> None:
        while frame is not None:
            code = frame.f_code
            part = part_of(f"{code.co_filename}:{code.co_name}")
            if part != OTHER:
                self.counts[part] += 1
                return
            frame = frame.f_back
        self.counts[OTHER] += 1

    def shares(self) -> dict[str, float]:
        total = sum(self.counts.values()) or 1
        return {part: self.counts[part] / total for part, _ in [*PARTS, (OTHER, ())]}


def signed_in_cookie(flask_app: Any) -> str:
    """A claimed player record and a session of it, as a passkey sign-in leaves them:
    the session cookie (``name=token``)."""
    from service.protocol.signed_in import SESSION_COOKIE

    services = flask_app.extensions["squares"]
    with services.store.unit_of_work() as uow:
        player_id = uow.player_records.claim(SIGNED_IN_NAME, datetime.now(UTC))
    return f"{SESSION_COOKIE}={services.accounts.open_session(player_id).token}"


def daily_secrets(flask_app: Any) -> Callable[[int], None]:
    """Sets the app's daily secret to game n's (`DAILY_SECRET`), on its services."""
    services = flask_app.extensions["squares"]

    def new_secret(n: int) -> None:
        services.core.settings = replace(services.core.settings,
                                         daily_secret=DAILY_SECRET.format(n=n))

    return new_secret


def field_size(text: str) -> tuple[int, int]:
    """``HxW`` (``19x33``): (height, width)."""
    height, sep, width = text.lower().partition("x")
    if not (sep and height.isdigit() and width.isdigit()):
        raise argparse.ArgumentTypeError(f"not a field size such as 19x33: {text!r}")
    return int(height), int(width)


def healthz_cpu_ms(app: App, n: int) -> float:
    started = time.process_time()
    for _ in range(n):
        app("GET", "/healthz")
    return (time.process_time() - started) / n * 1000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=None, help="games per phase (60)")
    parser.add_argument("--signed-in", action="store_true",
                        help="a signed-in player's games (a claimed record, its session "
                             "cookie on every request) instead of guests'")
    parser.add_argument("--size", type=field_size, default=None, metavar="HxW",
                        help="the field, height x width (9x13; the daily's: 19x33)")
    parser.add_argument("--level", choices=LEVELS, default=None,
                        help="the computer's level (easy; the daily's: hard)")
    parser.add_argument("--daily", action="store_true",
                        help="every game today's daily challenge (19x33, hard, rules "
                             "edition 2; a guest's: practice, with hints)")
    _results.add_run_options(parser, quick="6 games per phase")
    args = parser.parse_args(argv)
    if args.daily and (args.size or args.level):
        parser.error("--daily plays the daily's field and level: leave out --size and --level")
    if args.daily and args.signed_in:
        parser.error("a signed-in player's first daily game of a date is their ranked "
                     "attempt, which has no hints: --daily plays guests' games")
    games = args.games or (6 if args.quick else 60)

    from service.http.app import create_app
    from service.ops import lifecycle
    from service.store import migrate

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'squares.db'}"
        migrate(url)
        flask_app = create_app({"DATABASE_URL": url, **HIGH_LIMITS})
        app = App(flask_app.wsgi_app, signed_in_cookie(flask_app) if args.signed_in else None)
        height, width = args.size or (9, 13)
        kind = (Kind(daily.LEVEL, DEFAULT_HEIGHT, DEFAULT_WIDTH, True, daily_secrets(flask_app))
                if args.daily else Kind(args.level or "easy", height, width))
        play(app, 2, seed=900, kind=kind)  # warm up: imports, caches, the first connections
        started = time.process_time()
        moves = play(app, games, seed=1000, kind=kind)
        per_move_ms = (time.process_time() - started) / moves * 1000
        healthz_ms = healthz_cpu_ms(app, 500 if args.quick else 3000)
        with Sampler() as sampler:
            play(app, games, seed=1000 + games, kind=kind)
        lifecycle.close(flask_app)  # its threads (the sweeper) stop first

    shares = sampler.shares()
    parts = sorted(shares.items(), key=lambda item: -item[1])
    own_ms = (1 - shares[AI_PART]) * per_move_ms
    who = "a signed-in player" if args.signed_in else "guests"
    what = (f"daily games of {who} ({kind.height} x {kind.width}, {kind.level}, rules "
            f"edition {daily.RULES_EDITION}, practice)" if kind.daily
            else f"games of {who} ({kind.height} x {kind.width}, {kind.level})")
    print(f"\n== Squares: a move's CPU in the app (in-process WSGI, SQLite, limits on; "
          f"{games} {what}, {moves} moves, each with its hint) ==")
    print(f"{'app CPU per move, its hint included':<52}{per_move_ms:>8.2f} ms")
    print(f"{'app CPU per move without the AI':<52}{own_ms:>8.2f} ms")
    print(f"{'app CPU per bare GET /healthz':<52}{healthz_ms:>8.3f} ms")
    print(f"{'a move : a bare request (app only)':<52}{per_move_ms / healthz_ms:>8.1f} x")
    print(f"\n{'part (by CPU-time samples)':<52}{'ms/move':>8}{'share':>8}")
    figures: _results.Figures = {
        "app CPU per move": _results.figure(per_move_ms, "ms"),
        "app CPU per move without the AI": _results.figure(own_ms, "ms"),
        "app CPU per healthz": _results.figure(healthz_ms, "ms"),
    }
    for part, share in parts:
        print(f"{part:<52}{share * per_move_ms:>8.2f}{share * 100:>7.1f}%")
        figures[f"move part: {part}"] = _results.figure(share * per_move_ms, "ms")
    _results.save("move_cost", figures, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
