"""Bad input and an unusable database never print a traceback: one ``error: ...`` line
on stderr, exit 1 (2 for usage). The runner does not catch exceptions, so a traceback
would fail the test itself."""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from click.testing import Result
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from cli.main import error_message
from service.services import Services
from service.store import ADMIN, REQUEST, make_engine
from tests.cli.conftest import Run, make_run
from tests.databases import sqlite_url

INT32_RANGE = "-2147483648<=x<=2147483647"


def assert_one_error(result: Result, exit_code: int, *fragments: str) -> str:
    """The result is exactly one ``error: ...`` line holding `fragments`; that line."""
    assert result.exit_code == exit_code, (result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for fragment in fragments:
        assert fragment in lines[0]
    return lines[0]


# -- options and arguments out of range: usage errors (exit 2) ------------------------


@pytest.mark.parametrize("duration", ["10000000000000d", "100000000d", "999999999999w",
                                      "36501d", "9" * 5000 + "m"])
def test_prune_refuses_a_duration_too_long(run: Run, duration: str) -> None:
    result = run("games", "prune", "--unfinished-older-than", duration, "--yes")
    assert_one_error(result, 2, "--unfinished-older-than", "too long: at most 36500 days")


def test_prune_takes_the_longest_duration(run: Run) -> None:
    result = run("games", "prune", "--unfinished-older-than", "36500d", "--yes")
    assert result.exit_code == 0 and result.stdout == "pruned 0 unfinished games\n"


@pytest.mark.parametrize("score", ["99999999999999999999", "-99999999999999999999",
                                   str(2**31), str(-(2**31) - 1)])
def test_a_high_score_outside_32_bits_is_a_usage_error(run: Run, score: str) -> None:
    result = run("highscores", "add", "X", score)
    assert_one_error(result, 2, "SCORE", INT32_RANGE, "highscores add --help")


@pytest.mark.parametrize("score", [2**31 - 1, -(2**31)])
def test_a_high_score_at_the_32_bit_limits_is_stored(run: Run, services: Services,
                                                     score: int) -> None:
    result = run("highscores", "add", "Edge", str(score))
    assert result.exit_code == 0, result.stderr
    assert score in [e.score for e in services.queries.high_scores(100)]


@pytest.mark.parametrize("args", [
    ["highscores", "remove", "99999999999999999999", "--yes"],
    ["highscores", "remove", "0", "--yes"],
    ["games", "list", "--offset", "99999999999999999999"],
    ["games", "list", "--offset", "-1"],
    ["games", "list", "--limit", "99999999999999999999"],
    ["highscores", "list", "--limit", "-5"],
    ["replay", "abc", "--play", "--delay", "nan"],
    ["replay", "abc", "--play", "--delay", "inf"],
    ["replay", "abc", "--play", "--delay", "1e300"],
    ["replay", "abc", "--play", "--delay", "-1"],
    ["simulate", "--games", "99999999999999999999"],
    ["simulate", "--games", "0"],
    ["serve", "--port", "99999999999999999999"],
    ["serve", "--port", "-1"],
    ["serve", "--workers", "99999999999999999999"],
    ["play", "--seed", "9" * 5000],
], ids=lambda args: " ".join(a[:20] for a in args))
def test_a_number_out_of_range_is_a_usage_error(run: Run, args: list[str]) -> None:
    assert_one_error(run(*args), 2, "Invalid value for", "--help')")


def test_click_usage_errors_are_one_line(run: Run) -> None:
    assert_one_error(run("frobnicate"), 2, "No such command 'frobnicate'")
    assert_one_error(run("games", "lst"), 2, "Did you mean 'list'?")
    assert_one_error(run("games", "prune", "--yes"), 2, "Missing option",
                     "games prune --help")
    assert_one_error(run("highscores", "add", "X"), 2, "Missing argument 'SCORE'")
    assert_one_error(run("--bogus", "games", "list"), 2, "No such option")
    bare = run("games")  # a group without a command still answers with its help
    assert bare.exit_code in (0, 2) and "Usage: " in bare.output and "error:" not in bare.output


def test_numbers_the_domain_checks_are_not_usage_errors(run: Run) -> None:
    """Field sizes and steps are the rules' to refuse (exit 1), also when absurd."""
    huge = "99999999999999999999"
    assert_one_error(run("play", "--name", "A", "--height", huge, "--width", "7"), 1,
                     "invalid_field_size")
    assert_one_error(run("play", "--name", "A", "--height", "-7", "--width", "7"), 1,
                     "invalid_field_size")


def test_a_huge_step_or_seed_is_no_overflow(run: Run, services: Services) -> None:
    created = services.play.create_game(player_name="Ada", seed=1, height=7, width=7)
    game_id = created.game_id
    assert_one_error(run("replay", game_id, "--step", "99999999999999999999"), 1,
                     "step 99999999999999999999 is outside 1..")
    assert_one_error(run("replay", game_id, "--step", "-99999999999999999999"), 1,
                     "is outside 1..")
    result = run("play", "--name", "Big", "--seed", str(10**30), "--height", "7",
                 "--width", "7", input="q\n")
    assert result.exit_code == 0, result.stderr  # any integer seeds a game


@pytest.mark.parametrize("typed", ["9" * 5000 + " 1", "1 " + "9" * 5000, "²³ 1",
                                   "1² 2", "1 9999999999"])
def test_a_typed_move_that_is_no_number_gets_the_help_line(run: Run, typed: str) -> None:
    """int() refuses over 4300 digits, and superscripts, with a ValueError: a typed
    line is answered with the commands, never a traceback (the runner would raise)."""
    result = run("play", "--name", "Ada", "--seed", "1", "--height", "7", "--width", "7",
                 input=f"{typed}\nq\n")
    assert result.exit_code == 0, result.stderr
    assert "? x y: draw the line" in result.stdout


# -- an unusable database or output file (exit 1) ------------------------------------


def test_a_database_below_a_regular_file(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a directory")
    for path in (tmp_path / "file" / "x.db", tmp_path / "file" / "sub" / "x.db"):
        run = make_run(sqlite_url(path))
        for args in (["games", "list"], ["highscores", "add", "X", "1"], ["db", "current"],
                     ["db", "upgrade"], ["verify", "--all"]):
            assert_one_error(run(*args), 1, f"cannot use the database {path}: ",
                             f"{tmp_path / 'file'} is not a directory")


def test_a_database_that_is_a_directory(tmp_path: Path) -> None:
    assert_one_error(make_run(sqlite_url(tmp_path))("games", "list"), 1,
                     f"cannot use the database {tmp_path}: it is a directory")


def test_a_database_where_no_directory_can_be_made() -> None:
    """Nobody (not even root) makes a directory in /proc."""
    run = make_run("sqlite:////proc/squares-test/x.db")
    for args in (["games", "list"], ["db", "upgrade"], ["db", "current"]):
        assert_one_error(run(*args), 1, "cannot use the database /proc/squares-test/x.db: ",
                         "/proc/squares-test")


def test_a_database_file_that_cannot_be_made() -> None:
    assert_one_error(make_run("sqlite:////proc/x.db")("games", "list"), 1,
                     "database error: ", "(/proc/x.db)")  # the words between: SQLite's


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "text.db"
    path.write_text("hello, this is no SQLite file\n" * 100)
    assert_one_error(make_run(sqlite_url(path))("games", "list"), 1, "database error: ")


def test_export_and_backup_to_an_unusable_path(run: Run, services: Services,
                                               tmp_path: Path) -> None:
    game_id = services.play.create_game(player_name="Ada", seed=1, height=7, width=7).game_id
    (tmp_path / "file").write_text("")
    target = tmp_path / "file" / "out"
    assert_one_error(run("games", "export", game_id, "-o", str(target)), 1,
                     f"cannot write {target}: Not a directory")
    assert_one_error(run("db", "backup", str(target)), 1, "backup failed: ", str(target))


# -- malformed and unreachable database URLs -----------------------------------------


@pytest.mark.parametrize("url", [
    "nonsense://x",
    "mysql://user@host/db",
    "sqlite+nodriver:///x.db",
    "sqlite:/x.db",
    ":memory:",
    "postgresql://nobody:secret@127.0.0.1:notaport/x",
    "postgresql://nobody:secret@127.0.0.1:99999/x",
])
def test_a_malformed_database_url_is_a_usage_error(url: str) -> None:
    line = assert_one_error(make_run(url)("games", "list"), 2, "database URL")
    assert "secret" not in line


def test_an_unreachable_postgres_server_is_one_line() -> None:
    for args in (["games", "list"], ["db", "current"], ["highscores", "add", "X", "1"]):
        line = assert_one_error(make_run("postgresql://nobody:secret@127.0.0.1:1/x")(*args),
                                1, "database error: ")
        assert "secret" not in line


def test_postgres_connections_get_a_connect_timeout() -> None:
    """libpq would wait for a server that accepts and never answers without limit: the
    CLI's engines (`ADMIN`) and the server's (`REQUEST`) give up after their patience."""
    for patience in (ADMIN, REQUEST):
        engine = make_engine("postgresql://u@127.0.0.1:1/x", patience)
        given: dict[str, object] = {}

        @event.listens_for(engine, "do_connect")
        def capture(_dialect: object, _record: object, _args: object,
                    params: dict[str, object], given: dict[str, object] = given) -> None:
            given.update(params)
            raise ConnectionRefusedError("not connecting here")

        with pytest.raises((OperationalError, ConnectionRefusedError)):
            engine.connect()
        assert given["connect_timeout"] == patience.connect_s
        engine.dispose()


# -- the last line of defence ----------------------------------------------------------


def test_error_message_for_system_and_overflow_errors() -> None:
    assert error_message(OverflowError("Python int too large to convert to SQLite INTEGER")) \
        == "a number is out of range: Python int too large to convert to SQLite INTEGER"
    missing = FileNotFoundError(errno.ENOENT, "No such file or directory", "/p/dir")
    assert error_message(missing) == "No such file or directory: /p/dir"
    assert error_message(missing, "/p/dir/x.db") == \
        "cannot use the database /p/dir/x.db: No such file or directory: /p/dir"
    assert error_message(missing, "/elsewhere/x.db") == "No such file or directory: /p/dir"
    assert error_message(BrokenPipeError(errno.EPIPE, "Broken pipe")) is None  # click's
    assert error_message(KeyError("a bug")) is None  # a bug keeps its traceback
