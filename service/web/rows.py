"""How the pages write a games row or a high score: its field, its seats (and the
links to their players' pages), its kind, its accuracy and its moments (`human_utc`, as the CLI's tables). Template globals
(registered by the blueprint, `TEMPLATE_GLOBALS`) and the live list's rows
(`web.pages._live_row`) use the same."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from flask import url_for
from flask_babel import get_locale, gettext, ngettext

from ..ops.times import human_utc
from ..services.players import human_seats


def field_size(row: Any) -> str:
    """A game's or a high score's field as "19 × 33"; "—" when it is not known (the
    default entries of the table; rows read before the field size was stored)."""
    height, width = getattr(row, "height", None), getattr(row, "width", None)
    return f"{height} × {width}" if height and width else "—"


def first_seat(row: Any) -> str:
    """Seat 1's name in a games row: its player, or an online rematch's open seat
    until the friend claims it (its maker took seat 2)."""
    if row.player_name:
        return seat_name_shown(str(row.player_name), human_seats(row.mode)[0])
    return gettext("(open seat)") if row.mode == "online" else ""


def second_seat(row: Any) -> str:
    """Seat 2's name in a games row: the second human, an online game's open seat
    until a friend claims it, or the computer."""
    if row.second_name:
        return seat_name_shown(str(row.second_name), human_seats(row.mode)[1])
    return gettext("(open seat)") if row.mode == "online" else gettext("Computer")


_COMPUTER = re.compile(r"Computer(?: ([12]) \((\w+)\))?")


def seat_name_shown(name: str, human: bool) -> str:
    """A seat's name as the page shows it: a player's as they wrote it; the computer's
    (`domain.start` names it "Computer", or "Computer 1 (easy)" against another
    computer) in the page's language."""
    found = None if human else _COMPUTER.fullmatch(name)
    if found is None:
        return name
    seat, level = found.groups()
    if seat is None:
        return gettext("Computer")
    return gettext("Computer %(seat)s (%(level)s)", seat=seat, level=level_name(level))


def player_url(name: str) -> str:
    """The page of the player named `name` (`protocol.name_paths` writes the name
    percent-encoded, "/" and "?" too)."""
    return url_for("web.player", name=name)


def seat_url(row: Any, seat: int) -> str | None:
    """The page of the player in seat `seat` of a games row; None for a computer and
    for an online game's seat nobody has claimed yet."""
    name = row.player_name if seat == 1 else row.second_name
    return player_url(name) if name and human_seats(row.mode)[seat - 1] else None


def entry_url(entry: Any) -> str | None:
    """The page of a high score's player: the entries of a stored game (a human's
    seat); None for the default entries, those added by hand and those whose game
    was deleted (no game of theirs may be left)."""
    return player_url(entry.name) if entry.game_id and entry.seat else None


def game_class(row: Any) -> str:
    """What kind of game a games row is, as the lists show it: the computer's level,
    or "two players" / "online" when both seats are humans."""
    if row.mode == "two_players":
        return gettext("two players")
    if row.mode == "online":
        return gettext("online")
    return level_name(row.difficulty)


def level_name(level: str | None) -> str:
    """The computer's level in the page's language ("moderate": "orta")."""
    names = {"easy": gettext("easy"), "moderate": gettext("moderate"),
             "hard": gettext("hard"), "expert": gettext("expert")}
    return names.get(level or "", level or "")


def game_status(status: str) -> str:
    """A game's status as the lists show it ("active", "finished", ...)."""
    names = {"active": gettext("active"), "finished": gettext("finished"),
             "abandoned": gettext("abandoned"), "aborted": gettext("aborted")}
    return names.get(status, status)


def game_length(row: Any) -> str:
    """How long a game has lasted: "12 steps · 3 rounds"."""
    return (ngettext("%(num)d step", "%(num)d steps", row.version) + " · "
            + ngettext("%(num)d round", "%(num)d rounds", row.round))


def game_accuracy(accuracies: dict[str, tuple[int | None, int | None]], game_id: str) -> str:
    """A games row's accuracy per seat from its review, "acc. 87 % / 92 %"; "—" until
    the game is reviewed, and for a seat that played no turn."""
    found = accuracies.get(game_id)
    if found is None:
        return "—"
    return gettext("acc. %(first)s / %(second)s", first=_percent(found[0]),
                   second=_percent(found[1]))


def entry_accuracy(accuracies: dict[str, tuple[int | None, int | None]], entry: Any) -> str:
    """A high score's accuracy (its seat's in the game's review), "87 %"; "—" until
    the game is reviewed and for the entries without a game."""
    found = accuracies.get(entry.game_id or "")
    return "—" if found is None or not entry.seat else _percent(found[entry.seat - 1])


def lowercase(text: str) -> str:
    """`text` in small letters as the page's language writes them: in Turkish the
    dotted İ is i and the dotless I is ı (Python's `str.lower` alone would make
    "İki" "i̇ki", with a combining dot)."""
    text = str(text)
    locale = get_locale()
    if locale is not None and locale.language == "tr":
        text = text.replace("İ", "i").replace("I", "ı")
    return text.lower()


def _percent(accuracy: int | None) -> str:
    """An accuracy as a page shows it; "—" for a seat with no turn to judge."""
    return "—" if accuracy is None else gettext("%(percent)s %%", percent=accuracy)


TEMPLATE_GLOBALS: dict[str, Callable[..., str | None]] = {
    "player_url": player_url, "seat_url": seat_url, "entry_url": entry_url,
    "field_size": field_size, "first_seat": first_seat, "second_seat": second_seat,
    "game_class": game_class, "game_accuracy": game_accuracy, "entry_accuracy": entry_accuracy,
    "utc_time": human_utc, "game_length": game_length, "game_status": game_status,
    "level_name": level_name, "percent": _percent, "lowercase": lowercase,
}
