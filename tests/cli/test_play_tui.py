"""``squares play`` (issue 14, items 5 and 8): the cursor UI in a pseudo-terminal
(arrow keys, space, Enter, h, q, the web's colours), and ``--resume`` of a quit game
with the token the CLI kept (or ``--token``), in the UI and with typed commands."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable
from pathlib import Path

from cli.tokens import load_tokens, save_token
from cli.tui import Cursor
from service.domain.rules import legal_actions
from service.domain.state import GameState
from service.services import Services
from tests.cli.conftest import Run
from tests.cli.terminal import Terminal

SMALL = ["--height", "7", "--width", "9"]
# 9 x 11 still starts with random lines (a 7 x 9 field has none: rules edition 2)
WITH_SQUARES = ["--height", "9", "--width", "11"]
# What xterm sends for the arrow keys once curses has switched it to keypad mode
# (terminfo's kcuf1, kcub1, kcuu1, kcud1 for xterm-256color).
ARROWS = {(1, 0): b"\x1bOC", (-1, 0): b"\x1bOD", (0, -1): b"\x1bOA", (0, 1): b"\x1bOB"}
BLUE, GREEN = b"\x1b[34m", b"\x1b[32m"


def keys_to(state: GameState, cursor: Cursor, x: int, y: int) -> bytes:
    """The arrow keys that take the UI's cursor to (x, y): rows first, then along."""
    keys = b""
    for _ in range(200):
        if (cursor.x, cursor.y) == (x, y):
            return keys
        step = (0, 1 if y > cursor.y else -1) if cursor.y != y else (1 if x > cursor.x else -1, 0)
        cursor.move(state, *step)
        keys += ARROWS[step]
    raise AssertionError(f"the cursor does not reach ({x}, {y})")


def only_game(services: Services) -> str:
    (summary,), _ = services.queries.list_games()
    return summary.game_id


def test_the_cursor_ui_draws_places_advances_hints_and_quits_then_resumes(
    terminal: Callable[..., Terminal], services: Services, tokens_path: Path
) -> None:
    term = terminal("--name", "Ayla", "--seed", "1", "--difficulty", "easy", *WITH_SQUARES)
    term.wait_for(lambda: tokens_path.exists() and b"Ayla" in term.output)
    game_id = only_game(services)
    assert load_tokens(tokens_path).keys() == {game_id}
    assert stat.S_IMODE(tokens_path.stat().st_mode) == 0o600
    _, state = services.queries.get_game(game_id)
    term.wait_for(lambda: GREEN in term.output)  # the walls, in the web's green

    # Arrow keys to a line that forms a square, space: it is drawn, by the player.
    legal = legal_actions(state).lines
    assert legal, "seed 1 starts with a square to form"
    x, y = legal[0]
    term.send(keys_to(state, Cursor.start(state), x, y))
    term.send(b" ")
    term.wait_for(lambda: services.queries.get_game(game_id)[1].version > state.version)
    after = services.queries.get_game(game_id)[1]
    assert after.line_at(x, y) == 1
    term.wait_for(lambda: BLUE in term.output)

    # Enter: stage 2. h: the hint names a line and puts the cursor on it; space draws it.
    term.send(b"\r")
    term.wait_for(lambda: services.queries.get_game(game_id)[1].stage == 2)
    before = services.queries.get_game(game_id)[1].version
    term.send(b"h")
    term.wait_for(lambda: b"hint: draw (" in term.output)
    term.send(b" ")
    term.wait_for(lambda: services.queries.get_game(game_id)[1].version > before)
    assert services.queries.get_game(game_id)[1].stage2_line_placed

    # q: the game stays stored, unfinished.
    term.send(b"q")
    assert term.close() == 0
    assert b"saved, unfinished" in term.output
    assert f"squares play --resume {game_id}".encode() in term.output

    # --resume with the kept token: Enter goes on to stage 3, in the same UI.
    again = terminal("--resume", game_id)
    again.wait_for(lambda: b"Ayla" in again.output)
    again.send(b"\r")
    again.wait_for(lambda: services.queries.get_game(game_id)[1].stage == 3)
    again.send(b"q")
    assert again.close() == 0


def test_resume_with_typed_commands_and_a_kept_or_given_token(
    run: Run, services: Services, tokens_path: Path
) -> None:
    result = run("play", "--name", "Kerem", "--seed", "3", *SMALL, input="a\nq\n")
    assert result.exit_code == 0, result.output
    game_id = only_game(services)
    token = json.loads(tokens_path.read_text())[game_id]
    _, state = services.queries.get_game(game_id)
    assert state.stage == 2
    x, y = legal_actions(state).lines[0]

    result = run("play", "--resume", game_id, input=f"{x} {y}\na\nq\n")
    assert result.exit_code == 0, result.output
    assert f"game {game_id} resumed" in result.stdout
    assert services.queries.get_game(game_id)[1].stage == 3
    # the typed mode's board carries the axes: the column numbers head it
    assert "   0 1 2 3 4 5 6 7 8\n" in result.stdout

    # Without the kept file: --token; a wrong token or an unknown game: one error line.
    tokens_path.unlink()
    result = run("play", "--resume", game_id, input="q\n")
    assert result.exit_code == 2 and "pass --token" in result.stderr
    result = run("play", "--resume", game_id, "--token", token, input="a\nq\n")
    assert result.exit_code == 0, result.output
    ended = services.queries.get_game(game_id)[1]  # the turn ended; the computer played its own
    assert ended.over or (ended.round, ended.turn) == (2, 1)
    result = run("play", "--resume", game_id, "--token", "not-the-token", input="q\n")
    assert result.exit_code == 1 and result.stderr.startswith("error: ")
    result = run("play", "--resume", "no-such-game", "--token", token, input="q\n")
    assert result.exit_code == 1 and "no game no-such-game" in result.stderr


def test_the_tokens_file_keeps_every_game_and_survives_garbage(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    path.write_text("not json")
    assert load_tokens(path) == {}
    assert save_token("a", "1", path) == path
    assert save_token("b", "2", path) == path
    assert load_tokens(path) == {"a": "1", "b": "2"}
    assert save_token("c", "3", tmp_path / "t.json" / "below-a-file") is None
