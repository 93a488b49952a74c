"""Retention: when an unfinished game is abandoned (the one statement of the rule).

Events carry no clock, so the times come from the caller: the game's last event
(the games row's ``updated_at``), now, the retention time (``SQUARES_ABANDON_AFTER``)
and, for an online game whose seat is still open, when its invitation expires.
`rules.decide` turns the reason into the ``game_abandoned`` event; the store
(`store.games.live`) states the same conditions in SQL, to list and count the games
that are not due and to find those that are.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .state import GameState


def abandon_reason(state: GameState, *, last_event_at: datetime, now: datetime,
                   abandon_after: timedelta,
                   invite_expires_at: datetime | None = None) -> str | None:
    """Why `state` is abandoned at `now`, or None while it may go on.

    ``invite_expired``: an online game whose invited seat is still open once its
    invitation has expired (at once, whatever the retention time); ``idle``: any
    unfinished game whose last event is `abandon_after` old or older.
    """
    if state.over:
        return None
    if state.open_seat is not None and invite_expires_at is not None \
            and invite_expires_at <= now:
        return "invite_expired"
    if now - last_event_at >= abandon_after:
        return "idle"
    return None
