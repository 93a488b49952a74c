"""``squares play``: a whole game in the terminal, against the computer or online.

In a terminal it is the curses UI of ``cli/tui.py``: the arrow keys move a cursor
over the line slots, space draws, Enter advances, ``h`` hints, ``q`` quits. When
standard input is not a terminal (or with ``--plain``) commands are read as lines:
``x y`` draws a line, ``a`` or an empty line advances, ``h`` asks for a hint, ``q``
(or the end of input) quits. Either way a quit game stays stored, unfinished, and
``squares play --resume ID`` goes on with it: the token comes from ``--token`` or
from the file where the CLI keeps the tokens of the games it created or joined
(``$SQUARES_TOKENS_FILE``, else ``$XDG_DATA_HOME/squares/tokens.json``, else
``~/.local/share/squares/tokens.json``; readable by its owner only). The game is
stored through the service layer like any other.

``--online`` starts a game against a friend and ``--join LINK`` takes its second
seat (``cli/online.py``): each side plays its own seat and waits, re-reading the
game, while the other one moves.
"""

from __future__ import annotations

import sys
from typing import IO

import click

from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.ranking import MAIN, TABLES, table_of
from service.domain.render import render
from service.domain.start import LEVELS
from service.errors import GameNotFound
from service.ops.settings import DEFAULT_BASE_URL, http_address
from service.services import Services

from .context import AppContext, current_settings, pass_app
from .highscores import high_score_table
from .output import CliFailure
from .session import HELP, Session
from .tokens import game_for_token, load_tokens, save_token, tokens_file


def ask_name(stdin: IO[str]) -> str:
    if stdin.isatty():
        return str(click.prompt("Your name", default="Player"))
    return "Player"


def open_session(services: Services, resume: str, token: str | None, stdin: IO[str],
                 seat: int | None = None, base_url: str = DEFAULT_BASE_URL) -> Session:
    """A stored game to go on with: its token from `token` or the tokens file (an
    online game: as the seat that token moves, `cli.online.resume_online`)."""
    try:
        mode = services.queries.get_summary(resume).mode
    except GameNotFound as exc:
        raise CliFailure(f"no game {resume}") from exc
    if mode == "online":
        from .online import resume_online

        return resume_online(services, resume, token, stdin, seat=seat, base_url=base_url)
    if seat is not None:
        raise CliFailure(f"--seat is for online games; game {resume} is a {mode} game",
                         exit_code=2)
    token = token or load_tokens().get(resume)
    if not token:
        raise CliFailure(f"no token for game {resume} in {tokens_file()}: pass --token",
                         exit_code=2)
    _, state = game_for_token(services, resume, token)
    if state.game.mode != "vs_computer" and state.seat_info(state.turn).kind == "computer":
        raise CliFailure(f"game {resume} is a {state.game.mode} game")
    return Session(services, resume, token, state, stdin)


def use_tui(stdin: IO[str], plain: bool) -> bool:
    if plain or not (stdin.isatty() and sys.stdout.isatty()):
        return False
    return current_settings().terminal not in ("", "dumb")


def _base_url_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """The option's address, else the settings' (``SQUARES_BASE_URL``, checked there)."""
    if value is None:
        return current_settings().base_url
    try:
        return http_address(value)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an http(s) address such as "
                                 f"{DEFAULT_BASE_URL}") from None


def check_options(online: bool, join: str | None, code: str | None, resume: str | None,
                  seat: int | None) -> None:
    """The options that do not go together: a usage error (exit 2)."""
    if online and join is not None:
        raise click.UsageError("--online starts a game and --join takes a seat of one: "
                               "give one of them")
    if resume is not None and (online or join is not None):
        raise click.UsageError("--resume goes on with a stored game: "
                               "without --online or --join")
    if code is not None and join is None:
        raise click.UsageError("--code goes with --join")
    if seat is not None and resume is None:
        raise click.UsageError("--seat goes with --resume")


@click.command()
@click.option("--name", default=None, help="Your name for the high score table.")
@click.option("--difficulty", type=click.Choice(LEVELS), default="moderate", show_default=True)
@click.option("--seed", type=int, default=None, help="Choose the seed: a practice game, never in the high scores "
                   "(default: a ranked game with a secret seed).")
