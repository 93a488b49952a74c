"""Shared by the tests of ``squares play`` in an online game (test_play_online_*):
online games made through the service layer, as the web server would make them, the
invite link the CLI prints, and a turn played by the other seat."""

from __future__ import annotations

import re

from service.domain.rules import legal_actions
from service.services import CreatedGame, Services

SEED = 11
SMALL = ["--height", "7", "--width", "9"]
INVITE = re.compile(r"^  (?P<url>(?P<base>\S+)/join/(?P<id>[\w-]+)#code=(?P<code>[\w-]+))$",
                    re.MULTILINE)


def online_game(services: Services, name: str = "Ann", seed: int = SEED) -> CreatedGame:
    return services.play.create_game(player_name=name, mode="online", seed=seed, height=7, width=9)


def link(created: CreatedGame, base: str = "http://127.0.0.1:5000") -> str:
    assert created.invite is not None
    return f"{base}/join/{created.game_id}#code={created.invite.code}"


def play_a_turn(services: Services, game_id: str, token: str) -> list[str]:
    """The seat to move: advance, one line in stage 2, advance twice (the turn ends);
    what the CLI prints for those moves."""
    state = services.queries.get_state(game_id)
    name = state.seat_info(state.turn).name
    services.play.advance(game_id, token)
    x, y = legal_actions(services.queries.get_state(game_id)).lines[0]
    services.play.place_line(game_id, token, x, y)
    services.play.advance(game_id, token)
    services.play.advance(game_id, token)
    return [f"{name} advances to stage 2", f"{name} draws ({x}, {y}) in stage 2",
            f"{name} advances to stage 3", f"{name} ends the turn"]
