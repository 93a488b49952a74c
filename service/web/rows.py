"""How the pages write a games row or a high score: its field, its seats, its kind,
its accuracy and its moments (`human_utc`, as the CLI's tables). Template globals
(registered by the blueprint, `TEMPLATE_GLOBALS`) and the live list's rows
(`web._live_row`) use the same."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..ops.times import human_utc


def field_size(row: Any) -> str:
    """A game's or a high score's field as "19 × 33"; "—" when it is not known (the
    default entries of the table; rows read before the field size was stored)."""
    height, width = getattr(row, "height", None), getattr(row, "width", None)
    return f"{height} × {width}" if height and width else "—"


def first_seat(row: Any) -> str:
    """Seat 1's name in a games row: its player, or an online rematch's open seat
    until the friend claims it (its maker took seat 2)."""
    if row.player_name:
        return str(row.player_name)
    return "(open seat)" if row.mode == "online" else ""


def second_seat(row: Any) -> str:
    """Seat 2's name in a games row: the second human, an online game's open seat
    until a friend claims it, or the computer."""
    if row.second_name:
        return str(row.second_name)
    return "(open seat)" if row.mode == "online" else "Computer"


def game_class(row: Any) -> str:
    """What kind of game a games row is, as the lists show it: the computer's level,
    or "two players" / "online" when both seats are humans."""
    return {"two_players": "two players", "online": "online"}.get(row.mode, row.difficulty)


def game_accuracy(accuracies: dict[str, tuple[int | None, int | None]], game_id: str) -> str:
    """A games row's accuracy per seat from its review, "acc. 87 % / 92 %"; "—" until
    the game is reviewed."""
    found = accuracies.get(game_id)
    return "—" if found is None else f"acc. {found[0]} % / {found[1]} %"


def entry_accuracy(accuracies: dict[str, tuple[int | None, int | None]], entry: Any) -> str:
    """A high score's accuracy (its seat's in the game's review), "87 %"; "—" until
    the game is reviewed and for the entries without a game."""
    found = accuracies.get(entry.game_id or "")
    return "—" if found is None or not entry.seat else f"{found[entry.seat - 1]} %"


TEMPLATE_GLOBALS: dict[str, Callable[..., str]] = {
    "field_size": field_size, "first_seat": first_seat, "second_seat": second_seat,
    "game_class": game_class, "game_accuracy": game_accuracy, "entry_accuracy": entry_accuracy,
    "utc_time": human_utc,
}
