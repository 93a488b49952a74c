"""The high score page, ``/highscores``: one table per mode and field size (RULES
E1, M2). Without ``?size=HxW`` / ``?mode=`` it shows the table of the game named by
``?game=`` (its rows marked), else the main table (against the computer) of the
default field. The main table lists its levels one after another, each ranked apart
(`domain.ranking`), or one level with ``?difficulty=``."""

from __future__ import annotations

from flask import abort, render_template, request
from flask_babel import gettext, lazy_gettext

from ..domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH, MAX_HEIGHT, MAX_WIDTH, MIN_SIZE
from ..domain.ranking import MAIN, TABLES, ranks, table_levels
from ..domain.start import LEVELS
from ..errors import GameNotFound
from ..protocol.paths import ascii_int
from .blueprint import bp, page_services

HIGH_SCORES_SHOWN = 100
FIELD_SIZES = ((19, 33), (15, 25), (11, 17), (9, 13), (7, 9))  # the start form's sizes
TITLES = {MAIN: lazy_gettext("High scores"), "two_players": lazy_gettext("Two-player results"),
          "online": lazy_gettext("Online results")}
MODE_NAMES = {MAIN: lazy_gettext("against the computer"),
              "two_players": lazy_gettext("two players, one screen"),
              "online": lazy_gettext("online")}


def _size_arg(raw: str) -> tuple[int, int]:
    """``19x33`` as (height, width), or a 400 page (ASCII digits only: `ascii_int`)."""
    numbers = [ascii_int(part) if len(part) <= 3 else None for part in raw.lower().split("x")]
    match numbers:
        case [int(height), int(width)] if (MIN_SIZE <= height <= MAX_HEIGHT
                                           and MIN_SIZE <= width <= MAX_WIDTH):
            return height, width
    abort(400, description=gettext("size is a field's height x width, e.g. 19x33"))


def _level_arg(raw: str) -> str | None:
    """``?difficulty=``: one of the computer's levels, or every level when empty; else
    a 400 page."""
    if raw and raw not in LEVELS:
        abort(400, description=gettext("difficulty is one of %(levels)s, or empty for "
                                       "every level", levels=", ".join(LEVELS)))
    return raw or None


def _table_of_game(game_id: str | None) -> tuple[str, tuple[int, int]] | None:
    """The mode and field size of the game `game_id` (None: no such game)."""
    if not game_id:
        return None
    try:
        summary = page_services().queries.get_summary(game_id)
    except GameNotFound:
        return None
    mode = summary.mode if summary.mode in TABLES else MAIN
    return mode, (summary.height, summary.width)


@bp.get("/highscores")
def highscores() -> str:
    game = request.args.get("game") or None
    mode, size = _table_of_game(game) or (MAIN, (DEFAULT_HEIGHT, DEFAULT_WIDTH))
    if request.args.get("size"):
        size = _size_arg(request.args["size"])
    if request.args.get("mode"):
        mode = request.args["mode"]
        if mode not in TABLES:
            abort(400, description=gettext("mode is one of %(modes)s",
                                           modes=", ".join(TABLES)))
    level = _level_arg(request.args.get("difficulty", ""))
    levels = table_levels(mode)
    if not levels:
        level = None  # the filter form carries a level over to a table without levels
    services = page_services()
    entries = services.queries.high_scores(HIGH_SCORES_SHOWN, height=size[0], width=size[1],
                                   mode=mode, level=level)
    sizes = list(dict.fromkeys([*FIELD_SIZES, *services.queries.high_score_sizes(mode), size]))
    accuracies = services.reviews.accuracies(e.game_id for e in entries if e.game_id)
    return render_template(
        "highscores.html", active="highscores", entries=entries, game=game, size=size,
        ranks=ranks(e.level for e in entries), level=level, levels=levels,
        sizes=sizes, mode=mode, modes=MODE_NAMES, title=TITLES[mode],
        accuracies=accuracies,
        not_recorded=any(not e.hints_recorded for e in entries),
    )