@click.option("--height", type=int, default=DEFAULT_HEIGHT, show_default=True)
@click.option("--width", type=int, default=DEFAULT_WIDTH, show_default=True)
@click.option("--online", is_flag=True,
              help="Start an online game against a friend: print the invite link, play "
                   "seat 1, wait for the friend's moves.")
@click.option("--join", "join", metavar="LINK", default=None,
              help="Take the open seat of an online game: its invite link "
                   "(.../join/ID#code=CODE), or its id with --code; then play that seat.")
@click.option("--code", default=None, help="The invitation code for --join (default: the "
                                           "link's #code=).")
@click.option("--base-url", default=None, callback=_base_url_option,
              help="The web server's address for the invite link (default: "
                   f"SQUARES_BASE_URL, else {DEFAULT_BASE_URL}).")
@click.option("--resume", "resume", metavar="ID", default=None,
              help="Go on with a stored, unfinished game instead of starting one.")
@click.option("--token", default=None,
              help="The game's token for --resume (default: the one this CLI kept).")
@click.option("--seat", type=click.IntRange(1, 2), default=None,
              help="--resume of an online game whose both seats this CLI kept: "
                   "the one to play.")
@click.option("--plain", is_flag=True,
              help="Typed commands (x y, a, h, q) even in a terminal, instead of the cursor UI.")
@pass_app
def play(app: AppContext, name: str | None, difficulty: str, seed: int | None, height: int,
         width: int, online: bool, join: str | None, code: str | None, base_url: str,
         resume: str | None, token: str | None, seat: int | None, plain: bool) -> None:
    """Play a game in the terminal (arrow keys, space, Enter): against the computer,
    or online against a friend (--online, --join)."""
    check_options(online, join, code, resume, seat)
    stdin = sys.stdin
    with app.services() as services:
        session: Session
        if resume is not None:
            session = open_session(services, resume, token, stdin, seat=seat,
                                   base_url=base_url)
            click.echo(f"game {resume} resumed; round {session.state.round}, "
                       f"stage {session.state.stage}")
        elif online or join is not None:
            from . import online as online_games

            player = name if name is not None else ask_name(stdin)
            if online:
                session = online_games.create(services, player, seed=seed, height=height,
                                              width=width, base_url=base_url, stdin=stdin)
            else:
                session = online_games.join(services, join or "", code, player, stdin)
        else:
            player = name if name is not None else ask_name(stdin)
            created = services.play.create_game(player_name=player, difficulty=difficulty,
                                           seed=seed, height=height, width=width)
            kept = save_token(created.game_id, created.token)
            click.echo(f"game {created.game_id} ({difficulty}); {HELP}")
            if kept is None:
                click.echo(f"(the token could not be kept in {tokens_file()}: "
                           f"to resume later pass --token {created.token})")
            session = Session(services, created.game_id, created.token, created.state, stdin)
        if use_tui(stdin, plain):
            from .tui import run_tui

            # An online game's creator waits for the friend here, with the invite link
            # still on the screen; the cursor UI starts once the friend joined.
            over = session.wait(joined_only=True) and run_tui(session)
            if over:
                click.echo(render(session.state, color=True, axes=True))
        else:
            over = session.run()
        if not over:
            click.echo(f"game {session.game_id} saved, unfinished; "
                       f"go on with: squares play --resume {session.game_id}")
            return
        for line in session.result_lines():
            click.echo(line)
        click.echo("")
        # the game beside the games of its mode and field size (RULES E1, M2)
        state = session.state
        mode = state.game.mode if state.game.mode in TABLES else MAIN
        if table_of(state) is None:
            click.echo("this game enters no high score table ("
                       + ("a hint was used" if state.assisted else "a practice game") + ")")
        entries = services.queries.high_scores(10, height=state.height, width=state.width, mode=mode)
        click.echo(high_score_table(entries) if entries else
                   f"the {mode} table of {state.height} x {state.width} is empty")
