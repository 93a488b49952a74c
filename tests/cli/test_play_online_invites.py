"""``squares play --online`` / ``--join``: the invite link (parsed, printed with its
expiry and its base URL, from the setting or the option, and its code claiming the
second seat), and one ``error: ...`` line, no traceback, for a bad invitation, a bad
name or a bad use of the options. The other player moves through the service layer,
as the web server would, on the same SQLite file."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from cli.invites import parse_join
from cli.tokens import load_invite_code, load_seat_tokens, load_tokens
from service.services import Services
from tests.cli.conftest import Run
from tests.cli.online_games import INVITE, SEED, SMALL, link, online_game
from tests.cli.test_bad_input import assert_one_error

# -- the invite link ---------------------------------------------------------------------


@pytest.mark.parametrize(("given", "expected"), [
    ("http://127.0.0.1:5000/join/abc123#code=x-Y_z", ("abc123", "x-Y_z")),
    ("https://squares.example/games/join/abc123/#code=k", ("abc123", "k")),
    ("  abc123 ", ("abc123", None)),
    ("http://h/join/abc123", ("abc123", None)),
])
def test_parse_join(given: str, expected: tuple[str, str | None]) -> None:
    assert parse_join(given) == expected


def test_online_prints_an_invite_link_whose_code_claims_the_seat(
    run: Run, services: Services, tokens_path: Path
) -> None:
    result = run("play", "--online", "--name", "Ann", "--seed", str(SEED), *SMALL,
                 "--base-url", "http://squares.example:8000/", input="q\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    match = INVITE.search(out)
    assert match is not None, out
    assert match["base"] == "http://squares.example:8000"
    game_id, code = match["id"], match["code"]
    assert re.search(r"the invitation expires at \d{4}-\d\d-\d\d \d\d:\d\d UTC, in 24 h", out)
    assert "Waiting for a friend to join…" in out  # the creator waits; q quits
    assert f"saved, unfinished; go on with: squares play --resume {game_id}" in out

    # The kept token is seat 1's (the invitation code next to it), and it moves seat 1
    # once the printed code gave the second seat to a friend.
    tokens = load_seat_tokens(game_id, tokens_path)
    assert list(tokens) == [1] and load_invite_code(game_id, tokens_path) == code
    assert game_id not in load_tokens(tokens_path)  # not as a token of every seat
    claimed = services.play.claim_seat(game_id, code, "Bob")
    assert claimed.seat == 2 and claimed.state.seat_info(2).name == "Bob"
    assert services.play.advance(game_id, tokens[1]).state.stage == 2
    assert services.queries.get_summary(game_id).mode == "online"


# -- bad invitations: one line, no traceback ------------------------------------------------


def test_a_wrong_code_is_refused(run: Run, services: Services) -> None:
    created = online_game(services)
    result = run("play", "--join", created.game_id, "--code", "not-the-code", "--name", "Bob")
    assert_one_error(result, 1, "wrong invitation code")
    assert services.queries.get_state(created.game_id).open_seat == 2


def test_a_used_code_is_refused(run: Run, services: Services) -> None:
    created = online_game(services)
    assert created.invite is not None
    services.play.claim_seat(created.game_id, created.invite.code, "Cem")
    result = run("play", "--join", link(created), "--name", "Bob")
    assert_one_error(result, 1, "this invitation has been used already")
    assert services.queries.get_state(created.game_id).seat_info(2).name == "Cem"


def test_an_expired_code_is_refused(run: Run, services: Services,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SQUARES_INVITE_TTL_SECONDS", "1")
    result = run("play", "--online", "--name", "Ann", *SMALL, input="q\n")
    assert result.exit_code == 0, result.output
    assert "in 1 s" in result.stdout or "in 0 s" in result.stdout
    match = INVITE.search(result.stdout)
    assert match is not None
    time.sleep(1.1)
    result = run("play", "--join", match["url"], "--name", "Bob")
    assert_one_error(result, 1, "this invitation has expired")
    assert services.queries.get_state(match["id"]).open_seat == 2


def test_joining_a_game_that_is_not_online_or_not_there(run: Run, services: Services) -> None:
    vs = services.play.create_game(player_name="Ann", seed=SEED, height=7, width=9)
    result = run("play", "--join", vs.game_id, "--code", "x", "--name", "Bob")
    assert_one_error(result, 1, f"game {vs.game_id} is not an online game")
    result = run("play", "--join", "no-such-game", "--code", "x", "--name", "Bob")
    assert_one_error(result, 1, "no game no-such-game")


def test_a_bad_name_is_refused_and_the_seat_stays_open(run: Run, services: Services) -> None:
    created = online_game(services)
    result = run("play", "--join", link(created), "--name", "   ")
    assert_one_error(result, 1, "invalid_name")
    assert services.queries.get_state(created.game_id).open_seat == 2
    result = run("play", "--online", "--name", "x" * 100, *SMALL)
    assert_one_error(result, 1, "invalid_name")


@pytest.mark.parametrize(("args", "fragment"), [
    (["--join", "http://127.0.0.1:5000/join/abc"], "no invitation code"),
    (["--join", "abc"], "no invitation code"),
    (["--join", "http://127.0.0.1:5000/games"], "neither an invite link"),
    (["--join", "a b"], "neither an invite link"),
    (["--online", "--join", "abc#code=x"], "give one of them"),
    (["--online", "--resume", "abc"], "without --online or --join"),
    (["--online", "--code", "x"], "--code goes with --join"),
    (["--online", "--seat", "2"], "--seat goes with --resume"),
    (["--online", "--base-url", "ftp://x"], "not an http(s) address"),
])
def test_usage_errors(run: Run, args: list[str], fragment: str) -> None:
    result = run("play", *args, "--name", "Bob", input="q\n")
    assert_one_error(result, 2, fragment)


def test_the_invite_link_names_the_base_url_setting_unless_the_option_is_given(
    run: Run, services: Services, tokens_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def base(*args: str) -> str:
        result = run("play", "--online", "--name", "Ann", *SMALL, *args, input="q\n")
        match = INVITE.search(result.stdout)
        assert match is not None, (result.stdout, result.stderr)
        return match["base"]

    monkeypatch.delenv("SQUARES_BASE_URL", raising=False)
    assert base() == "http://127.0.0.1:5000"
    monkeypatch.setenv("SQUARES_BASE_URL", "https://squares.example/play/")
    assert base() == "https://squares.example/play"
    assert base("--base-url", "http://other.example:8000") == "http://other.example:8000"
    monkeypatch.setenv("SQUARES_BASE_URL", "ftp://x")
    assert_one_error(run("play", "--online", "--name", "Ann", input="q\n"), 2,
                     "SQUARES_BASE_URL='ftp://x'", "http(s) address")
