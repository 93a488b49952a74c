"""A game's events after a position as the SSE text a stream sends: what the streams
server's shared reads (`reads`) and the Flask app's polling answer
(`service.api.feed`) both read."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from ..api.views import event_view
from .reads import Page
from .sse import sse_event

if TYPE_CHECKING:
    from ..services import Services


def page_reader(services: Services) -> Callable[[str, int], Page]:
    """``read(game_id, after)``: the page of `game_id`'s events after `after`, each as
    ``/events`` shows it."""

    def read(game_id: str, after: int) -> Page:
        events, version, over = services.queries.live_page(game_id, after)
        messages = tuple((e.seq, sse_event(e.seq, e.event.TYPE, event_view(e)))
                         for e in events)
        return Page(messages, version, over)

    return read
