"""``squares play --online`` / ``--join``: one seat of an online game in the terminal.

The CLI works on the database the web server uses, so a friend can join in a browser
(``<base-url>/join/<id>#code=<code>``) or with ``squares play --join`` on the same
database. ``--online`` creates the game, prints the invite link and its expiry and
plays seat 1; ``--join`` claims the open seat with the link's code (or ``--code``)
and plays seat 2. Each seat's token is kept in the tokens file with its seat, so
``squares play --resume ID`` goes on as that seat (with ``--token`` the seat is
worked out, `Services.check_token`).

While the seat is open or the other seat is to move, the session waits: it re-reads
the game's new events every `POLL_SECONDS` (`Services.event_page`, as ``squares
watch`` does) and prints the opponent's moves as they arrive, then the board when it
is this seat's turn or the game is over. Typed input is still read while waiting
(``q`` quits; the end of input quits too), without blocking the polling.
"""

from __future__ import annotations

import io
import os
import re
import select
from datetime import UTC, datetime
from typing import IO
from urllib.parse import parse_qs, urlsplit

import click

from service.domain.events import Event
from service.domain.state import GameState, apply_in_place
from service.errors import GameNotFound, InviteClaimed
from service.services import Services

from .output import CliFailure, fmt_time
from .play import DEFAULT_BASE_URL, game_for_token
from .replay import describe, event_color
from .session import HELP, Session, Simple, parse_input
from .tokens import load_invite_code, load_seat_tokens, load_tokens, save_token, tokens_file
from .watch import result_text

POLL_SECONDS = 0.5
GAME_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # as the API's (service/api/routes.py)


# -- invite links -----------------------------------------------------------------------


def invite_url(base_url: str, game_id: str, code: str) -> str:
    """The web's invite link: ``<base-url>/join/<game_id>#code=<code>``."""
    return f"{base_url.rstrip('/')}/join/{game_id}#code={code}"


def parse_join(value: str) -> tuple[str, str | None]:
    """``--join``'s argument: an invite link (its game id and ``#code=``) or a bare
    game id (no code). A usage error (exit 2) for anything else."""
    text = value.strip()
    parts = urlsplit(text)
    if "/join/" in parts.path:
        game_id = parts.path.rsplit("/join/", 1)[1].strip("/")
    elif not parts.scheme and not parts.netloc and not parts.fragment and "/" not in text:
        game_id = text
    else:
        game_id = ""
    if not GAME_ID.match(game_id):
        raise CliFailure(f"{value!r} is neither an invite link (<base-url>/join/<id>#code=...) "
                         "nor a game id", exit_code=2)
    codes = parse_qs(parts.fragment).get("code") if parts.fragment else None
    return game_id, (codes[0] if codes else None)


def _until(when: datetime) -> str:
    """``2025-01-31 18:00 UTC, in 24 h``."""
    seconds = int((when - datetime.now(UTC)).total_seconds())
    if seconds >= 2 * 3600:
        left = f"{round(seconds / 3600)} h"
    elif seconds >= 120:
        left = f"{round(seconds / 60)} min"
    else:
        left = f"{max(seconds, 0)} s"
    return f"{fmt_time(when)} UTC, in {left}"


# -- typed input that can be waited for -------------------------------------------------


