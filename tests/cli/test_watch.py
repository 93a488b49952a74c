"""``squares watch``: a game's text board, redrawn as its events arrive."""

from __future__ import annotations

import threading
import time

from service.services import Services
from squares_testing.play import computer_game

from .conftest import Run


def test_once_prints_the_current_board_and_exits(run: Run, services: Services) -> None:
    created = services.play.create_game(player_name="Deniz", difficulty="easy", seed=3,
                                   height=7, width=9)
    result = run("watch", created.game_id, "--once")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert out.startswith(f"game {created.game_id} · version {created.state.version} · round 1")
    assert "\x1b[" not in out  # not a terminal: no clearing, no colours
    assert "Deniz" in out
    assert "result:" not in out


def test_an_unknown_game_is_an_error(run: Run) -> None:
    result = run("watch", "abc", "--once")
    assert result.exit_code == 1
    assert result.stderr == "error: game 'abc' not found\n"
    assert result.stdout == ""
    assert run("watch", "abc").stderr == "error: game 'abc' not found\n"


def test_a_finished_game_prints_its_result_and_exits(run: Run, services: Services) -> None:
    game_id = computer_game(services, seed=11, level2="moderate")
    state = services.queries.get_state(game_id)
    result = run("watch", game_id)
    assert result.exit_code == 0, result.stderr
    first, second = state.seat_info(1).name, state.seat_info(2).name
    outcome = "a draw" if state.winner == 0 else f"{state.seat_info(state.winner).name} wins"
    assert result.stdout.count(f"game {game_id} · version") == 1
    assert "game over" in result.stdout
    assert result.stdout.endswith(
        f"result: {first} {state.scores[0]} : {state.scores[1]} {second}, {outcome}\n")


def test_follows_a_game_as_it_is_played(run: Run, services: Services) -> None:
    created = services.play.create_game(player_name="sim", difficulty="easy", second_level="easy",
                                   mode="computer_vs_computer", seed=7, height=7, width=9)
    game_id = created.game_id
    errors: list[BaseException] = []

    def play() -> None:
        try:
            time.sleep(0.3)
            turns = 0
            while not services.queries.get_state(game_id).over:
                services.play.play_computer_turn(game_id)
                turns += 1
                if turns <= 3:  # the first turns slowly, while the watcher looks
                    time.sleep(0.3)
        except BaseException as exc:  # noqa: BLE001 - reported by the test
            errors.append(exc)

    player = threading.Thread(target=play, daemon=True)
    player.start()
    result = run("watch", game_id, "--interval", "0.05")
    player.join(timeout=60)
    assert errors == []
    assert result.exit_code == 0, result.stderr
    boards = result.stdout.count(f"game {game_id} · version")
    assert boards >= 3  # the first board, some turns, the end
    assert "\n\ngame " in result.stdout  # boards apart by a blank line, not cleared
    final = services.queries.get_state(game_id)
    assert f"· version {final.version} · game over" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1].startswith("result: ")


def test_bad_interval_is_a_usage_error(run: Run) -> None:
    result = run("watch", "abc", "--interval", "0")
    assert result.exit_code == 2
