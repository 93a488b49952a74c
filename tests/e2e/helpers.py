"""Driving the play page like a person: the form, the keyboard, the mouse, the hint button."""

from __future__ import annotations

import json
from typing import Any

from squares_testing.play import play_hints

BOARD = "#board"


def start_game(page: Any, name: str, *, size: str = "7x9", seed: int | None = None,
               difficulty: str = "easy", second_name: str | None = None) -> str:
    """Fill the start form on `/`, start, wait for the board; return the game id."""
    page.goto("/")
    page.fill("#player-name", name)
    if second_name is not None:
        page.check('input[name="mode"][value="two_players"]')
        page.fill("#second-name", second_name)
    else:
        page.select_option("#difficulty", difficulty)
    page.click("details.more summary")
    page.select_option("#field-size", size)
    if seed is not None:
        page.fill("#seed", str(seed))
    page.click("#start-btn")
    page.wait_for_selector("#game:not([hidden])")
    page.wait_for_selector(f"{BOARD}[data-version]")
    saved = page.evaluate("JSON.parse(localStorage.getItem('squares.game'))")
    return str(saved["game_id"])


def version(page: Any) -> int:
    return int(page.get_attribute(BOARD, "data-version"))


def stage(page: Any) -> int:
    return int(page.get_attribute(BOARD, "data-stage"))


def is_over(page: Any) -> bool:
    return page.get_attribute(BOARD, "data-over") == "true"


# The page's state is newer than `old` and drawn whole. A turn still being animated is
# skipped with the page's Skip button, as a player who does not watch it does: the
# animation has its own tests (tests/e2e/test_computer_turn_panel.py and others), which
# wait for it; here its 300 ms a step only slowed the games played through (the ten
# files that play them: 116 s -> 106 s on two workers).
NEWER_AND_DRAWN = """old => {
  const board = document.querySelector('#board');
  if (!board.classList.contains('animating')) return Number(board.dataset.version) > old;
  const skip = document.querySelector('#skip-btn');
  if (skip && !skip.hidden) skip.click();
  return false;
}"""


def wait_for_new_version(page: Any, old: int) -> int:
    """Wait until the page shows a state newer than `old`, any animated turn skipped."""
    page.wait_for_function(NEWER_AND_DRAWN, arg=old)
    return version(page)


def cursor(page: Any) -> tuple[int, int]:
    c = page.locator(f"{BOARD} .cursor")
    return int(c.get_attribute("data-x")), int(c.get_attribute("data-y"))


def move_cursor_to(page: Any, x: int, y: int) -> None:
    """Arrow keys only: rows first (Up/Down), then along the row (Left/Right)."""
    for _ in range(200):
        cx, cy = cursor(page)
        if (cx, cy) == (x, y):
            return
        if cy != y:
            page.keyboard.press("ArrowDown" if y > cy else "ArrowUp")
        else:
            page.keyboard.press("ArrowRight" if x > cx else "ArrowLeft")
    raise AssertionError(f"the cursor did not reach ({x}, {y}); it is at {cursor(page)}")


def slot(page: Any, x: int, y: int) -> Any:
    return page.locator(f'{BOARD} .slot[data-x="{x}"][data-y="{y}"]')


def ask_hint(page: Any) -> str:
    """Press the Hint button; return "advance" or "x,y"."""
    page.evaluate("delete document.querySelector('#message').dataset.hint")
    page.click("#hint-btn")
    page.wait_for_function("document.querySelector('#message').dataset.hint")
    return str(page.get_attribute("#message", "data-hint"))


def follow_hint(page: Any, *, use_keyboard: bool = False) -> None:
    """One action chosen by the Hint button, played by mouse (or keyboard). (The first
    hint of a game moves the page one version on, hint_used: the move is awaited past
    the version the page shows after the hint.)"""
    hint = ask_hint(page)
    before = version(page)
    if hint == "advance":
        if use_keyboard:
            page.keyboard.press("Enter")
        else:
            page.click("#advance-btn")
    else:
        x, y = (int(v) for v in hint.split(","))
        if use_keyboard:
            # The hint already put the cursor on its slot.
            assert cursor(page) == (x, y)
            page.keyboard.press("Space")
        else:
            slot(page, x, y).click()
    wait_for_new_version(page, before)


def own_action(page: Any, *, use_keyboard: bool = False, placed: bool = False) -> bool:
    """One action chosen without a hint (the game stays unassisted): stage 2 draws the
    first empty slot unless its line is `placed`, every other stage ends. Whether a
    stage-2 line was placed now."""
    before = version(page)
    line = stage(page) == 2 and not placed
    if line:
        page.locator(f"{BOARD} .slot.empty").first.click()
    elif use_keyboard:
        page.keyboard.press("Enter")
    else:
        page.click("#advance-btn")
    wait_for_new_version(page, before)
    return line


def play_unassisted_until_over(page: Any, max_actions: int = 400) -> int:
    """`own_action` (alternating mouse and keyboard) until the game ends: a ranked
    game stays ranked (RULES E1)."""
    placed = False
    for n in range(max_actions):
        if is_over(page):
            return n
        if stage(page) != 2:
            placed = False
        placed = own_action(page, use_keyboard=n % 2 == 1, placed=placed) or placed
    raise AssertionError(f"the game did not end within {max_actions} actions")


def play_until_over(page: Any, max_actions: int = 200) -> int:
    """Follow hints (alternating mouse and keyboard) until the game ends (the game is
    then assisted: RULES E1)."""
    for n in range(max_actions):
        if is_over(page):
            return n
        follow_hint(page, use_keyboard=n % 2 == 1)
    raise AssertionError(f"the game did not end within {max_actions} actions")


def own(page: Any, game: dict[str, Any], seat: int = 1) -> None:
    """Give this browser the game's token (as the play page keeps it, common/store.js)."""
    page.goto("/how-to-play")
    entry = {game["game_id"]: {"token": game["token"], "at": 1, "seat": seat}}
    page.evaluate("v => localStorage.setItem('squares.tokens', v)", json.dumps(entry))


def finished_online_game(live_server: Any) -> tuple[str, dict[int, str]]:
    """An online game on 7 x 9 (seed 3) that Ann made, Bob joined and both played to its
    end with the hints: its id and each seat's token."""
    created = live_server.post_json("/api/games", {"player_name": "Ann", "mode": "online",
                                                   "hints": True, "height": 7, "width": 9,
                                                   "seed": 3})
    game_id = created["game_id"]
    claimed = live_server.post_json(f"/api/games/{game_id}/claim",
                                    {"code": created["invite"]["code"], "name": "Bob"})
    tokens = {1: created["token"], 2: claimed["token"]}
    play_hints(live_server.send, game_id, tokens)
    return game_id, tokens
