"""A game's events after a position as the Server-Sent Events text a stream sends
(one message per event: ``id`` its seq, ``event`` its type, ``data`` the event as
``/events`` shows it): what the streams server's shared reads (`service.live.reads`)
and the Flask app's polling answer (`service.api.feed`) both send."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .event_json import event_view

if TYPE_CHECKING:
    from ..services import Services

GAME_OVER = b": game over\n\n"


def sse_event(seq: int, type_: str, data: dict[str, Any]) -> str:
    """One SSE message: ``id`` the sequence number, ``event`` the type, ``data`` JSON."""
    payload = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return f"id: {seq}\nevent: {type_}\ndata: {payload}\n\n"


@dataclass(frozen=True)
class Page:
    """The SSE text of the events after a position: one message per event (seq,
    text), the version they were read at, whether the game is over, and `body`: the
    messages as the bytes a stream sends (encoded once, here, for every stream)."""

    messages: tuple[tuple[int, str], ...]
    version: int
    over: bool
    body: bytes = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "body", "".join(text for _, text in self.messages).encode())

    @property
    def last_seq(self) -> int | None:
        return self.messages[-1][0] if self.messages else None

    @property
    def size(self) -> int:
        return 64 + 2 * len(self.body)


def page_reader(services: Services) -> Callable[[str, int], Page]:
    """``read(game_id, after)``: the page of `game_id`'s events after `after`, each as
    ``/events`` shows it."""

    def read(game_id: str, after: int) -> Page:
        events, version, over = services.queries.live_page(game_id, after)
        messages = tuple((e.seq, sse_event(e.seq, e.event.TYPE, event_view(e)))
                         for e in events)
        return Page(messages, version, over)

    return read
