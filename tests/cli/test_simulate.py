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
    assert lines[2].split()[:2] == ["1", "easy/moderate"]
    assert lines[3].split()[:2] == ["2", "easy/moderate"]
    assert lines[4].startswith("4 games on 7 x 9 in ") and "per game" in lines[4]
    assert lines[4].endswith("each seed twice with the seats swapped")
    assert lines[6].split() == ["level", "games", "wins", "draws", "losses", "win", "rate",
                                "95%", "CI", "avg", "margin"]
    assert [row.split()[0] for row in lines[8:10]] == ["easy", "moderate"]
    assert lines[10].startswith("seat 1 advantage: seat 1 won ")
    assert "simulating" in result.stderr  # the progress bar
    assert services.queries.list_games()[1] == 0  # nothing stored


def test_simulate_swaps_seats_and_reports_levels_with_intervals(run: Run) -> None:
    args = ("simulate", "--games", "3", "--seat1", "easy", "--seat2", "hard", "--seed", "8",
            *SMALL, "--json")
    data = json.loads(run(*args).stdout)
    assert data["swapped"] is True
    games = data["games"]
    assert [(g["seed"], g["levels"]) for g in games] == [
        (seed, levels) for seed in (8, 9, 10) for levels in (["easy", "hard"], ["hard", "easy"])]
    easy, hard = data["levels"]
    assert (easy["level"], hard["level"]) == ("easy", "hard")
    assert easy["games"] == hard["games"] == 6
    assert easy["wins"] == hard["losses"] and easy["draws"] == hard["draws"]
    assert easy["average_margin"] == -hard["average_margin"]
    for level in (easy, hard):
        assert 0 <= level["ci_low"] <= level["win_rate"] <= level["ci_high"] <= 1
    margin = sum((g["scores"][0] - g["scores"][1]) * (1 if g["levels"][0] == "hard" else -1)
                 for g in games) / 6
    assert hard["average_margin"] == round(margin, 2)
    advantage = data["seat1_advantage"]
    assert advantage["games"] == 6
    assert advantage["seat1_wins"] == sum(g["winner"] == 1 for g in games)
    # --jobs: the same games on two processes; --no-swap: each seed once
    parallel = json.loads(run(*args, "--jobs", "2").stdout)
    assert [g["scores"] for g in parallel["games"]] == [g["scores"] for g in games]
    once = json.loads(run(*args, "--no-swap").stdout)
    assert once["swapped"] is False and [g["seed"] for g in once["games"]] == [8, 9, 10]


def test_wilson_interval() -> None:
    from cli.tally import wilson

    low, high = wilson(130, 200)
    assert (round(low, 3), round(high, 3)) == (0.582, 0.713)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0


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
        summary = services.queries.get_summary(game["game_id"])
        assert summary.mode == "computer_vs_computer" and summary.status == "finished"
        assert list(summary.scores) == game["scores"]
    assert len(ids) == 4  # each seed with the seats swapped
    assert run("verify", "--all").stdout == "ok: 4 games verified\n"
    # RULES M3: no high scores from computer games
    assert all(h.game_id is None for h in services.queries.high_scores(100))


def test_in_memory_and_stored_games_are_the_same_games(services: Services) -> None:
    setup = Setup("easy", "moderate", 7, 9)
    for seed in (1, 2):
        memory, _ = play_in_memory(setup, seed)
        stored, game_id = play_stored(services, setup, seed)
        assert memory == stored
        assert services.queries.get_state(game_id) == memory


def test_simulate_refuses_bad_input(run: Run) -> None:
    result = run("simulate", "--seat1", "genius")
    assert result.exit_code == 2 and "genius" in result.stderr
    result = run("simulate", "--games", "0")
    assert result.exit_code == 2
    result = run("simulate", "--games", "1", "--height", "6", "--width", "9")
    assert result.exit_code == 1 and "invalid_field_size" in result.stderr
    result = run("simulate", "--games", "1", "--store", "--jobs", "2")
    assert result.exit_code == 2 and "--jobs" in result.stderr


def test_simulate_plays_the_reference_player_and_reports_the_luck_share(run: Run) -> None:
    result = run("simulate", "--games", "1", "--seat1", "reference", "--seat2", "easy",
                 "--height", "7", "--width", "9", "--seed", "3", "--luck", "--json")
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert {level["level"] for level in doc["levels"]} == {"reference", "easy"}
    games = doc["games"]
    assert len(games) == 2 and all(len(g["luck"]) == 2 for g in games)
    share = doc["luck"]
    assert share["games"] == 2 and 0 <= share["r_squared"] <= 1
    for refused in (["--store"], ["--store", "--luck"]):
        result = run("simulate", "--games", "1", "--seat1", "reference", *refused)
        assert result.exit_code == 2 and "in-memory" in result.stderr


def test_luck_share_is_the_least_squares_fit_of_the_margin_on_the_luck_difference() -> None:
    from cli.tally import GameResult, luck_share

    def game(margin: int, luck: int) -> GameResult:
        return GameResult(0, ("easy", "easy"), None, (margin, 0), (0, 0), 1, 0.0, (luck, 0))

    exact = luck_share([game(2 * x + 1, x) for x in range(5)])
    assert exact is not None and exact.r_squared == 1.0 and exact.slope == 2.0
    unrelated = luck_share([game(m, x) for m, x in ((1, 0), (-1, 0), (1, 1), (-1, 1))])
    assert unrelated is not None and unrelated.r_squared == 0.0
    assert luck_share([game(1, 1)]) is None
