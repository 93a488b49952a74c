"""``squares play --resume`` of an online game: it goes on as the seat of the kept token
(``--seat`` picks one when both seats are kept here) or of a ``--token`` given, whose
seat it works out without storing anything; a wrong token is one ``error: ...`` line.
The other player moves through the service layer, as the web server would, on the
same SQLite file."""

from __future__ import annotations

from pathlib import Path

from cli.tokens import load_seat_tokens, save_token
from service.services import Services
from tests.cli.conftest import Run
from tests.cli.online_games import link, online_game, play_a_turn
from tests.cli.test_bad_input import assert_one_error


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
