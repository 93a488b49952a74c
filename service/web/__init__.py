"""The browser pages: play (`/`), replays (`/games`, `/games/<id>`) and high scores.

Pages are rendered by Jinja (autoescaped: names always show as text) and brought
to life by a little plain JavaScript that talks to the JSON API under ``/api``.
The list pages call the service layer directly. Every asset is served from this
package; nothing is loaded from the network.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, current_app, render_template, request

from ..domain.state import apply_in_place, fold
from ..errors import GameNotFound
from ..services import Services

bp = Blueprint("web", __name__, template_folder="templates", static_folder="static",
               static_url_path="/assets")

GAMES_PER_PAGE = 20
HIGH_SCORES_SHOWN = 100
MAX_PAGE = (2**31 - 1) // GAMES_PER_PAGE  # the offset stays a 32-bit integer


def _services() -> Services:
    services: Services = current_app.extensions["squares"]
    return services


@bp.get("/")
def play() -> str:
    return render_template("play.html", active="play")


@bp.get("/games")
def games() -> str:
    page = request.args.get("page", 1, type=int)
    if not 1 <= page <= MAX_PAGE:
        abort(400, description=f"page must be a number from 1 to {MAX_PAGE}")
    player = (request.args.get("player") or "").strip() or None
    rows, total = _services().list_games(
        player=player, limit=GAMES_PER_PAGE, offset=(page - 1) * GAMES_PER_PAGE
    )
    pages = max(1, -(-total // GAMES_PER_PAGE))
    return render_template(
        "games.html", active="games", games=rows, total=total, page=page, pages=pages,
        player=player,
    )


@bp.get("/games/<game_id>")
def replay(game_id: str) -> str:
    services = _services()
    try:
        summary = services.get_summary(game_id)
        stored = services.events_of(game_id)
    except GameNotFound:
        abort(404)
    if not stored:
        abort(404)
    series = _score_series([s.event for s in stored])
    steps = len(series)
    step = request.args.get("step", 1, type=int) or 1
    step = min(max(step, 1), steps)
    seats = stored[0].event.seats  # type: ignore[attr-defined]
    data: dict[str, Any] = {
        "game_id": game_id,
        "steps": steps,
        "step": step,
        "series": series,
        "names": {"1": seats[0].name, "2": seats[1].name},
    }
    return render_template(
        "replay.html", active="games", summary=summary, data=data, steps=steps, step=step
    )


def _score_series(events: list[Any]) -> list[list[int]]:
    """Both seats' scores after each step, folded by the domain's projection."""
    state = fold(events[:1])
    series = [list(state.scores)]
    for event in events[1:]:
        apply_in_place(state, event)
        series.append(list(state.scores))
    return series


@bp.get("/highscores")
def highscores() -> str:
    entries = _services().high_scores(limit=HIGH_SCORES_SHOWN)
    return render_template(
        "highscores.html", active="highscores", entries=entries,
        game=request.args.get("game"),
    )
