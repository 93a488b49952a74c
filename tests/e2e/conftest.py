"""Browser tests: ``squares serve`` on loopback ports, a temp SQLite file, Debian's
Chromium.

The server runs as shipped (`squares_testing.server`: the app on a port, its live
streams on the next) on a copy of the root conftest's migrated SQLite template; the
reliability tests' servers and databases come from ``reliability_helpers.py``.

One server and one browser serve the whole e2e session (under pytest-xdist each worker
is a session: its own server on free ports, its own browser); every test gets a fresh
browser context (so its own localStorage) and plays its own games.

Shared here: `browser_context` (a context at a size: ``DESKTOP``, or a name of
``SIZES``; a phone has touch), `watch_page` / `checked_page` (page errors, console
errors and requests that leave the app are noted, and asserted none), the ``sized``
fixture (a context per size for a whole module) with ``sized_page``, `screenshot`
(to a path, or by name under ``$SQUARES_SCREENSHOTS``), `play_by_api` (hints: the game
is assisted), `finish_unassisted` (no hint: a ranked game enters its table) and
``LiveServer.send`` (a `squares_testing.play.Send`).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from squares_testing.play import play_hints, play_own_moves
from squares_testing.server import start_server
from tests.databases import copy_sqlite

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
# Chromium features `launch_chromium` turns off, for speed only: the omnibox popup of
# the browser's own hidden window, a WebUI page in a renderer of its own, took about a
# quarter of Chromium's CPU in these tests (2026-11-28: test_pages.py with
# test_end_screen.py, 35 CPU-s with it, 25 without). A Chromium without the popup or
# without these names ignores them (docs/design.md, "What we rely on").
FEATURES_OFF = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
DESKTOP = (1280, 820)  # the size of the one-size tests
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}  # the tests at both sizes
PHONE_BELOW = 600  # px wide: a phone (touch, mobile)
BAD_IMPACTS = {"serious", "critical"}  # accessibility violations that fail a test
TIMEOUT_MS = 20_000

# Runs before any script of every document: each `securitypolicyviolation` event is
# kept on the window and also logged, so the console listener sees it across
# navigations.
REPORT_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  const v = { directive: e.violatedDirective, blocked: e.blockedURI,
              source: e.sourceFile, line: e.lineNumber, sample: e.sample };
  window.__cspViolations.push(v);
  console.error("securitypolicyviolation " + JSON.stringify(v));
});
"""

# Lets a test hide and show the tab as the browser does when the tab is switched
# (``document.visibilityState`` and a ``visibilitychange`` event).
VISIBILITY = """
(() => {
  let shown = "visible";
  Object.defineProperty(Document.prototype, "visibilityState",
                        { configurable: true, get: () => shown });
  Object.defineProperty(Document.prototype, "hidden",
                        { configurable: true, get: () => shown === "hidden" });
  window.__setVisibility = (value) => {
    shown = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})();
"""


def live_origin(base_url: str) -> str:
    """Where the pages of the server at `base_url` open live streams: the next port
    (``squares serve --port P`` serves them on P + 1; the in-process servers too)."""
    scheme_host, _, port = base_url.rpartition(":")
    return f"{scheme_host}:{int(port) + 1}"


