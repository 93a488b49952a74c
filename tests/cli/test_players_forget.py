"""``squares players forget NAME``: the admin's way to forget a player."""

from __future__ import annotations

from service.services import Services
from tests.conftest import SquaresRunner


def test_forget_asks_then_forgets_and_says_what_shows_instead(
        run: SquaresRunner, services: Services) -> None:
    game = services.play.create_game(player_name="Eda Fırat", height=7, width=7, seed=1)
    refused = run("players", "forget", "eda fırat", input="n\n")
    assert refused.exit_code == 1  # aborted: nothing forgotten
    assert services.queries.get_summary(game.game_id).player_name == "Eda Fırat"
    done = run("players", "forget", "EDA FIRAT", "--yes")
    assert done.exit_code == 0, done.output
    assert "deleted player" in done.stdout
    assert services.queries.get_summary(game.game_id).player_name.startswith("deleted player")
    again = run("players", "forget", "Nobody At All", "--yes")
    assert again.exit_code != 0 and "no game has a player named" in again.stderr
