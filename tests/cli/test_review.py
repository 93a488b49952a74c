"""``squares review`` (issue 24): catching the reviews up, ``--rebuild``, the lease
another analyst holds, ``--follow``; and the review in ``squares games show``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from datetime import timedelta

from service.projections.analyst import NAME
from service.projections.catch_up import reviews_pending
from service.services import Services
from service.store import utcnow
from squares_testing.play import computer_game
from tests.cli.conftest import SQUARES, Run


def _ended_games(services: Services, *seeds: int) -> list[str]:
    return [computer_game(services, seed, level1="easy", level2="easy") for seed in seeds]


def _review(run: Run, *args: str) -> tuple[str, str]:
    result = run("review", *args)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout, result.stderr


def test_review_all_reviews_each_ended_game_once(run: Run, services: Services) -> None:
    ended = _ended_games(services, 1, 2)
    running = services.play.create_game(player_name="Ada", height=7, width=9, seed=3).game_id
    assert reviews_pending(services.store) == 2
    out, _err = _review(run, "--all")
    assert out == "reviewed 2 games\n"
    assert reviews_pending(services.store) == 0
    for game_id in ended:
        assert services.reviews.analysis(game_id).status == "ready"
    assert services.reviews.accuracies([*ended, running]).keys() == set(ended)
    assert _review(run, "--all")[0] == "reviewed 0 games\n"
    assert _review(run)[0] == "reviewed 0 games\n"  # --all is the default
    [later] = _ended_games(services, 4)
    assert _review(run)[0] == "reviewed 1 game\n"
    assert services.reviews.analysis(later).status == "ready"


def test_rebuild_forgets_every_review_and_reviews_them_again(
        run: Run, services: Services) -> None:
    ended = _ended_games(services, 1, 2)
    _review(run, "--all")
    first = {g: services.reviews.analysis(g).review for g in ended}
    out, err = _review(run, "--rebuild")
    assert "forgot 2 reviews; reviewing every ended game again" in err
    assert out == "reviewed 2 games\n"
    for game_id in ended:
        again = services.reviews.analysis(game_id).review
        assert again is not None and first[game_id] is not None
        assert again.body == first[game_id].body  # the same figures, computed anew
        assert again.accuracy == first[game_id].accuracy
    assert _review(run, "--all")[0] == "reviewed 0 games\n"
    services.admin.delete_game(ended[0])  # its review goes with it
    out, err = _review(run, "--rebuild", "--all")
    assert "forgot 1 review;" in err
    assert out == "reviewed 1 game\n"


def test_rebuild_on_an_empty_database(run: Run) -> None:
    out, err = _review(run, "--rebuild")
    assert "forgot 0 reviews" in err and out == "reviewed 0 games\n"


def test_follow_runs_alone(run: Run, services: Services) -> None:
    _ended_games(services, 1)
    for extra in (["--all"], ["--rebuild"], ["--all", "--rebuild"]):
        result = run("review", "--follow", *extra)
        assert result.exit_code == 2, result.output
        assert "--follow runs alone" in result.stderr
        assert result.stdout == ""
    assert reviews_pending(services.store) == 1  # nothing reviewed, nothing forgotten


def test_the_lease_must_be_a_sensible_time(run: Run) -> None:
    for lease in ("0.1", "3601", "soon"):
        result = run("review", "--lease", lease)
        assert result.exit_code == 2, result.output
        assert "--lease" in result.stderr


def test_another_analyst_holding_the_lease_does_the_work(run: Run, services: Services) -> None:
    ended = _ended_games(services, 1, 2)
    now = utcnow()
    with services.store.unit_of_work() as uow:
        assert uow.checkpoints.take_lease(NAME, "other", now, now + timedelta(minutes=5)) == 0
    result = run("review", "--all")
    assert result.exit_code == 0, result.output
    assert result.stdout == "reviewed 0 games\n"
    assert "another analyst" in result.stderr and "holds the lease" in result.stderr
    assert "the 2 games left" in result.stderr
    assert reviews_pending(services.store) == 2
    assert all(services.reviews.analysis(g).status == "pending" for g in ended)
    with services.store.unit_of_work(write=False) as uow:  # its lease is untouched
        assert uow.checkpoints.take_lease(NAME, "third", now, now) is None
    with services.store.unit_of_work() as uow:
        uow.checkpoints.release(NAME, "other")
    assert _review(run, "--all")[0] == "reviewed 2 games\n"


def test_a_lease_run_out_is_taken_over(run: Run, services: Services) -> None:
    _ended_games(services, 1)
    then = utcnow() - timedelta(minutes=10)
    with services.store.unit_of_work() as uow:
        uow.checkpoints.take_lease(NAME, "gone", then, then + timedelta(seconds=30))
    assert _review(run, "--all")[0] == "reviewed 1 game\n"


# -- squares games show ----------------------------------------------------------------


def test_show_prints_the_review_once_there(run: Run, services: Services) -> None:
    [game_id] = _ended_games(services, 5)
    summary = services.queries.get_summary(game_id)
    out = run("games", "show", game_id).stdout
    assert "review     pending (squares review --all)" in out
    assert "accuracy" not in out
    assert json.loads(run("games", "show", game_id, "--json").stdout)["review"] is None

    _review(run, "--all")
    review = services.reviews.analysis(game_id).review
    assert review is not None
    out = run("games", "show", game_id).stdout
    assert "review     ready\n" in out
    lines = out.splitlines()
    for name, seat in zip((summary.player_name, summary.second_name), review.body["seats"],
                          strict=True):
        expected = (f"  {name}: accuracy {seat['accuracy']} %, stage 1 took "
                    f"{seat['gained']} of {seat['best']}, gave away {seat['given_away']}, "
                    f"luck {seat['luck']:+d}")
        assert expected in lines, (expected, out)
    # the review sits between the summary and the board
    assert out.index("review     ready") < out.index("accuracy") < out.index("+---+")
    data = json.loads(run("games", "show", game_id, "--json").stdout)
    assert data["review"] == review.body
    assert [s["accuracy"] for s in data["review"]["seats"]] == list(review.accuracy)
    assert data["game"]["game_id"] == game_id


def test_show_lists_the_largest_mistakes(run: Run, services: Services) -> None:
    """A seat that ends its stages 1 at once (drawing nothing) loses what was there."""
    created = services.play.create_game(player_name="Ali", mode="two_players", second_name="Veli",
                                   height=7, width=9, seed=8)
    state = created.state
    while not state.over:
        if state.turn == 2 and state.stage == 1:
            state = services.play.advance(created.game_id, created.token).state
            continue
        command = services.play.hint(created.game_id, created.token).command
        if hasattr(command, "x"):
            state = services.play.place_line(created.game_id, created.token, command.x,
                                        command.y).state
        else:
            state = services.play.advance(created.game_id, created.token).state
    _review(run)
    review = services.reviews.analysis(created.game_id).review
    assert review is not None
    mistakes = review.body["seats"][1]["mistakes"]
    out = run("games", "show", created.game_id).stdout
    assert mistakes, review.body["seats"][1]  # (seed 8: two points were there)
    m = mistakes[0]
    assert m["stage"] == 1 and m["played"] == [] and m["lost"] > 0
    assert review.body["seats"][1]["accuracy"] < 100
    better = " ".join(f"({x},{y})" for x, y in m["better"])
    assert (f"    round {m['round']} (step {m['start_seq']}): stage 1 lost {m['lost']}; "
            f"better {better}") in out.splitlines()


def test_a_running_game_shows_no_review(run: Run, services: Services) -> None:
    game_id = services.play.create_game(player_name="Ada", height=7, width=9, seed=3).game_id
    _review(run, "--all")
    out = run("games", "show", game_id).stdout
    assert "review " not in out and "accuracy" not in out
    data = json.loads(run("games", "show", game_id, "--json").stdout)
    assert data["review"] is None


def test_an_abandoned_game_shows_its_review(run: Run, services: Services) -> None:
    """Left before any turn ended: reviewed, with no accuracy for anyone."""
    game_id = services.play.create_game(player_name="Ada", height=7, width=9, seed=3).game_id
    services.retention.abandon_stale(utcnow() + timedelta(days=8))
    assert "review     pending" in run("games", "show", game_id).stdout
    assert _review(run)[0] == "reviewed 1 game\n"
    out = run("games", "show", game_id).stdout
    assert "review     ready" in out and "  Ada: no whole turn played" in out


# -- --follow --------------------------------------------------------------------------


def test_follow_reviews_the_games_as_they_end_until_stopped(
        db_url: str, services: Services) -> None:
    [first] = _ended_games(services, 1)
    env = {**os.environ}
    env.pop("DATABASE_URL", None)
    process = subprocess.Popen(
        [str(SQUARES), "--database-url", db_url, "review", "--follow", "--lease", "5"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        deadline = time.monotonic() + 10
        while services.reviews.analysis(first).status != "ready":
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the follower reviewed nothing"
            time.sleep(0.05)
        [second] = _ended_games(services, 2)  # ends while it follows
        while services.reviews.analysis(second).status != "ready":
            assert process.poll() is None, process.communicate()
            assert time.monotonic() < deadline, "the follower missed a game"
            time.sleep(0.05)
        process.send_signal(signal.SIGTERM)
        _out, err = process.communicate(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 0, err
    assert b"following the games as " in err
    # the lease given back at the end: another analyst goes on at once
    now = utcnow()
    with services.store.unit_of_work() as uow:
        assert uow.checkpoints.take_lease(NAME, "next", now, now) is not None
