"""JSON views of the domain: plain dicts shaped as `response_schemas` documents them.

The views are built by hand rather than dumped through marshmallow: a state
on the default field holds hundreds of lines and this is the hot path of every
move. `tests/api` checks each view against its schema, so the two cannot drift.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import current_app, url_for

from ..domain import daily
from ..domain.commands import Advance, PlaceLine
from ..domain.events import SEAT_LETTERS
from ..domain.ranking import table_of
from ..domain.rules import abortable, legal_actions
from ..domain.state import GameState, TurnRecord
from ..ops import settings
from ..protocol.event_json import event_data, timestamp
from ..services import GameSummary, Invite
from ..services.results import Hint


def state_view(game_id: str, state: GameState) -> dict[str, Any]:
    lines = [{"x": x, "y": y, "by": by} for x, y, by in state.drawn_lines()]
    boxes = [{"x": x, "y": y, "owner": owner} for x, y, owner in state.owned_boxes()]
    legal = legal_actions(state)
    game = state.game
    return {
        "game_id": game_id,
        "version": state.version,
        "mode": game.mode,
        "difficulty": game.difficulty,
        "seed": state.public_seed,  # never the secret of a ranked game still running
        "seed_commitment": game.seed_commitment,
        "ranked": game.ranked,
        "daily": state.daily is not None,
        "practice": daily.practice(state),
        "assisted": state.assisted,
        "table": table_of(state),
        "hints": game.hints,
        "rated": game.rated,
        "first_seat": game.first_seat,
        "height": state.height,
        "width": state.width,
        "seats": [
            {"seat": n, "name": s.name, "kind": s.kind, "level": s.level,
             "letter": SEAT_LETTERS[n]}
            for n, s in enumerate(state.seats, start=1)
        ],
        "open_seat": state.open_seat,
        "round": state.round,
        "turn": state.turn,
        "stage": state.stage,
        "over": state.over,
        "winner": state.winner,
        "abandoned": state.abandoned,
        "resigned": state.resigned,
        "aborted": state.aborted,
        "abortable": abortable(state),
        "scores": list(state.scores),
        "squares": list(state.squares),
        "penalties": list(state.penalties),
        "ownerless": state.ownerless,
        "lines": lines,
        "boxes": boxes,
        "current_turn": _turn_view(state.current_turn),
        "last_turn": _turn_view(state.last_turn) if state.last_turn else None,
        "last_pieces": [event_data(piece) for piece in state.last_pieces],
        "explanations": [
            event_data(state.explanations[seat]) for seat in sorted(state.explanations)
        ],
        "legal": {
            "seat": legal.seat,
            "lines": [list(p) for p in legal.lines],
            "can_advance": legal.can_advance,
        },
    }


def _turn_view(turn: TurnRecord) -> dict[str, Any]:
    return {
        "seat": turn.seat,
        "lines": [list(p) for p in turn.lines],
        "squares": [list(p) for p in turn.squares],
    }


def summary_view(summary: GameSummary) -> dict[str, Any]:
    """Every `GameSummary` field, datetimes as ISO 8601 text (see `SummarySchema`)."""
    view = dict(vars(summary))
    for name, value in view.items():
        if isinstance(value, datetime):
            view[name] = timestamp(value)
    return view


def hint_view(hint: Hint) -> dict[str, Any]:
    command = hint.command
    game = {"version": hint.version, "assisted": hint.assisted}
    if isinstance(command, PlaceLine):
        return {"seat": command.seat, "action": "line", "x": command.x, "y": command.y,
                **game}
    assert isinstance(command, Advance), command
    return {"seat": command.seat, "action": "advance", **game}


def invite_view(game_id: str, invite: Invite) -> dict[str, Any]:
    """An online game's invite as its creator gets it: the code, the join page's
    link and when it expires."""
    return {"code": invite.code, "url": _invite_url(game_id, invite.code),
            "expires_at": timestamp(invite.expires_at)}


def _invite_url(game_id: str, code: str) -> str:
    """The join page with the code in its #fragment, on ``SQUARES_PUBLIC_URL`` when
    set (the address players use, e.g. behind a proxy), else on this request's host."""
    public = settings.of_app(current_app).public_url
    page = (public + url_for("web.join", game_id=game_id) if public
            else url_for("web.join", game_id=game_id, _external=True))
    return f"{page}#code={code}"
