"""The browser the e2e tests drive (`conftest.launch_chromium`): its own omnibox popup,
a WebUI page in a renderer of its own, is off, and every feature Playwright turns off
stays off."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS, FEATURES_OFF, disabled_features

pytestmark = pytest.mark.e2e


def omnibox_pages(browser: Any) -> list[str]:
    """The omnibox popup's pages of `browser`, with a page of ours open (a window)."""
    context = browser.new_context()
    try:
        context.new_page().goto("data:text/html,<p>a window</p>")
        targets = browser.new_browser_cdp_session().send(
            "Target.getTargets", {"filter": [{}]})["targetInfos"]
    finally:
        context.close()
    return [t["url"] for t in targets if "omnibox" in t["url"]]


def test_the_browser_has_no_omnibox_popup_and_keeps_playwrights_features_off(
        browser: Any) -> None:
    assert omnibox_pages(browser) == []
    default = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                          args=CHROMIUM_ARGS)
    try:
        playwrights = disabled_features(default)
        assert omnibox_pages(default), \
            "the popup FEATURES_OFF turns off is gone by default: they can go"
    finally:
        default.close()
    assert playwrights, "Playwright turns some features off"
    assert set(disabled_features(browser)) == {*playwrights, *FEATURES_OFF}
