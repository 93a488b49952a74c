"""What the newcomer tests of the play, review and rematch screens share
(`test_newcomer_play_screen.py`, `test_newcomer_review_and_rematch.py`): a
checked page in either colour scheme, a game opened as its player, boxes on screen."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .conftest import LiveServer, browser_context, checked_page
from .helpers import BOARD, own

SCHEMES = ("light", "dark")


@contextlib.contextmanager
def opened(browser: Any, live_server: LiveServer, size: str,
           scheme: str = "light") -> Iterator[Any]:
    """A checked page at `size` in colour scheme `scheme` (the phone has touch)."""
    with browser_context(browser, live_server.base_url, size, color_scheme=scheme) as context, \
            checked_page(context, live_server.base_url) as page:
        yield page


def phone(page: Any) -> bool:
    return bool(page.viewport_size["width"] < 600)


def open_game(page: Any, game: dict[str, Any], seat: int = 1) -> None:
    """Open the game as the browser that holds its token. Its stages wait for the
    player's press (the page's own moving on of a stage without a choice, play/auto.js,
    turned off as a player can): the tests press "End turn" themselves."""
    own(page, game, seat=seat)
    page.evaluate("localStorage.setItem('squares.autoAdvance', 'off')")
    page.goto(f"/play/{game['game_id']}")
    page.wait_for_selector(f"{BOARD}[data-version]")


def in_viewport(page: Any, selector: str) -> dict[str, float]:
    """The box of `selector`, asserted wholly inside the window."""
    box = page.locator(selector).bounding_box()
    view = page.viewport_size
    assert box is not None and box["x"] >= -0.5 and box["y"] >= -0.5, (selector, box)
    assert box["x"] + box["width"] <= view["width"] + 0.5, (selector, box)
    assert box["y"] + box["height"] <= view["height"] + 0.5, (selector, box)
    return dict(box)


def overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return bool(a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
                and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])
