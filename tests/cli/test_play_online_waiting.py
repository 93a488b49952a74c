"""``squares play --join`` / ``--resume`` / ``--online`` waiting (polling the database)
while the other seat moves: the plain CLI, in a real process whose input stays open,
shows the other seat's moves as they come and stops waiting when the game is over;
the cursor UI waits too, and the creator waits with the invite link on screen until a
friend joins. The other player moves through the service layer, as the web server
would, on the same SQLite file."""

from __future__ import annotations

import os
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from cli.tokens import load_seat_tokens, save_token
from service.domain.commands import Advance, ClaimSeat, Command, NewGame, PlaceLine
from service.domain.fold import apply_all, fold
from service.domain.rules import decide
from service.domain.start import start_game
from service.domain.state import GameState
from service.services import Services
from squares_testing.greedy import Greedy
from tests.cli.conftest import SQUARES
from tests.cli.online_games import INVITE, SEED, SMALL, link, online_game, play_a_turn
from tests.cli.terminal import Terminal


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
