"""The terminal UI of ``squares play`` (curses, from the standard library).

Like the original console game: the arrow keys move a cursor over the line slots,
space draws the line under it, Enter ends the stage, ``h`` puts the cursor on the
hint's line (or says to advance), ``q`` quits (the game stays stored, unfinished;
``squares play --resume ID`` goes on with it). Colours as on the web (RULES T7): the
human blue, the computer red, walls, random lines and ownerless squares green; the
lines and squares of the last turn bold. The board carries its axis numbers, so the
cursor's position and the hints read as the coordinates of RULES F2.

Only the drawing and the keys live here; the moves go through the service layer
(`Session` in ``cli/play.py`` owns the game) and the board's cells come from
`service.domain.render`.
"""

from __future__ import annotations

import contextlib
import curses
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from cli.context import current_settings
from service.domain.commands import Advance, PlaceLine, RuleViolation
from service.domain.events import OWNERLESS, SEAT_LETTERS, Event
from service.domain.fold import apply_in_place
from service.domain.render import axis_header, board_cell, column_offsets, render_status
from service.domain.state import GameState
from service.errors import HintsOff
from service.services import MoveResult

from .replay import describe
from .session import Session, prompt_for

KEYS_HELP = "arrows move · space draw · Enter next stage · h hint (unranks) · q quit"
MARGIN = 3  # the row numbers' column
ENTER_KEYS = (10, 13, curses.KEY_ENTER)
QUIT_KEYS = (ord("q"), ord("Q"))
HINT_KEYS = (ord("h"), ord("H"))
LOG_LINES = 4
POLL_MS = 500  # how often an online game is re-read while the other seat moves


def step_delay() -> float:
    """Seconds between the computer's events on screen (``SQUARES_TUI_DELAY``)."""
    return current_settings().tui_delay_s


