"""Two browsers play an online game to the end while a third watches (the invite
link, the join page, moves arriving over the live feed), each browser its own
context (its own localStorage and client address, as separate people would have),
driven in Debian's Chromium with the pages' Content-Security-Policy enforced, so
every wait goes through `expect` or `poll` (Playwright's `wait_for_function` needs
eval): A starts a ranked game with hints through the form and reads the invite link
from the page, B opens that link and joins, C watches, D tries the used link, a
wrong code and a link without code. Who moves first is drawn from the game's secret
seed (``first_seat``). Every action is a click on the page whose seat is to move (the
move read from the game's state, never from a hint, which would unrank the game), but
for a stage without a choice, which that page ends by itself.
The pages keep, on their root element, the sequence numbers of the events they
applied (``data-seqs``), compared at the end with ``GET /api/games/<id>/events``."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .browsers import Browser, synced
from .conftest import LiveServer, screenshot
from .helpers import BOARD, NEWER_AND_DRAWN, slot
from .test_csp import poll

pytestmark = pytest.mark.e2e

# A ranked game's seed is secret, so its length is not chosen: on 9 x 13 both seats
# always get to move (on 7 x 9 the first mover ends about one game in eight alone).
RANKED_SIZE = "9x13"


@pytest.fixture
def people(browser: Any, live_server: LiveServer) -> Iterator[dict[str, Browser]]:
    made = {
        "A": Browser(browser, live_server, address="203.0.113.1"),
        "B": Browser(browser, live_server, address="203.0.113.2"),
        "C": Browser(browser, live_server, address="203.0.113.3"),
        # D's claims are refused on purpose: Chromium logs each refused request
        # ("Failed to load resource: 409") as a console error.
        "D": Browser(browser, live_server, console_errors=False, address="203.0.113.4"),
    }
    try:
        yield made
    finally:
        for person in made.values():
            person.context.close()


@pytest.mark.serial  # the whole game is timed (under a minute): run alone
def test_two_browsers_play_online_while_a_third_watches(
    people: dict[str, Browser], live_server: LiveServer, tmp_path: Path
) -> None:
    started = time.monotonic()
    a, b, c, d = (people[k].page for k in "ABCD")

    # A starts a ranked online game (no seed) through the form, allowing hints (off
    # unless ticked).
    a.goto("/")
    a.fill("#player-name", "Ann")
    expect(a.locator("#allow-hints")).to_be_hidden()
    a.check('input[name="mode"][value="online"]')
    expect(a.locator("#difficulty-label")).to_be_hidden()
    expect(a.locator("#allow-hints")).not_to_be_checked()
    a.check("#allow-hints")
    a.click("details.more summary")
    expect(a.locator("#seed-help")).to_contain_text("practice game, never in the high scores")
    a.select_option("#field-size", RANKED_SIZE)
    a.click("#start-btn")
    expect(a.locator("#invite")).to_be_visible()
    expect(a.locator("#invite")).to_contain_text("Waiting for your friend to join…")
    expect(a.locator("#invite-expiry")).to_contain_text("until")
    invite_url = a.input_value("#invite-url")
    match = re.fullmatch(re.escape(live_server.base_url) + r"/join/([0-9a-f]+)#code=(\S+)",
                         invite_url)
    assert match, invite_url
    game_id = match.group(1)
    expect(a).to_have_url(f"{live_server.base_url}/play/{game_id}")
    expect(a.locator("#advance-btn")).to_be_disabled()
    expect(a.locator("#hints-note")).to_have_text("Hints on")
    expect(a.locator("#practice-note")).to_be_hidden()
    created = live_server.get_json(f"/api/games/{game_id}")["state"]
    assert created["ranked"] and created["hints"] and created["seed"] is None
    first = created["first_seat"]  # drawn from the secret seed: Ann or her friend
    assert created["turn"] == first
    expect(a.locator("#prompt")).to_contain_text("the game starts when they join")
    stored = a.evaluate("JSON.parse(localStorage.getItem('squares.tokens'))")[game_id]
    assert stored["seat"] == 1 and stored["invite"]["url"] == invite_url and stored["token"]
    # "Copy link" copies (or selects the link for Ctrl+C) and says so.
    a.click("#copy-btn")
    expect(a.locator("#invite-copied")).to_contain_text("send it to your friend")
    # A reload still shows the invite while the seat is open.
    a.reload()
    expect(a.locator("#invite")).to_be_visible()
    assert a.input_value("#invite-url") == invite_url
    screenshot(a, tmp_path / "online-invite.png")

    # C watches from the start: the viewer count counts C.
    c.goto(f"/watch/{game_id}")
    expect(c.locator("#watch-root")).to_have_attribute("data-opened", "1")
    expect(c.locator("#viewers")).to_have_text("1 watching")

    # B opens the invite link, gives a name with the keyboard, lands on the game.
    b.goto(invite_url)
    expect(b.locator("h1")).to_contain_text("Ann invites you")
    expect(b.locator("#join-root .intro")).to_contain_text(
        "Ann moves first" if first == 1 else "you move first")
    expect(b.locator("#join-root .intro")).to_contain_text("hints are on")
    expect(b.locator("#join-name")).to_be_focused()
    b.keyboard.type("Bob")
    b.keyboard.press("Enter")
    expect(b).to_have_url(f"{live_server.base_url}/play/{game_id}")
    expect(b.locator(f"{BOARD}[data-version]")).to_have_count(1)
    stored = b.evaluate("JSON.parse(localStorage.getItem('squares.tokens'))")[game_id]
    assert stored["seat"] == 2 and stored["token"]
    expect(b.locator("#invite")).to_be_hidden()
    expect(b.locator("#hints-note")).to_have_text("Hints on")
    pages = {1: a, 2: b}
    names = {1: "Ann", 2: "Bob"}
    expect(b.locator("#st-turn")).to_have_text(names[first])

    # A learns of it from the live feed: the invite goes, Bob's name comes.
    expect(a.locator("#invite")).to_be_hidden()
    expect(a.locator("#status [data-field=name2]")).to_have_text("Bob")
    expect(a.locator("#message")).to_contain_text("Bob joined")
    # The seat drawn to move first has the turn; the other waits for it.
    expect(pages[first].locator("#advance-btn")).to_be_enabled()
    expect(pages[first].locator("#prompt")).to_contain_text("Your turn")
    expect(pages[3 - first].locator("#advance-btn")).to_be_disabled()
    expect(pages[3 - first].locator("#prompt")).to_contain_text(f"Waiting for {names[first]}")
    assert "invite" not in a.evaluate("JSON.parse(localStorage.getItem('squares.tokens'))")[game_id]
    expect(c.locator("#feed li").first).to_have_text("Bob joined")
    expect(c.locator(".replay-title .who-2")).to_have_text("Bob")

    # D: the used link, a wrong code, a link without a code, each said up front (no
    # form to fill first), each with a link to watch the game; then D watches too.
    d.goto(invite_url)
    error = d.locator("#join-error")
    expect(error).to_have_attribute("data-code", "invite_claimed")
    expect(error).to_contain_text("already been used")
    expect(d.locator("#join-form")).to_be_hidden()
    expect(error.get_by_role("link", name="Watch this game")).to_have_attribute(
        "href", f"/watch/{game_id}")
    screenshot(d, tmp_path / "online-join-used.png")
    d.goto("/how-to-play")  # a new document, so the join page starts afresh
    d.goto(f"/join/{game_id}#code=not-the-code")
    expect(error).to_have_attribute("data-code", "invite_claimed")  # used: whatever the code
    d.goto("/how-to-play")
    d.goto(f"/join/{game_id}")
    expect(error).to_have_attribute("data-code", "invite_claimed")
    expect(d.locator("#join-nocode")).to_be_hidden()
    expect(d.locator("#join-form")).to_be_hidden()
    assert d.evaluate("localStorage.getItem('squares.tokens')") is None  # D holds no seat
    d.goto(f"/watch/{game_id}")
    expect(c.locator("#viewers")).to_have_text("2 watching")
    people["D"].assert_clean("D")

    # A and B play to the end, each clicking on their own page when their seat is to move.
    assert people["A"].token(game_id) and people["B"].token(game_id)  # each page its seat
    actions = {1: 0, 2: 0}
    tried_other = False
    for _ in range(100):
        state = live_server.get_json(f"/api/games/{game_id}")["state"]
        if state["over"]:
            break
        seat, other = state["turn"], 3 - state["turn"]
        mover = pages[seat]
        if state["stage"] == 3 or (state["stage"] == 1 and not state["legal"]["lines"]):
            # No choice: the mover's page moves on by itself (play/auto.js).
            poll(mover, NEWER_AND_DRAWN, state["version"])
            actions[seat] += 1
            continue
        synced(mover, state["version"])
        synced(pages[other], state["version"])
        expect(mover.locator("#advance-btn")).to_be_enabled()
        expect(pages[other].locator("#advance-btn")).to_be_disabled()
        expect(pages[other].locator("#prompt")).to_contain_text(f"Waiting for {names[seat]}…")
        expect(pages[other].locator("#hint-btn")).to_be_disabled()
        # Moves chosen without a hint: a hint would unrank the game (RULES E1; the hint
        # button online: tests/e2e/test_trusted_highscores.py).
        lines = state["legal"]["lines"] if state["stage"] == 2 else []
        if not tried_other:
            tried_other = True
            # A click on the page whose seat is not to move sends nothing and says why.
            waiting = people["AB"[other - 1]]
            posts_before = len(waiting.posts)
            slot(pages[other], 1, 2).click()
            expect(pages[other].locator("#message")).to_have_attribute("data-code", "waiting")
            expect(pages[other].locator("#message")).to_contain_text(f"It is {names[seat]}'s turn")
            assert waiting.posts[posts_before:] == []
        if lines:
            slot(mover, *lines[0]).click()
        else:
            mover.click("#advance-btn")
        actions[seat] += 1
        poll(mover, NEWER_AND_DRAWN, state["version"])
    else:
        raise AssertionError("the game did not end within 100 actions")
    assert actions[1] > 0 and actions[2] > 0, actions

    final = live_server.get_json(f"/api/games/{game_id}")["state"]
    events = live_server.get_json(f"/api/games/{game_id}/events")["events"]
    seqs = [e["seq"] for e in events]
    assert seqs == list(range(1, final["version"] + 1))
    assert [e["type"] for e in events][:2] == ["game_created", "seat_claimed"]
    s1, s2 = final["scores"]
    seen = {"A": f"You {s1} · Bob {s2}", "B": f"Ann {s1} · You {s2}"}
    for who, page in (("A", a), ("B", b)):
        synced(page, final["version"])
        expect(page.locator("#over")).to_be_visible()
        expect(page.locator("#over-result")).to_contain_text(seen[who])
        expect(page.locator("#over-table tbody[data-loaded]")).to_have_count(1)
        # Every event once, in order: those the page opened with, then each applied.
        assert people[who].seqs("#play-root") == seqs, who
    watch_board = c.locator(BOARD)
    expect(watch_board).to_have_attribute("data-over", "true")
    expect(watch_board).to_have_attribute("data-version", str(final["version"]))
    expect(c.locator("#over-result")).to_contain_text(f"Ann {s1} · Bob {s2}")
    expect(c.locator("#feed li")).to_have_count(len(seqs) - 1)
    assert people["C"].seqs("#watch-root") == seqs[1:]
    captions = c.locator("#feed li")
    assert [int(captions.nth(i).get_attribute("data-seq") or 0)
            for i in range(captions.count())] == seqs[:0:-1]
    # The end in words: the secret seed revealed after game over; no "null" anywhere.
    revealed = next(e for e in events if e["type"] == "seed_revealed")
    expect(c.locator(f'#feed li[data-seq="{revealed["seq"]}"]')).to_have_text(
        f"The seed is revealed: {revealed['data']['seed']}, the one sealed at the start.")
    feed_text = " ".join(captions.all_text_contents())
    assert "null" not in feed_text and "undefined" not in feed_text, feed_text

    # Both humans are in the online table of their field size (RULES M2).
    table = live_server.get_json(
        "/api/highscores?limit=1000&height=9&width=13&mode=online")["high_scores"]
    mine = {(row["name"], row["score"], row["difficulty"]) for row in table
            if row["game_id"] == game_id}
    assert mine == {("Ann", final["scores"][0], "online"), ("Bob", final["scores"][1], "online")}
    for who, page in (("A", a), ("B", b)):
        rows = page.locator("#over-table tbody tr.mine")
        expect(rows).to_have_count(2)
        expect(rows.filter(has_text="◀ you")).to_have_count(1)
        expect(rows.filter(has_text="◀ you")).to_contain_text("Ann" if who == "A" else "Bob")

    page_names = {"A": a, "B": b, "C": c}
    for who, page in page_names.items():
        screenshot(page, tmp_path / f"online-over-{who}.png")
    # The finished game's feeds are closed, not reopened every second (the server
    # ends the stream after game over; EventSource would reconnect).
    streams = {who: len(people[who].live_requests) for who in page_names}
    assert all(streams.values()), streams
    time.sleep(1.5)
    assert {who: len(people[who].live_requests) for who in page_names} == streams
    for who in page_names:
        people[who].assert_clean(who)

    # The replay names the friend too: "Bob joined" with the start, Bob's turn by name;
    # the first turn is the seat drawn to move first's. The secret seed, revealed at the
    # end, is shown with the commitment made at the start.
    b.click("#over-replay")
    expect(b.locator('#moves a[data-step="2"]')).to_have_text("Bob joined")
    expect(b.locator("#moves .turn-head.who-2").first).to_contain_text("Bob")
    expect(b.locator("#moves .turn-head").first).to_have_class(re.compile(rf"\bwho-{first}\b"))
    expect(b.locator("#moves .turn-head").first).to_contain_text(names[first])
    created_event = events[0]["data"]
    revealed = next(e for e in events if e["type"] == "seed_revealed")
    assert created_event["seed"] is None and created_event["ranked"] is True
    expect(b.locator('#moves a[data-step="1"]')).to_have_attribute(
        "title", re.compile(re.escape(
            "The random pieces are sealed: the seed is revealed when the game ends.")))
    expect(b.locator(f'#moves a[data-step="{revealed["seq"]}"]')).to_have_attribute(
        "title", f"The seed is revealed: {revealed['data']['seed']}, the one sealed at the start.")
    b.goto(f"/games/{game_id}?step=1")
    expect(b.locator("#step-desc")).to_contain_text("The random pieces are sealed")
    expect(b.locator(".replay-title")).not_to_contain_text("practice")
    people["B"].assert_clean("B's replay")
    assert time.monotonic() - started < 60
