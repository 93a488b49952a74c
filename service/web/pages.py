"""The pages but the high scores' (`highscores`): play (`/`, `/play/<id>`), joining an
online game, how to play, replays (`/games`, `/games/<id>`) and spectating (`/live`,
its rows as `/live.json` for the page's poll, and `/watch/<id>`)."""


from __future__ import annotations

from datetime import timedelta
from typing import Any

from flask import (
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext, ngettext

from ..errors import GameNotFound
from ..ops import settings
from ..ops.times import human_utc
from ..protocol.paths import ascii_int
from ..services import GameSummary
from .blueprint import bp, page_services
from .rows import field_size, first_seat, game_class, game_length, seat_url, second_seat

GAMES_PER_PAGE = 20
MAX_PAGE = (2**31 - 1) // GAMES_PER_PAGE  # the offset stays a 32-bit integer


def _summary_or_404(game_id: str) -> GameSummary:
    try:
        return page_services().queries.get_summary(game_id)
    except GameNotFound:
        abort(404)


@bp.get("/")
def play() -> str:
    return render_template("play.html", active="play", game_id=None)


@bp.get("/play/<game_id>")
def play_game(game_id: str) -> str:
    """A game's own address: the page resumes it with the token this browser keeps
    (or shows it read-only). An unknown id is a 404 here, not a blank page."""
    _summary_or_404(game_id)
    return render_template("play.html", active="play", game_id=game_id)


@bp.get("/join/<game_id>")
def join(game_id: str) -> str:
    """An online game's invite link: the friend gives a name and claims the open
    seat with the code in the link's #fragment (never sent to the server). The page
    says up front when the invite was used or has expired (`invite_status`, here)
    or its code is wrong (join/main.js asks ``POST .../invite-check``)."""
    services = page_services()
    try:
        summary, state = services.queries.get_game(game_id)
    except GameNotFound:
        abort(404)
    status = services.play.invite_status(game_id) if summary.mode == "online" else "not_online"
    open_seat = state.open_seat
    inviter = next((s.name for n, s in enumerate(state.seats, start=1)
                    if s.name and n != open_seat), summary.player_name)
    # who moves first (an online game's seat is drawn from its seed), whether the
    # creator allowed hints and whether the game is rated (the friend must sign in):
    # the friend sees them before joining
    return render_template("join.html", active="play", summary=summary, game_id=game_id,
                           first_mover=state.game.first_seat, hints=state.game.hints,
                           rated=state.game.rated, status=status, open_seat=open_seat,
                           inviter=inviter)


@bp.get("/how-to-play")
def how_to_play() -> str:
    return render_template("how_to_play.html", active="how")


@bp.get("/games")
def games() -> str:
    page = ascii_int(request.args.get("page", "1"))
    if page is None or not 1 <= page <= MAX_PAGE:
        abort(400, description=gettext("page must be a number from 1 to %(most)s",
                                       most=MAX_PAGE))
    player = (request.args.get("player") or "").strip() or None
    rows, total = page_services().queries.list_games(
        player=player, limit=GAMES_PER_PAGE, offset=(page - 1) * GAMES_PER_PAGE
    )
    pages = max(1, -(-total // GAMES_PER_PAGE))
    return render_template(
        "games.html", active="games", games=rows, total=total, page=page, pages=pages,
        player=player, accuracies=page_services().reviews.accuracies(g.game_id for g in rows),
        held=page_services().queries.held_seats([g.game_id for g in rows]),
    )


@bp.get("/games/<game_id>")
def replay(game_id: str) -> str:
    services = page_services()
    try:
        summary = services.queries.get_summary(game_id)
        series = services.queries.score_series(game_id)
    except GameNotFound:
        abort(404)
    steps = len(series)
    # Without ?step (the links of the games list and the high score table) or with
    # ?step=last the replay opens at the final position, like a chess site's game.
    wanted = request.args.get("step")
    # A number past either end shows that end; one that is not ASCII digits is a 400.
    if wanted is None or wanted in ("last", "end"):
        step = steps
    else:
        number = ascii_int(wanted)
        if number is None:
            abort(400, description=gettext("step must be a number from 1 to %(steps)s, or last",
                                           steps=steps))
        step = number
    step = min(max(step, 1), steps)
    data: dict[str, Any] = {
        "height": summary.height,
        "width": summary.width,
        "game_id": game_id,
        "steps": steps,
        "step": step,
        "series": series,
        # the names now, from the read model (an online game's seat 2 is named later)
        "names": {"1": first_seat(summary),
                  "2": summary.second_name and second_seat(summary)},
    }
    return render_template(
        "replay.html", active="games", summary=summary, data=data, steps=steps, step=step
    )


LIVE_GAMES_SHOWN = 50


@bp.get("/watch/<game_id>")
def watch(game_id: str) -> str:
    """A game's live board for anyone, read-only: watch/main.js follows the game's
    Server-Sent Events (``/api/games/<id>/live``). An unknown id is a 404."""
    summary = _summary_or_404(game_id)
    return render_template("watch.html", active="live", summary=summary, game_id=game_id)


LIVE_RECENT = timedelta(minutes=10)  # /live lists the games with a move this recent


def _live_games() -> dict[str, Any]:
    """What `/live` shows: the active games with a move in the last ten minutes
    (`LIVE_RECENT`; older ones are left out, the replays list has them), the latest
    move first, by the same query and the same rule as ``GET
    /api/games?status=active`` (`list_games`: a game past its time, e.g. one against
    the computer that its human left ``SQUARES_ABANDON_AFTER`` ago, is left out even
    before the sweep abandons it), each row with the texts the page shows, so that the
    first paint (Jinja) and the updates (live/main.js, from `/live.json`) show the
    same."""
    rows, total = page_services().queries.list_games(
        status="active", limit=LIVE_GAMES_SHOWN, by_last_move=True, moved_within=LIVE_RECENT)
    shown = len(rows)
    minutes = int(LIVE_RECENT.total_seconds() // 60)
    caption = (ngettext("%(num)d game with a move in the last %(minutes)d minutes, the latest "
                        "move first", "%(num)d games with a move in the last %(minutes)d "
                        "minutes, the latest move first", total, minutes=minutes)
               + (ngettext(" (the %(num)d latest shown).", " (the %(num)d latest shown).",
                           shown) if shown < total else "."))
    return {"games": [_live_row(g) for g in rows], "total": total, "caption": caption}


def _live_row(g: GameSummary) -> dict[str, Any]:
    return {
        "game_id": g.game_id,
        "version": g.version,
        "round": g.round,
        "ranked": g.ranked,
        "assisted": g.assisted,
        "player_name": first_seat(g),
        "second_seat": second_seat(g),
        "first_url": seat_url(g, 1),  # their players' pages (None: a computer, an open seat)
        "second_url": seat_url(g, 2),
        "score1": g.score1,
        "score2": g.score2,
        "last_move": human_utc(g.updated_at, "second"),
        "kind": game_class(g),
        "field": field_size(g),
        "length": game_length(g),
        "watch_url": url_for("web.watch", game_id=g.game_id),
    }


@bp.get("/live")
def live() -> str:
    """The active games with a move in the last ten minutes, the latest move first,
    each with a Watch link; live/main.js keeps the list current (``/live.json`` every
    ``SQUARES_LIVE_POLL_MS`` while shown)."""
    poll_ms = settings.of_app(current_app).live_poll_ms
    return render_template("live.html", active="live", poll_ms=poll_ms, **_live_games())


@bp.get("/live.json")
def live_json() -> Response:
    """The rows of `/live` as JSON, for live/main.js's poll: ``{games: [...], total,
    caption}``. One read of the games table, like the page; with an ETag, so a
    poll that finds nothing new is answered 304 (``no-cache``: the browser asks
    every time, and keeps the body meanwhile)."""
    response = jsonify(_live_games())
    response.headers["Cache-Control"] = "no-cache"
    response.add_etag()
    response.make_conditional(request)  # in place (it returns werkzeug's base type)
    return response