class LineReader:
    """Lines typed on standard input, and a wait for the next one that gives up
    after a timeout (so the game can be re-read meanwhile). It reads the descriptor
    itself (select + read): a buffered text stream may hold lines select cannot see.
    A stream without a descriptor (an in-memory one, as in click's test runner) is
    always ready."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.fd: int | None
        try:
            self.fd = stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            self.fd = None
        self.buffer = b""
        self.eof = False

    def _fill(self) -> None:
        assert self.fd is not None
        chunk = os.read(self.fd, 4096)
        if chunk:
            self.buffer += chunk
        else:
            self.eof = True

    def ready(self, timeout: float) -> bool:
        """True once a whole line (or the end of input) can be read at once."""
        if self.fd is None or self.eof or b"\n" in self.buffer:
            return True
        try:
            readable, _, _ = select.select([self.fd], [], [], timeout)
        except (OSError, ValueError):  # no select on this descriptor: a blocking read
            return True
        if readable:
            self._fill()
        return self.eof or b"\n" in self.buffer

    def readline(self) -> str:
        """The next line with its newline; "" at the end of input."""
        if self.fd is None:
            return self.stream.readline()
        while b"\n" not in self.buffer and not self.eof:
            self._fill()
        line, newline, self.buffer = self.buffer.partition(b"\n")
        return (line + newline).decode("utf-8", errors="replace")


# -- the session ------------------------------------------------------------------------


class OnlineSession(Session):
    """One seat of an online game: moves with that seat's token, waits for the other
    seat (polling the database)."""

    def __init__(self, services: Services, game_id: str, token: str, state: GameState,
                 stdin: IO[str], seat: int | None) -> None:
        super().__init__(services, game_id, token, state, stdin)
        self.seat = seat  # None only for a finished game resumed with --token
        self.reader = LineReader(stdin)

    def readline(self) -> str:
        return self.reader.readline()

    def waiting_for(self) -> str | None:
        state = self.state
        if state.over:
            return None
        if state.open_seat is not None:
            return "a friend to join"
        if state.turn != self.seat:
            return state.seat_info(state.turn).name
        return None

    def poll(self) -> list[Event]:
        if self.state.open_seat is not None:
            # a settled read abandons the game once its invitation has expired
            # (then the page below brings game_abandoned and the wait ends)
            self.services.get_state(self.game_id)
        stored, version = self.services.event_page(self.game_id, after=self.state.version)
        if version <= self.state.version or not stored:
            return []
        if stored[0].seq != self.state.version + 1:  # not a continuation: read afresh
            self.state = self.services.get_state(self.game_id)
        else:
            state = self.state.copy()  # the UI may still show the old one
            for item in stored:
                apply_in_place(state, item.event)
            self.state = state
        return [item.event for item in stored]

    def wait(self, joined_only: bool = False) -> bool:
        shown: str | None = None
        try:
            while (label := self.waiting_for()) is not None:
                if joined_only and self.state.open_seat is None:
                    return True
                if label != shown:
                    click.echo(f"Waiting for {label}… (q quits)")
                    shown = label
                if self.reader.ready(POLL_SECONDS) and not self._typed_while_waiting(label):
                    return False
                for event in self.poll():
                    click.echo(click.style(f"  {describe(event, self.state)}",
                                           fg=event_color(event)))
        except KeyboardInterrupt:
            click.echo("")
            return False
        if not joined_only:
            self.show()
        return True

    def _typed_while_waiting(self, label: str) -> bool:
        """Answer a line typed while waiting; False: the player quits."""
        line = self.reader.readline()
        if line == "":
            return False
        if not self.stdin.isatty():
            click.echo(line.rstrip("\n"))
        command = parse_input(line)
        if command == Simple("quit"):
            return False
        if command == Simple("help") or command is None:
            click.echo(("" if command else "? ") + HELP)
        else:
            click.echo(f"not your turn: waiting for {label} (q quits)")
        return True

    def result_lines(self) -> list[str]:
        lines = [result_text(self.state)]
        if self.seat is not None:
            lines.append(f"your score: {self.state.scores[self.seat - 1]}")
        return lines


# -- starting, joining, resuming ---------------------------------------------------------


def _token_not_kept(token: str) -> None:
    click.echo(f"(the token could not be kept in {tokens_file()}: "
               f"to resume later pass --token {token})")


def create(services: Services, name: str, *, seed: int | None, height: int, width: int,
           base_url: str = DEFAULT_BASE_URL, stdin: IO[str]) -> OnlineSession:
    """A new online game with `name` on seat 1: print the invite link, keep the token."""
    created = services.create_game(player_name=name, mode="online", seed=seed,
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
    click.echo(f"the invitation expires at {_until(invite.expires_at)}")
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
        claimed = services.claim_seat(game_id, code, name)
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
