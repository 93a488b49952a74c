"""``squares play --online`` / ``--join`` / ``--resume`` of an online game: the invite
link, claiming the second seat, each seat playing with its own kept token, waiting
(polling the database) while the other seat moves, and one ``error: ...`` line for a
bad invitation. The other player moves through the service layer, as the web
server would, on the same SQLite file."""

from __future__ import annotations

import os
import re
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cli.invites import parse_join
from cli.tokens import load_invite_code, load_seat_tokens, load_tokens, save_token
from service.domain.commands import Advance, ClaimSeat, Command, NewGame, PlaceLine
from service.domain.fold import apply_all, fold
from service.domain.rules import decide, legal_actions
from service.domain.start import start_game
from service.domain.state import GameState
from service.services import CreatedGame, Services
from squares_testing.greedy import Greedy
from tests.cli.conftest import SQUARES, Run
from tests.cli.terminal import Terminal
from tests.cli.test_bad_input import assert_one_error

SEED = 11
SMALL = ["--height", "7", "--width", "9"]
INVITE = re.compile(r"^  (?P<url>(?P<base>\S+)/join/(?P<id>[\w-]+)#code=(?P<code>[\w-]+))$",
                    re.MULTILINE)


class Player:
    """``squares play --plain`` in a real process: lines typed through a pipe (kept
    open, so it waits as a person at a keyboard would), its output read as it comes."""

    def __init__(self, db_url: str, tokens_path: Path, *args: str) -> None:
        env = {**os.environ, "SQUARES_TOKENS_FILE": str(tokens_path)}
        env.pop("DATABASE_URL", None)
        self.process = subprocess.Popen(
            [str(SQUARES), "--database-url", db_url, "play", "--plain", *args],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self._out = b""
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        while chunk := os.read(self.process.stdout.fileno(), 65536):
            self._out += chunk

    @property
    def output(self) -> str:
        return self._out.decode("utf-8", errors="replace")

    def wait_for(self, text: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            assert self.process.poll() is None or text in self.output, self.transcript()
            assert time.monotonic() < deadline, f"no {text!r} in:\n{self.transcript()}"
            time.sleep(0.02)

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def finish(self, timeout: float = 10.0) -> int:
        """Close its input (the end of input quits) and wait for the exit code."""
        assert self.process.stdin is not None
        if not self.process.stdin.closed:
            self.process.stdin.close()
        code = self.process.wait(timeout=timeout)
        self._reader.join(timeout=5)
        return code

    def transcript(self) -> str:
        return self.output[-3000:]


@pytest.fixture
def player(db_url: str, tokens_path: Path) -> Iterator[Callable[..., Player]]:
    started: list[Player] = []

    def start(*args: str) -> Player:
        started.append(Player(db_url, tokens_path, *args))
        return started[-1]

    yield start
    for p in started:
        if p.process.poll() is None:
            p.process.kill()
            p.finish()


def online_game(services: Services, name: str = "Ann", seed: int = SEED) -> CreatedGame:
    return services.play.create_game(player_name=name, mode="online", seed=seed, height=7, width=9)


def link(created: CreatedGame, base: str = "http://127.0.0.1:5000") -> str:
    assert created.invite is not None
    return f"{base}/join/{created.game_id}#code={created.invite.code}"


def play_a_turn(services: Services, game_id: str, token: str) -> list[str]:
    """The seat to move: advance, one line in stage 2, advance twice (the turn ends);
    what the CLI prints for those moves."""
    state = services.queries.get_state(game_id)
    name = state.seat_info(state.turn).name
    services.play.advance(game_id, token)
    x, y = legal_actions(services.queries.get_state(game_id)).lines[0]
    services.play.place_line(game_id, token, x, y)
    services.play.advance(game_id, token)
    services.play.advance(game_id, token)
    return [f"{name} advances to stage 2", f"{name} draws ({x}, {y}) in stage 2",
            f"{name} advances to stage 3", f"{name} ends the turn"]


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


# -- joining, then waiting for the other seat ---------------------------------------------


def test_join_claims_seat_two_and_shows_the_opponents_moves_as_they_come(
    player: Callable[..., Player], services: Services, tokens_path: Path
) -> None:
    created = online_game(services)
    game_id = created.game_id
    bob = player("--join", link(created), "--name", "Bob")
    bob.wait_for("Waiting for Ann…")
    state = services.queries.get_state(game_id)
    assert state.open_seat is None and state.seat_info(2).name == "Bob"
    assert load_seat_tokens(game_id, tokens_path).keys() == {2}

    bob.type("a")  # not Bob's turn: refused by the CLI, nothing stored
    bob.wait_for("not your turn: waiting for Ann")
    assert services.queries.get_state(game_id).version == state.version

    seen = play_a_turn(services, game_id, created.token)
    for line in seen:
        bob.wait_for(line)
    bob.wait_for("[stage 1: ")  # Bob's turn: the board, then his prompt
    after_wait = bob.output.split("Waiting for Ann…")[1]
    assert after_wait.index(seen[0]) < after_wait.index(seen[-1]) < after_wait.index("Round: 1")

    bob.type("a")  # the kept seat-2 token moves Bob
    bob.wait_for("Bob advances to stage 2")
    assert (services.queries.get_state(game_id).turn, services.queries.get_state(game_id).stage) == (2, 2)
    bob.type("q")
    assert bob.finish() == 0
    assert f"squares play --resume {game_id}" in bob.output


def online_script(seed: int) -> tuple[list[Command], GameState]:
    """A whole 7 x 9 online game, Ann against Bob, both greedy: the moves, the end."""
    state = fold(start_game(NewGame(seed=seed, player_name="Ann", mode="online",
                                    height=7, width=9)))
    state = apply_all(state, decide(state, ClaimSeat(2, "Bob")))
    moves: list[Command] = []
    greedy = Greedy()
    while not state.over:
        command = greedy.next_command(state)
        moves.append(command)
        state = apply_all(state, decide(state, command))
    return moves, state


def test_the_waiting_loop_ends_when_the_game_is_over(
    player: Callable[..., Player], services: Services, tokens_path: Path
) -> None:
    moves, final = online_script(SEED)
    last = moves[-1].seat
    cut = len(moves)
    while cut > 0 and moves[cut - 1].seat == last:
        cut -= 1
    # Everything up to the last seat's last turn through the services; then the CLI
    # goes on as the other seat, waits, and sees the game end.
    created = online_game(services)
    game_id = created.game_id
    claimed = services.play.claim_seat(game_id, created.invite.code, "Bob")  # type: ignore[union-attr]
    tokens = {1: created.token, 2: claimed.token}
    me = 3 - last

    def make(command: Command) -> None:
        if isinstance(command, PlaceLine):
            services.play.place_line(game_id, tokens[command.seat], command.x, command.y)
        else:
            assert isinstance(command, Advance)
            services.play.advance(game_id, tokens[command.seat])

    for command in moves[:cut]:
        make(command)
    save_token(game_id, tokens[me], tokens_path, seat=me)
    name = ("Ann", "Bob")[last - 1]
    cli = player("--resume", game_id)
    cli.wait_for(f"Waiting for {name}…")
    for command in moves[cut:]:
        make(command)
    assert cli.process.wait(timeout=10) == 0, cli.transcript()  # by itself, input open
    assert cli.finish() == 0
    ended = services.queries.get_state(game_id)
    assert ended.over and ended.scores == final.scores
    out = cli.output.split(f"Waiting for {name}…")[1]
    assert "game over: " in out and "Game over: " in out
    assert f"result: Ann {final.scores[0]} : {final.scores[1]} Bob" in out
    assert f"your score: {final.scores[me - 1]}" in out


# -- resuming as a seat --------------------------------------------------------------------


def test_resume_goes_on_as_the_seat_of_the_kept_token(
    run: Run, services: Services, tokens_path: Path
) -> None:
    created = online_game(services)
    game_id = created.game_id
    result = run("play", "--join", link(created), "--name", "Bob", input="q\n")
    assert result.exit_code == 0, result.output
    assert "joined online game" in result.stdout and "Waiting for Ann…" in result.stdout
    play_a_turn(services, game_id, created.token)

    result = run("play", "--resume", game_id, input="a\nq\n")
    assert result.exit_code == 0, result.output
    assert f"online game {game_id}: you are seat 2, Bob" in result.stdout
    assert "Bob advances to stage 2" in result.stdout
    assert services.queries.get_state(game_id).stage == 2

    # Both seats kept here (two terminals on one machine): --seat picks one.
    save_token(game_id, created.token, tokens_path, seat=1)
    assert load_seat_tokens(game_id, tokens_path).keys() == {1, 2}
    result = run("play", "--resume", game_id, input="q\n")
    assert_one_error(result, 2, "both seats of game", "pass --seat 1 or --seat 2")
    result = run("play", "--resume", game_id, "--seat", "1", input="q\n")
    assert result.exit_code == 0, result.output
    assert "you are seat 1, Ann" in result.stdout and "Waiting for Bob…" in result.stdout


def test_resume_with_a_given_token_works_out_its_seat(
    run: Run, services: Services
) -> None:
    created = online_game(services)
    game_id = created.game_id
    assert services.play.check_token(game_id, created.token) == (1,)  # the seat is still open
    claimed = services.play.claim_seat(game_id, created.invite.code, "Bob")  # type: ignore[union-attr]
    version = services.queries.get_state(game_id).version
    assert services.play.check_token(game_id, created.token) == (1,)
    assert services.play.check_token(game_id, claimed.token) == (2,)
    assert services.queries.get_state(game_id).version == version  # asking stores nothing

    result = run("play", "--resume", game_id, "--token", claimed.token, input="q\n")
    assert result.exit_code == 0, result.output
    assert "you are seat 2, Bob" in result.stdout and "Waiting for Ann…" in result.stdout
    result = run("play", "--resume", game_id, "--token", created.token, input="a\nq\n")
    assert result.exit_code == 0, result.output
    assert "you are seat 1, Ann" in result.stdout and "Ann advances to stage 2" in result.stdout
    result = run("play", "--resume", game_id, "--token", "not-a-token", input="q\n")
    assert_one_error(result, 1, f"game {game_id}: wrong token")


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


# -- the cursor UI waits too -------------------------------------------------------------


def test_the_cursor_ui_waits_for_the_other_seat_then_plays(
    services: Services, tokens_path: Path, terminal: Callable[..., Terminal]
) -> None:
    created = online_game(services)
    game_id = created.game_id
    claimed = services.play.claim_seat(game_id, created.invite.code, "Bob")  # type: ignore[union-attr]
    save_token(game_id, claimed.token, tokens_path, seat=2)
    term = terminal("--resume", game_id)
    term.wait_for(lambda: "Waiting for Ann…".encode() in term.output, timeout=10)
    term.send(b"\r")  # Enter while waiting: refused in the UI, nothing stored
    term.wait_for(lambda: b"not your turn: waiting for Ann" in term.output, timeout=10)
    play_a_turn(services, game_id, created.token)
    term.wait_for(lambda: b"Ann ends the turn" in term.output, timeout=10)
    mark = len(term.output)
    term.send(b"\r")  # now Enter advances Bob
    term.wait_for(lambda: services.queries.get_state(game_id).stage == 2, timeout=10)
    term.wait_for(lambda: b"Bob advances to stage 2" in term.output[mark:], timeout=10)
    term.send(b"q")
    assert term.close() == 0
    assert services.queries.get_state(game_id).turn == 2


def test_in_a_terminal_the_creator_waits_with_the_link_on_screen_then_the_ui_starts(
    services: Services, terminal: Callable[..., Terminal]
) -> None:
    term = terminal("--online", "--name", "Ann", "--seed", str(SEED), *SMALL)
    term.wait_for(lambda: "Waiting for a friend to join…".encode() in term.output,
                  timeout=10)
    match = INVITE.search(term.output.decode().replace("\r\n", "\n"))
    assert match is not None, term.output
    assert b"Squares \xe2\x80\x94" not in term.output  # no cursor UI yet
    services.play.claim_seat(match["id"], match["code"], "Bob")
    term.wait_for(lambda: "Squares — Ann vs Bob".encode() in term.output, timeout=10)
    term.send(b"q")
    assert term.close() == 0
    assert f"squares play --resume {match['id']}".encode() in term.output
