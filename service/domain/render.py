"""A plain-text board in the assignment's style, for logs, the CLI and tests.

    +---+---+
    | P   :
    +---+   +

Dots are ``+``, horizontal lines ``---``, vertical lines ``|``, boxes show
their owner's letter. With ``color=True`` ANSI colours follow RULES T7 (human
blue, computer red, random/ownerless green) and the last turn is bold. With
``axes=True`` the column numbers ``x`` head the board (tens above units, each
digit over the middle of its column) and the row numbers ``y`` start each row:
the coordinates of RULES F2, as the web board, hints and captions use them.
"""

from __future__ import annotations

from collections.abc import Callable

from .events import OWNERLESS
from .state import GameState

# RULES T7: seat 1 blue, seat 2 red, the system (walls, random lines, ownerless) green
_COLORS = {"P": "\033[34m", "C": "\033[31m", "R": "\033[32m", OWNERLESS: "\033[32m"}
_BOLD = "\033[1m"
_RESET = "\033[0m"


def column_offsets(width: int) -> list[int]:
    """Where each column x starts in a text row: dots and vertical lines are one
    character wide, horizontal lines and boxes three."""
    offsets, at = [], 0
    for x in range(width):
        offsets.append(at)
        at += 1 if x % 2 == 0 else 3
    return offsets


def axis_header(width: int, margin: int = 3) -> list[str]:
    """The column numbers over a board: a tens line (when x reaches 10) and a units
    line, each digit over its column's middle character."""
    offsets = column_offsets(width)
    middles = [at + (x % 2) for x, at in enumerate(offsets)]
    lines = []
    digits: list[Callable[[int], str]] = [
        (lambda x: str(x // 10) if x >= 10 else " "), (lambda x: str(x % 10))
    ]
    for digit in digits if width > 10 else digits[1:]:
        row = [" "] * (middles[-1] + 1)
        for x, at in enumerate(middles):
            row[at] = digit(x)
        lines.append(" " * margin + "".join(row).rstrip())
    return lines


def board_cell(state: GameState, x: int, y: int) -> tuple[str, str | None]:
    """The text of the cell (x, y) and whose it is: a seat's letter, ``R`` for a
    line of the system, ``:`` for an ownerless box, None for a dot or what is not
    drawn or formed yet."""
    if x % 2 == 0 and y % 2 == 0:
        return "+", None
    if y % 2 == 0:
        who = state.line_by(x, y)
        return ("---" if who else "   "), who
    if x % 2 == 0:
        who = state.line_by(x, y)
        return ("|" if who else " "), who
    who = state.box_owner(x, y)
    return (f" {who} " if who else "   "), who


def render_board(state: GameState, color: bool = False, axes: bool = False) -> str:
    g = state.geometry
    recent = set(state.current_turn.lines) | set(state.current_turn.squares)
    if state.last_turn:
        recent |= set(state.last_turn.lines) | set(state.last_turn.squares)
    rows = []
    for y in range(g.height):
        cells = []
        for x in range(g.width):
            text, who = board_cell(state, x, y)
            if color and who:
                bold = _BOLD if (x, y) in recent else ""
                text = f"{bold}{_COLORS[who]}{text}{_RESET}"
            cells.append(text)
        row = "".join(cells).rstrip()
        rows.append(f"{y:>2} {row}".rstrip() if axes else row)
    if axes:
        rows = axis_header(g.width) + rows
    return "\n".join(rows)


def render_status(state: GameState) -> str:
    first, second = state.seats
    h, c = ("H", "C") if state.game.mode == "vs_computer" else ("P1", "P2")
    lines = [
        f"Round: {state.round}  Turn : {state.seat_info(state.turn).name}  Stage: {state.stage}",
        f"{h}.Score : {state.scores[0]}  {c}.Score : {state.scores[1]}",
        f"{h}.Squares : {state.squares[0]}  {c}.Squares : {state.squares[1]}  "
        f"Ownerless : {state.ownerless}",
    ]
    explanation = state.explanations.get(state.turn)
    if explanation is not None:
        lines.append(
            f"--- Computer AI --- BestPoint : {explanation.best_point}  "
            f"BestX : {explanation.best_x}  BestY : {explanation.best_y}  "
            f"BestDirection : {', '.join(map(str, explanation.best_direction))}"
        )
    if state.stage == 3 and state.last_pieces:
        for piece in state.last_pieces:
            status = "skipped" if piece.skipped else f"placed after {piece.tries} tries"
            lines.append(f"Random Piece : {piece.size} lines ({status})")
    if state.abandoned is not None:
        why = {"invite_expired": "an expired invitation",
               "day_over": "its daily challenge's date was over"}.get(state.abandoned, "idle")
        lines.append(f"Abandoned ({why}): {first.name} {state.scores[0]}, "
                     f"{second.name} {state.scores[1]} - no result")
    elif state.aborted is not None:
        lines.append(f"Aborted by {state.seat_info(state.aborted).name}: {first.name} "
                     f"{state.scores[0]}, {second.name} {state.scores[1]} - no result")
    elif state.over:
        outcome = "draw" if state.winner == 0 else f"{state.seat_info(state.winner or 1).name} wins"
        if state.resigned is not None:
            outcome = f"{state.seat_info(state.resigned).name} resigned, {outcome}"
        lines.append(f"Game over: {first.name} {state.scores[0]}, {second.name} {state.scores[1]} - {outcome}")
    return "\n".join(lines)


def render(state: GameState, color: bool = False, axes: bool = False) -> str:
    return render_board(state, color, axes) + "\n" + render_status(state)
