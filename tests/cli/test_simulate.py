"""``squares simulate``: computer against computer, in memory or stored."""

from __future__ import annotations

import json

from cli.simulate import Setup, play_in_memory, play_stored
from service.services import Services
from tests.cli.conftest import Run

SMALL = ("--height", "7", "--width", "9")


def test_simulate_in_memory_prints_the_results_table(run: Run, services: Services) -> None:
    result = run("simulate", "--games", "2", "--seat1", "easy", "--seat2", "moderate",
                 "--seed", "11", *SMALL)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["seat", "level", "wins", "draws", "losses", "avg", "score",
                                "avg", "squares"]
    assert lines[2].split()[:2] == ["1", "easy"]
    assert lines[3].split()[:2] == ["2", "moderate"]
    assert lines[4].startswith("2 games on 7 x 9 in ") and "per game" in lines[4]
    assert "simulating" in result.stderr  # the progress bar
    assert services.list_games()[1] == 0  # nothing stored


def test_simulate_json_adds_up_and_is_reproducible(run: Run) -> None:
    args = ("simulate", "--games", "2", "--seat1", "easy", "--seat2", "easy", "--seed", "5",
            *SMALL, "--json")
    data = json.loads(run(*args).stdout)
    assert [g["seed"] for g in data["games"]] == [5, 6]
    assert data["stored"] is False
    seat1, seat2 = data["seats"]
    assert seat1["wins"] + seat1["draws"] + seat1["losses"] == 2
    assert seat1["wins"] == seat2["losses"] and seat1["draws"] == seat2["draws"]
    assert seat1["average_score"] == sum(g["scores"][0] for g in data["games"]) / 2
    again = json.loads(run(*args).stdout)
    assert [g["scores"] for g in again["games"]] == [g["scores"] for g in data["games"]]


def test_simulate_store_keeps_ordinary_games(run: Run, services: Services) -> None:
    data = json.loads(run("simulate", "--games", "2", "--seat1", "easy", "--seat2", "hard",
                          "--seed", "3", *SMALL, "--store", "--json").stdout)
    ids = [g["game_id"] for g in data["games"]]
    assert data["stored"] is True and all(ids)
    for game in data["games"]:
        summary = services.get_summary(game["game_id"])
        assert summary.mode == "computer_vs_computer" and summary.status == "finished"
        assert list(summary.scores) == game["scores"]
    assert run("verify", "--all").stdout == "ok: 2 games verified\n"
    # RULES M3: no high scores from computer games
    assert all(h.game_id is None for h in services.high_scores(100))


def test_in_memory_and_stored_games_are_the_same_games(services: Services) -> None:
    setup = Setup("easy", "moderate", 7, 9)
    for seed in (1, 2):
        memory, _ = play_in_memory(setup, seed)
        stored, game_id = play_stored(services, setup, seed)
        assert memory == stored
        assert services.get_state(game_id) == memory


def test_simulate_refuses_bad_input(run: Run) -> None:
    result = run("simulate", "--seat1", "genius")
    assert result.exit_code == 2 and "genius" in result.stderr
    result = run("simulate", "--games", "0")
    assert result.exit_code == 2
    result = run("simulate", "--games", "1", "--height", "6", "--width", "9")
    assert result.exit_code == 1 and "invalid_field_size" in result.stderr