@dataclass(frozen=True)
class LiveServer:
    base_url: str
    database_url: str

    @property
    def live_url(self) -> str:
        return live_origin(self.base_url)

    def send(self, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        """One request over real HTTP (`body` as JSON, `token` as the bearer token);
        (its status, its JSON)."""
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        data = None
        if body is not None:
            headers["Content-Type"] = "application/json"
            data = json.dumps(body).encode()
        request = urllib.request.Request(self.base_url + path, data=data, headers=headers,
                                         method=method)
        try:
            with urllib.request.urlopen(request, timeout=30) as resp:
                return resp.status, json.loads(resp.read().decode("utf-8"))
        except urllib.error.HTTPError as error:
            with contextlib.closing(error):
                raw = error.read()
            return error.code, json.loads(raw) if raw.startswith(b"{") else None

    def get_json(self, path: str, token: str | None = None) -> Any:
        """GET a JSON document from the running app over real HTTP (with `token` as
        the bearer token, e.g. an online game's hint for the seat to move)."""
        status, data = self.send("GET", path, None, token)
        assert status == 200, (path, status, data)
        return data

    def post_json(self, path: str, body: Any, token: str | None = None) -> Any:
        """POST a JSON body over real HTTP; the answer's JSON (a 2xx)."""
        status, data = self.send("POST", path, body, token)
        assert 200 <= status < 300, (path, status, data)
        return data


def play_by_api(live_server: LiveServer, game_id: str, token: str, rounds: int) -> None:
    """Human actions chosen by the hint endpoint (the computer answers) until round
    `rounds` + 1 begins or the game ends; the game is read before each (which plays a
    computer turn the server still owes). The game is assisted (RULES E1)."""
    play_hints(live_server.send, game_id, token, rounds=rounds, reread=True)


def finish_unassisted(live_server: LiveServer, game_id: str, token: str) -> dict[str, Any]:
    """Play the human seats to the end without a hint (`own_move`): a ranked game
    enters its high score table. The final state."""
    return play_own_moves(live_server.send, game_id, token)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory,
                sqlite_template: Path) -> Iterator[LiveServer]:
    tmp = tmp_path_factory.mktemp("e2e-db")
    url = copy_sqlite(sqlite_template, tmp / "squares.db")
    # One session-wide server that every page test shares: no rate limits here
    # (tests/api/test_public_surface.py checks them), nor a cap on the games one
    # address has going (tests/api/test_retention.py): `start_server`'s defaults.
    # Every browser here is on 127.0.0.1: trusting one proxy lets a test give a
    # browser context an address of its own (an ``X-Forwarded-For`` its requests
    # get on the way, tests/e2e/browsers.py), so two spectators count as two viewers.
    server = start_server(url, log_path=tmp / "server.log",
                          env={"SQUARES_TRUSTED_PROXIES": "1", "SQUARES_ANALYST": "0"})
    try:
        yield LiveServer(server.base_url, url)
    finally:
        server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
        pytest.fail("Debian's chromium is not installed (./dev test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = launch_chromium(pw)
        try:
            yield chromium
        finally:
            chromium.close()


def launch_chromium(pw: Any) -> Any:
    """Debian's Chromium, headless, with ``CHROMIUM_ARGS``, and `FEATURES_OFF` off on
    top of the features Playwright turns off. Chromium keeps only the last
    ``--disable-features``, so ours carries Playwright's list, read from a first
    browser's command line: a Playwright release that changes its list changes ours."""
    first = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    try:
        theirs = disabled_features(first)
    finally:
        first.close()
    off = ",".join([*theirs, *FEATURES_OFF])
    return pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                              args=[*CHROMIUM_ARGS, f"--disable-features={off}"])


def disabled_features(browser: Any) -> list[str]:
    """The features `browser` runs with turned off: the last ``--disable-features``
    of its command line (Chromium keeps only the last)."""
    lists = feature_lists(command_line(browser))
    return lists[-1] if lists else []


def feature_lists(args: list[str]) -> list[list[str]]:
    """Every ``--disable-features`` list of the command line `args`, in order."""
    return [a.removeprefix("--disable-features=").split(",") for a in args
            if a.startswith("--disable-features=")]


def command_line(browser: Any) -> list[str]:
    """The command line of `browser`'s own process: its process id from the DevTools
    protocol (``SystemInfo.getProcessInfo``), its arguments from /proc."""
    processes = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")
    pids = [p["id"] for p in processes["processInfo"] if p.get("type") == "browser"]
    assert len(pids) == 1, f"no one browser process in Chromium's answer: {processes}"
    return Path(f"/proc/{pids[0]}/cmdline").read_text().split("\0")


def new_context(browser: Any, base_url: str, size: str | tuple[int, int] = DESKTOP, *,
                bypass_csp: bool = True, **options: Any) -> Any:
    """A fresh browser context on `base_url` at `size` (width, height, or a name in
    ``SIZES``), a phone (narrower than ``PHONE_BELOW``) with touch. `bypass_csp`:
    Playwright's wait_for_function evaluates its check with eval(), which the pages'
    Content-Security-Policy forbids (tests/e2e/test_csp.py enforces it); tests that
    check the policy pass False."""
    width, height = SIZES[size] if isinstance(size, str) else size
    phone = width < PHONE_BELOW
    context = browser.new_context(viewport={"width": width, "height": height},
                                  base_url=base_url, bypass_csp=bypass_csp, has_touch=phone,
                                  is_mobile=phone, **options)
    context.set_default_timeout(TIMEOUT_MS)
    return context


