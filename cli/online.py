"""``squares play --online`` / ``--join``: starting, joining and resuming one seat of
an online game in the terminal.

The CLI works on the database the web server uses, so a friend can join in a browser
(``<base-url>/join/<id>#code=<code>``) or with ``squares play --join`` on the same
database. ``--online`` creates the game, prints the invite link and its expiry and
plays seat 1; ``--join`` claims the open seat with the link's code (or ``--code``)
and plays seat 2. Each seat's token is kept in the tokens file with its seat, so
``squares play --resume ID`` goes on as that seat (with ``--token`` the seat is
worked out, `Services.play.check_token`). The seat is then played by `OnlineSession`
(``cli/online_session.py``); the links are ``cli/invites.py``'s.
"""

from __future__ import annotations

from typing import IO

import click

from service.errors import GameNotFound, InviteClaimed
from service.ops.settings import DEFAULT_BASE_URL
from service.services import Services

from .invites import invite_url, parse_join, until
from .online_session import OnlineSession
from .output import CliFailure
from .session import HELP
from .tokens import (
    game_for_token,
    load_invite_code,
    load_seat_tokens,
    load_tokens,
    save_token,
    tokens_file,
)


def _token_not_kept(token: str) -> None:
    click.echo(f"(the token could not be kept in {tokens_file()}: "
               f"to resume later pass --token {token})")


def create(services: Services, name: str, *, seed: int | None, height: int, width: int,
           base_url: str = DEFAULT_BASE_URL, stdin: IO[str]) -> OnlineSession:
    """A new online game with `name` on seat 1: print the invite link, keep the token."""
    created = services.play.create_game(player_name=name, mode="online", seed=seed,
                                   height=height, width=width)
    invite = created.invite
    if invite is None:  # pragma: no cover - the service invites for every online game
        raise CliFailure(f"game {created.game_id} came without an invitation")
    kept = save_token(created.game_id, created.token, seat=1, code=invite.code)
    state = created.state
    click.echo(f"online game {created.game_id} ({state.height} x {state.width}); "
               f"you are seat 1, {state.seat_info(1).name}")
    click.echo("invite a friend with this link (it can be used once):")
    click.echo(f"  {invite_url(base_url, created.game_id, invite.code)}")
    click.echo(f"the invitation expires at {until(invite.expires_at)}")
    click.echo(f"(on this database in a terminal: squares play --join {created.game_id} "
               f"--code {invite.code} --name NAME)")
    if kept is None:
        _token_not_kept(created.token)
    click.echo(HELP)
    return OnlineSession(services, created.game_id, created.token, state, stdin, seat=1)


def join(services: Services, link: str, code: str | None, name: str,
         stdin: IO[str]) -> OnlineSession:
    """Claim the open seat of the game `link` names, with its code (or `code`)."""
    game_id, link_code = parse_join(link)
    code = code or link_code
    if not code:
        raise CliFailure("no invitation code: pass the whole invite link "
                         "(<base-url>/join/<id>#code=...) or --code", exit_code=2)
    try:
        claimed = services.play.claim_seat(game_id, code, name)
    except GameNotFound as exc:
        raise CliFailure(f"no game {game_id}") from exc
    except InviteClaimed as exc:
        if load_seat_tokens(game_id):
            raise CliFailure(f"{exc.message}; this CLI holds a seat of game {game_id}: "
                             f"squares play --resume {game_id}") from exc
        raise
    kept = save_token(game_id, claimed.token, seat=claimed.seat)
    state = claimed.state
    other = 3 - claimed.seat
    click.echo(f"joined online game {game_id} as seat {claimed.seat}, "
               f"{state.seat_info(claimed.seat).name}, against {state.seat_info(other).name}")
    if kept is None:
        _token_not_kept(claimed.token)
    click.echo(HELP)
    return OnlineSession(services, game_id, claimed.token, state, stdin, seat=claimed.seat)


def resume_online(services: Services, game_id: str, token: str | None, stdin: IO[str], *,
                  seat: int | None = None,
                  base_url: str = DEFAULT_BASE_URL) -> OnlineSession:
    """Go on with online game `game_id` as the seat of `token` (default: the token
    this CLI kept for it; `seat` picks one when it kept both)."""
    if token is not None and seat is not None:
        raise CliFailure("--seat picks a token this CLI kept; with --token the seat is "
                         "worked out", exit_code=2)
    if token is None:
        kept = load_seat_tokens(game_id)
        if seat is not None:
            token = kept.get(seat)
            if token is None:
                raise CliFailure(f"no token of seat {seat} of game {game_id} in "
                                 f"{tokens_file()}: pass --token", exit_code=2)
        elif len(kept) == 1:
            ((seat, token),) = kept.items()
        elif len(kept) == 2:
            raise CliFailure(f"both seats of game {game_id} are kept in {tokens_file()}: "
                             "pass --seat 1 or --seat 2", exit_code=2)
        else:
            token = load_tokens().get(game_id)
            if token is None:
                raise CliFailure(f"no token for game {game_id} in {tokens_file()}: "
                                 "pass --token", exit_code=2)
    seats, state = game_for_token(services, game_id, token)
    if seat is None:
        seat = seats[0]
    elif seat not in seats:
        raise CliFailure(f"the token kept as seat {seat}'s moves seat {seats[0]}")
    click.echo(f"online game {game_id}: you are seat {seat}, {state.seat_info(seat).name}")
    code = load_invite_code(game_id)
    if state.open_seat is not None and code is not None:
        click.echo("the seat is still open; the invite link (if it has not expired):")
        click.echo(f"  {invite_url(base_url, game_id, code)}")
    return OnlineSession(services, game_id, token, state, stdin, seat=seat)
