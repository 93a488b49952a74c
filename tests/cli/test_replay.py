"""``squares replay``: the board at step k (the fold of the first k events)."""

from __future__ import annotations

import re

import pytest

from cli.replay import describe
from service.domain.fold import fold
from service.domain.render import render
from service.services import Services
from squares_testing.play import computer_game
from tests.cli.conftest import Run
from tests.factories import GameFactory

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_replay_shows_the_end_by_default(run: Run, services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True)
    n = game.state.version
    result = run("replay", game.game_id)
    assert result.exit_code == 0
    out = result.stdout
    assert out.startswith(f"step {n}/{n}\n")
    assert render(game.state) in out  # the assignment's text board and status lines
    assert "Round: " in out and "Stage: " in out and "H.Score : " in out
    last = game.events[-1].event
    assert out.rstrip("\n").endswith(f"event: {describe(last, game.state)}")
    assert "\x1b[" not in out


def test_replay_at_a_step(run: Run, services: Services) -> None:
    game = GameFactory.create(services=services, turns=2, small=True)
    events = [s.event for s in game.events]
    result = run("replay", game.game_id, "--step", "1")
    assert result.exit_code == 0
    assert result.stdout.startswith(f"step 1/{len(events)}\n")
    assert render(fold(events[:1])) in result.stdout
    assert "event: game created: 7 x 9, vs_computer" in result.stdout

    result = run("replay", game.game_id, "--step", "3")
    assert render(fold(events[:3])) in result.stdout


@pytest.mark.parametrize("step", ["0", "999"])
def test_replay_refuses_a_step_outside_the_game(run: Run, services: Services, step: str) -> None:
    game = GameFactory.create(services=services, turns=1, small=True)
    result = run("replay", game.game_id, "--step", step)
    assert result.exit_code == 1
    assert result.stderr == f"error: step {step} is outside 1..{game.state.version}\n"


def test_replay_play_prints_every_step(run: Run, services: Services) -> None:
    game = GameFactory.create(services=services, turns=2, small=True)
    n = game.state.version
    result = run("replay", game.game_id, "--play", "--delay", "0")
    assert result.exit_code == 0
    steps = re.findall(r"^step (\d+)/(\d+)$", result.stdout, flags=re.MULTILINE)
    assert steps == [(str(k), str(n)) for k in range(1, n + 1)]
    assert result.stdout.count("event: ") == n
    assert render(game.state) in result.stdout

    result = run("replay", game.game_id, "--play", "--delay", "0", "--step", str(n - 1))
    assert re.findall(r"^step (\d+)/", result.stdout, flags=re.MULTILINE) == [str(n - 1), str(n)]


def test_replay_colours_with_the_color_flag(run: Run, services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True)
    coloured = run("--color", "replay", game.game_id).stdout
    assert "\x1b[32m" in coloured
    assert ANSI.sub("", coloured) == run("replay", game.game_id).stdout
    assert "\x1b[" not in run("--no-color", "replay", game.game_id).stdout


def test_replay_colours_when_asked(services: Services, db_url: str) -> None:
    from click.testing import CliRunner

    from cli.main import cli

    game = GameFactory.create(services=services, finished=True, small=True)
    result = CliRunner().invoke(cli, ["--database-url", db_url, "replay", game.game_id],
                                color=True)
    assert result.exit_code == 0
    assert "\x1b[34m" in result.stdout or "\x1b[31m" in result.stdout  # human blue / computer red
    assert "\x1b[32m" in result.stdout  # random / ownerless green
    assert ANSI.sub("", result.stdout) == run_plain(db_url, game.game_id)


def run_plain(db_url: str, game_id: str) -> str:
    from click.testing import CliRunner

    from cli.main import cli

    return CliRunner().invoke(cli, ["--database-url", db_url, "replay", game_id]).stdout


def test_describe_names_every_kind_of_event(services: Services) -> None:
    # 9 x 13: smaller fields have no 3-line piece (rules editions 2 and 3)
    game = GameFactory.create(services=services, finished=True, height=9, width=13,
                              player_name="Ayşe")
    texts = [describe(s.event, game.state) for s in game.events]
    assert texts[0].startswith("game created: ")
    assert any(t.startswith("Ayşe draws (") for t in texts)
    assert any(t.startswith("Ayşe advances to stage 2") for t in texts)
    assert any(t.startswith("random 3-line piece") for t in texts)
    assert any(t.startswith("game over: ") for t in texts)
    assert texts[-1].startswith("high scores entered: Ayşe ")


def test_describe_names_the_first_hint(services: Services) -> None:
    from service.domain.events import HintUsed

    game = GameFactory.create(services=services, height=9, width=11, player_name="Ayşe")
    assert describe(HintUsed(1), game.state) == (
        "Ayşe asks for a hint: the game is assisted, unranked")


def test_describe_shows_the_computers_reasons(services: Services) -> None:
    game_id = computer_game(services, seed=7, level2="moderate")
    state = services.queries.get_state(game_id)
    texts = [describe(s.event, state) for s in services.queries.events_of(game_id)]
    assert any(t.startswith("Computer 1 (easy) plans stage 1: BestPoint : ")
               for t in texts)
    assert any("ends the turn; round 1, Computer 2 (moderate) to move" in t for t in texts)