@contextlib.contextmanager
def browser_context(browser: Any, base_url: str, size: str | tuple[int, int] = DESKTOP,
                    **options: Any) -> Iterator[Any]:
    """`new_context`, closed at exit."""
    context = new_context(browser, base_url, size, **options)
    try:
        yield context
    finally:
        context.close()


def watch_page(page: Any, base_url: str, errors: list[str], *, console: tuple[str, ...] = (),
               csp: bool = False) -> Any:
    """Note in `errors` every page error, console message of a type in `console`
    (e.g. ``("error", "assert")``) and request that leaves the app (every asset must
    come from the app itself); with `csp`, keep the policy's violations in
    ``window.__cspViolations`` (logged as console errors too). Returns `page`.

    Requests are watched, not intercepted: a ``page.route`` with a Python predicate
    sends every request of the page through the test process and back before Chromium
    may load it, which made page loads about a third slower."""
    if csp:
        page.add_init_script(REPORT_VIOLATIONS)
    page.on("pageerror", lambda exc: errors.append(f"page error: {exc}"))
    if console:
        page.on("console", lambda m: errors.append(f"{m.type}: {m.text} @ {page.url}")
                if m.type in console else None)

    ours = (base_url + "/", live_origin(base_url) + "/")
    page.on("request", lambda request: None if request.url.startswith(ours)
            else errors.append(f"external request: {request.url}"))
    return page


@contextlib.contextmanager
def checked_page(context: Any, base_url: str, **watch: Any) -> Iterator[Any]:
    """A new page of `context`, watched (`watch_page`): none of it may have happened by
    the end (asserted); closed at exit."""
    errors: list[str] = []
    page = watch_page(context.new_page(), base_url, errors, **watch)
    try:
        yield page
        assert errors == [], errors
    finally:
        page.close()


@pytest.fixture
def page(browser: Any, live_server: LiveServer) -> Iterator[Any]:
    with browser_context(browser, live_server.base_url) as context, \
            checked_page(context, live_server.base_url) as pg:
        yield pg


@pytest.fixture(params=sorted(SIZES), scope="module")
def sized(request: Any, browser: Any, live_server: LiveServer) -> Iterator[tuple[str, Any]]:
    """(the size's name, a browser context of that size) for a whole module: desktop,
    then phone with touch."""
    with browser_context(browser, live_server.base_url, request.param) as context:
        yield request.param, context


@pytest.fixture
def sized_page(sized: tuple[str, Any], live_server: LiveServer) -> Iterator[Any]:
    """A checked page (`checked_page`) of the ``sized`` context."""
    with checked_page(sized[1], live_server.base_url) as pg:
        yield pg


@pytest.fixture
def watcher(browser: Any, live_server: LiveServer) -> Iterator[tuple[Any, list[str]]]:
    """A page with the CSP enforced, and the errors it reports (console, page errors,
    requests that leave the app)."""
    errors: list[str] = []
    with browser_context(browser, live_server.base_url, bypass_csp=False) as context:
        page = watch_page(context.new_page(), live_server.base_url, errors,
                          console=("error", "assert"), csp=True)
        yield page, errors


@functools.cache
def _axe_script() -> str:
    from axe_playwright_python.sync_playwright import Axe

    return str(Axe().axe_script)


def axe_run(page: Any) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now. axe is put into a document
    once (its 570 kB script took about 70 ms a time): a page checked again, such as
    in both colour schemes, runs the one already there."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_axe_script())
    violations: list[dict[str, Any]] = page.evaluate(
        "() => axe.run({resultTypes: ['violations']}).then(r => r.violations)")
    return violations


def axe_violations(page: Any) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on the page."""
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(", ".join(n["target"]) for n in v["nodes"][:5])
        for v in axe_run(page)
        if v["impact"] in BAD_IMPACTS
    ]


def screenshot_dir() -> Path:
    """``$SQUARES_SCREENSHOTS`` (default ``build/screenshots``, which git ignores)."""
    path = Path(os.environ.get("SQUARES_SCREENSHOTS") or "build/screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def screenshot(page: Any, where: Path | str) -> Path:
    """A full-page screenshot at the path `where`, or, given a name, as
    ``<name>-<width>x<height>.png`` in `screenshot_dir`; its path, printed."""
    if isinstance(where, str):
        size = page.viewport_size
        where = screenshot_dir() / f"{where}-{size['width']}x{size['height']}.png"
    page.screenshot(path=str(where), full_page=True)
    print(f"screenshot: {where}")
    return where