@dataclass
class Cursor:
    x: int
    y: int
    want_x: int

    @classmethod
    def start(cls, state: GameState) -> Cursor:
        y = 2 * (state.height // 4)
        x = 2 * (state.width // 4) + 1
        return cls(x, y, x)

    def move(self, state: GameState, dx: int, dy: int) -> None:
        """Left/right: the next slot in the row; up/down: one character row, to the
        slot nearest the column last chosen (as on the web page)."""
        if dx:
            nx = self.x + 2 * dx
            if 0 <= nx < state.width:
                self.x = self.want_x = nx
            return
        ny = self.y + dy
        if not 0 <= ny < state.height:
            return
        nx = self.want_x if (self.want_x + ny) % 2 == 1 else self.want_x - 1
        if nx < 0:
            nx = 1
        if nx >= state.width:
            nx = state.width - 2
        self.x, self.y = nx, ny


@dataclass
class Screen:
    """What the UI shows besides the board: a short log and the last message."""

    log: list[tuple[str, int]] = field(default_factory=list)  # (text, seat colour)

    def say(self, text: str, seat: int = 0) -> None:
        self.log.append((text, seat))
        del self.log[:-LOG_LINES]


class TerminalUI:
    """One curses session over a `Session` (cli/play.py): draw, read a key, act."""

    def __init__(self, session: Session, stdscr: curses.window) -> None:
        self.session = session
        self.scr = stdscr
        self.screen = Screen()
        self.cursor = Cursor.start(self.state)
        self.colors: dict[str, int] = {}  # a seat's letter, R or : (the system's)

    @property
    def names(self) -> dict[int, str]:
        """The seats' names now (an online game's invited seat is named on joining)."""
        return {seat: self.state.seat_info(seat).name or "(invited)" for seat in (1, 2)}

    @property
    def state(self) -> GameState:
        return self.session.state

    # -- drawing ---------------------------------------------------------------------
    def setup(self) -> None:
        with contextlib.suppress(curses.error):
            curses.curs_set(0)
        self.scr.keypad(True)
        if curses.has_colors():
            curses.start_color()
            try:
                curses.use_default_colors()
                background = -1
            except curses.error:
                background = curses.COLOR_BLACK
            for pair, (whose, colour) in enumerate(((("P",), curses.COLOR_BLUE),
                                                    (("C",), curses.COLOR_RED),
                                                    (("R", OWNERLESS), curses.COLOR_GREEN)),
                                                   start=1):
                curses.init_pair(pair, colour, background)
                for who in whose:
                    self.colors[who] = curses.color_pair(pair)

    def put(self, row: int, col: int, text: str, attr: int = 0) -> None:
        """Write what fits of `text` (a small terminal clips the board, never fails)."""
        height, width = self.scr.getmaxyx()
        if row >= height or col >= width:
            return
        text = text[: max(0, width - col - (1 if row == height - 1 else 0))]
        if not text:
            return
        with contextlib.suppress(curses.error):
            self.scr.addstr(row, col, text, attr)

    def draw(self, state: GameState | None = None, note: str = "") -> None:
        st = state or self.state
        g = st.geometry
        self.scr.erase()
        title = f"Squares — {self.names[1]} vs {self.names[2]} · game {self.session.game_id}"
        self.put(0, 0, title, curses.A_BOLD)
        header = axis_header(g.width, MARGIN)
        top = 1
        for i, line in enumerate(header):
            self.put(top + i, 0, line, curses.A_DIM)
        top += len(header)
        offsets = column_offsets(g.width)
        recent = set(st.current_turn.lines) | set(st.current_turn.squares)
        if st.last_turn:
            recent |= set(st.last_turn.lines) | set(st.last_turn.squares)
        for y in range(g.height):
            self.put(top + y, 0, f"{y:>2}", curses.A_DIM)
            for x in range(g.width):
                text, who = board_cell(st, x, y)
                attr = self.colors.get(who, 0) if who else 0
                if who and (x, y) in recent:
                    attr |= curses.A_BOLD
                at = (x, y) == (self.cursor.x, self.cursor.y) and not st.over
                if at:
                    text = text if who else ("···" if x % 2 == 1 else ":")
                    attr |= curses.A_REVERSE
                self.put(top + y, MARGIN + offsets[x], text, attr)
        row = top + g.height + 1
        for line in render_status(st).splitlines():
            self.put(row, 0, line)
            row += 1
        row += 1
        for text, seat in self.screen.log:
            self.put(row, 0, text, self.colors.get(SEAT_LETTERS.get(seat, "R"), 0) if seat else 0)
            row += 1
        row = max(row, top + g.height + 1 + LOG_LINES + 4)
        if note:
            self.put(row, 0, note, curses.A_BOLD)
        elif not st.over:
            self.put(row, 0, f"cursor ({self.cursor.x}, {self.cursor.y}) · "
                     + prompt_for(st).strip("[] >").split(";")[0])
        self.put(row + 1, 0, "game over — q to leave" if st.over else KEYS_HELP, curses.A_DIM)
        self.scr.refresh()

    # -- acting ----------------------------------------------------------------------
    def play_events(self, before: GameState, events: list[Event]) -> None:
        """Show the events one by one on a copy of the board (the computer's turn is
        animated; a key press skips the rest)."""
        shown = before.copy()
        delay = step_delay()
        self.scr.nodelay(True)
        try:
            for event in events:
                apply_in_place(shown, event)
                seat = getattr(event, "seat", 0)
                self.screen.say(describe(event, shown), seat if seat in (1, 2) else 3)
                if delay and seat == 2 and self.state.seat_info(2).kind == "computer":
                    self.draw(shown)
                    if self.scr.getch() != -1:
                        delay = 0.0
                    time.sleep(delay)
        finally:
            self.scr.nodelay(False)

    def act(self, command: Callable[[], MoveResult]) -> None:
        before = self.state.copy()
        try:
            result = command()
        except RuleViolation as exc:
            self.screen.say(f"refused: {exc.message}", 2)
            return
        events = [stored.event for stored in result.events]
        self.session.state = result.state
        self.play_events(before, events)

    def hint(self) -> None:
        session = self.session
        try:  # an online game's hints are its creator's choice, for the seat to move
            hint = session.services.play.hint(session.game_id, session.token)
        except (RuleViolation, HintsOff) as exc:
            self.screen.say(f"no hint: {exc.message}", 2)
            return
        suggestion = hint.command
        unranked = " (this game is now unranked)" if hint.events else ""
        if isinstance(suggestion, PlaceLine):
            self.cursor = Cursor(suggestion.x, suggestion.y, suggestion.x)
            self.screen.say(f"hint: draw ({suggestion.x}, {suggestion.y}) — the cursor is on "
                            f"it; press space{unranked}")
        elif isinstance(suggestion, Advance):
            self.screen.say(f"hint: press Enter for the next stage{unranked}")

    def handle(self, key: int) -> bool:
        """One key; False to leave."""
        services = self.session.services
        game_id, token = self.session.game_id, self.session.token
        moves = {curses.KEY_LEFT: (-1, 0), curses.KEY_RIGHT: (1, 0),
                 curses.KEY_UP: (0, -1), curses.KEY_DOWN: (0, 1)}
        if key in QUIT_KEYS:
            return False
        if self.state.over:
            return True
        waiting = self.session.waiting_for()
        if key in moves:
            self.cursor.move(self.state, *moves[key])
        elif waiting is not None and key in (ord(" "), *ENTER_KEYS, *HINT_KEYS):
            self.screen.say(f"not your turn: waiting for {waiting}", 2)
        elif key == ord(" "):
            x, y = self.cursor.x, self.cursor.y
            self.act(lambda: services.play.place_line(game_id, token, x, y))
        elif key in ENTER_KEYS:
            self.act(lambda: services.play.advance(game_id, token))
        elif key in HINT_KEYS:
            self.hint()
        elif key == curses.KEY_RESIZE:
            pass
        return True

    def poll(self) -> None:
        """The other seat's moves since the state shown (an online game)."""
        before = self.state.copy()
        events = self.session.poll()
        if events:
            self.play_events(before, events)

    def run(self) -> bool:
        """Until the player quits; True if the game is over. While another player
        is to move (an online game) the game is re-read every `POLL_MS`."""
        self.setup()
        self.screen.say("your move: " + KEYS_HELP)
        while True:
            waiting = self.session.waiting_for()
            self.draw(note="" if waiting is None else f"Waiting for {waiting}… (q quits)")
            self.scr.timeout(-1 if waiting is None else POLL_MS)
            key = self.scr.getch()
            if key == -1:  # no key within POLL_MS
                if waiting is not None:
                    self.poll()
                continue
            if not self.handle(key):
                return self.state.over


def run_tui(session: Session) -> bool:
    """Play `session` in curses; True if the game ended, False if the player quit."""
    result: list[bool] = []

    def main(stdscr: curses.window) -> None:
        curses.set_escdelay(25)  # ms curses waits after ESC for an escape sequence
        result.append(TerminalUI(session, stdscr).run())

    curses.wrapper(main)
    return result[0]
