"""``squares play``: a game in the terminal, driven through stdin."""

from __future__ import annotations

import json
import subprocess

import pytest

from cli.session import Place, Simple, parse_input
from service.domain import ai
from service.domain.commands import NewGame, PlaceLine
from service.domain.fold import apply_all, fold
from service.domain.players import play_turn
from service.domain.rules import decide
from service.domain.start import start_game
from service.domain.state import GameState
from service.services import Services
from squares_testing.greedy import Greedy
from tests.cli.conftest import SQUARES, Run

SEED = 21
SMALL = ["--height", "7", "--width", "9"]


def scripted_game(seed: int, difficulty: str) -> tuple[list[str], GameState]:
    """What to type to play a whole 7 x 9 game with the greedy strategy, and the
    final state (the computer plays as the service layer lets it: whole turns)."""
    state = fold(start_game(NewGame(seed=seed, player_name="Ayşe", difficulty=difficulty,
                                    height=7, width=9)))
    typed: list[str] = []
    greedy = Greedy()
    while not state.over:
        if state.turn == 2:
            state = apply_all(state, play_turn(state, ai.strategy_for(difficulty)))
            continue
        command = greedy.next_command(state)
        typed.append(f"{command.x} {command.y}" if isinstance(command, PlaceLine) else "a")
        state = apply_all(state, decide(state, command))
    return typed, state


@pytest.mark.parametrize(("line", "expected"), [
    ("3 4", Place(3, 4)), (" 3,4 ", Place(3, 4)), ("3, 4", Place(3, 4)),
    ("", Simple("advance")), ("a", Simple("advance")), ("A\n", Simple("advance")),
    ("h", Simple("hint")), ("q", Simple("quit")), ("?", Simple("help")),
    ("x", None), ("3", None), ("1 2 3", None),
])
def test_parse_input(line: str, expected: object) -> None:
    assert parse_input(line) == expected


def test_RULES_a_whole_practice_game_never_enters_the_high_score_table(
        run: Run, services: Services) -> None:
    """A chosen seed makes a practice game: played to its end, it shows the table but
    never enters it."""
    typed, final = scripted_game(SEED, "easy")
    result = run("play", "--name", "Ayşe", "--difficulty", "easy", "--seed", str(SEED), *SMALL,
                 input="\n".join(["h", "0 0", "nonsense", *typed]) + "\n")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "hint: " in out
    assert "refused: (0, 0) is a dot, not a line" in out
    assert "? x y: draw the line" in out
    assert "Computer draws (" in out  # the computer's lines are shown
    assert "Game over: " in out
    assert f"your score: {final.scores[0]}" in out
    # the table of its field size follows (RULES E1): empty on 7 x 9 but for nothing
    assert "a hint was used: this game enters no high score table" in out  # the "h"
    assert out.split("your score:")[1].endswith(
        "this game enters no high score table (a hint was used)\n"
        "the vs_computer table of 7 x 9 is empty\n")

    (summary,), total = services.queries.list_games()
    assert total == 1 and summary.status == "finished" and summary.player_name == "Ayşe"
    assert list(summary.scores) == final.scores and summary.ranked is False
    assert [h for h in services.queries.high_scores(100, height=7, width=9)
            if h.game_id == summary.game_id] == []


def test_quit_and_end_of_input_leave_the_game_stored(run: Run, services: Services) -> None:
    result = run("play", "--seed", str(SEED), *SMALL, input="a\nq\n")
    assert result.exit_code == 0
    assert "saved, unfinished" in result.stdout
    result = run("play", "--seed", str(SEED), *SMALL, input="a\n")  # no q: end of input
    assert result.exit_code == 0 and "saved, unfinished" in result.stdout
    found, total = services.queries.list_games()
    assert total == 2
    assert all(g.status == "active" and g.stage == 2 and g.player_name == "Player"
               for g in found)


def test_play_refuses_bad_options(run: Run) -> None:
    assert run("play", "--difficulty", "genius").exit_code == 2
    result = run("play", "--name", "  ", input="q\n")
    assert result.exit_code == 1 and "invalid_name" in result.stderr


def test_play_in_a_real_process_with_piped_stdin(db_url: str, services: Services) -> None:
    completed = subprocess.run(
        [str(SQUARES), "--database-url", db_url, "play", "--name", "Deniz", "--seed", "5",
         "--difficulty", "easy", *SMALL],
        input="h\na\n1 0\nq\n", capture_output=True, text=True, timeout=60, check=False,
    )
    assert completed.returncode == 0, completed.stderr
    assert "hint: " in completed.stdout
    assert "Deniz advances to stage 2" in completed.stdout
    assert "saved, unfinished" in completed.stdout
    listed = subprocess.run(
        [str(SQUARES), "--database-url", db_url, "games", "list", "--json"],
        capture_output=True, text=True, timeout=60, check=True,
    )
    (game,) = json.loads(listed.stdout)["games"]
    assert game["player_name"] == "Deniz" and game["status"] == "active"
    assert services.queries.get_state(game["game_id"]).stage >= 2
