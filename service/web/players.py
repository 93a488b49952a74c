"""A player's page, ``/players/<name>``: their games (``?page=``, newest first), their
best score in each high score table, their average review accuracy, their record
online, and a signed-in player's daily challenge history and streak and their rating
with its history. The name is any way of writing it (`services.players`); the page shows it
as their newest game writes it."""

from __future__ import annotations

from flask import abort, render_template, request
from flask_babel import gettext, lazy_gettext

from ..domain.commands import RuleViolation
from ..errors import PlayerNotFound
from ..protocol.messages import said
from ..protocol.name_paths import NAME_MAX_IN_PATH
from ..protocol.paths import ascii_int
from ..services.players import result_of
from .blueprint import bp, page_services
from .highscores import MODE_NAMES
from .pages import GAMES_PER_PAGE, MAX_PAGE

RESULT_WORDS = {"won": lazy_gettext("won"), "lost": lazy_gettext("lost"),
                "drawn": lazy_gettext("draw")}
# a rating change's result (`domain.rated_games.RESULTS`) in the same words
RATING_WORDS = {"win": RESULT_WORDS["won"], "loss": RESULT_WORDS["lost"],
                "draw": RESULT_WORDS["drawn"]}


@bp.get("/players/<name:name>", merge_slashes=False)
def player(name: str) -> str:
    page = ascii_int(request.args.get("page", "1"))
    if page is None or not 1 <= page <= MAX_PAGE:
        abort(400, description=gettext("page must be a number from 1 to %(most)s",
                                       most=MAX_PAGE))
    if len(name) > NAME_MAX_IN_PATH:
        abort(400, description=gettext("a name has at most %(most)s characters here",
                                       most=NAME_MAX_IN_PATH))
    try:
        found = page_services().players.page(name, limit=GAMES_PER_PAGE,
                                             offset=(page - 1) * GAMES_PER_PAGE)
    except RuleViolation as exc:  # clean_name's refusal: no player can have this name
        abort(400, description=said(exc.message, exc.code))
    except PlayerNotFound:
        abort(404)
    totals = found.totals
    pages = max(1, -(-totals.games // GAMES_PER_PAGE))
    results = {g.summary.game_id: RESULT_WORDS.get(result_of(g.summary, g.seat) or "", "—")
               for g in found.games}
    return render_template(
        "player.html", active=None, player=found, totals=totals, page=page, pages=pages,
        results=results, modes=MODE_NAMES, rating_words=RATING_WORDS,
        daily=page_services().daily.history_of_name(name),
        accuracy=None if totals.accuracy is None else round(totals.accuracy),
    )
