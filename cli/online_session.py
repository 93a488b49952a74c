"""One seat of an online game in the terminal (`OnlineSession`): it moves with that
seat's token and, while the seat is open or the other seat is to move, waits.

While waiting it asks every `POLL_SECONDS` what is new (`Services.queries.follow`, as
``squares watch`` does) and prints the opponent's moves as they arrive, then the
board when it is this seat's turn or the game is over. Typed input is still read
while waiting (``q`` quits; the end of input quits too), without blocking the look
at the game (`LineReader`).
"""

from __future__ import annotations

from typing import IO

import click

from service.domain.events import Event
from service.domain.state import GameState
from service.services import Services

from .line_reader import LineReader
from .replay import describe, event_color
from .session import HELP, Session, Simple, parse_input
from .watch import result_text

POLL_SECONDS = 0.5


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
        """The events since the state shown, which becomes the state after them (a
        settled read: once an open seat's invitation has expired, the game is
        abandoned and the wait ends)."""
        followed = self.services.queries.follow(self.game_id, after=self.state.version)
        if followed.events:
            self.state = followed.state  # a new object: the UI may still show the old one
        return [item.event for item in followed.events]

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
