"""The browser the e2e tests drive (`conftest.launch_chromium`) runs with what our
launch gives it: ``CHROMIUM_ARGS``, and one ``--disable-features``, the last of its
command line (the one Chromium keeps), that turns off every feature turned off before
it (Playwright's own list) and ours, ``FEATURES_OFF``.

What Chromium does with those features, and whether it has them at all, is Chromium's
business: nothing here depends on it (docs/design.md, "What we rely on")."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import CHROMIUM_ARGS, FEATURES_OFF, command_line, feature_lists

pytestmark = pytest.mark.e2e


def test_the_browser_keeps_playwrights_features_off_and_turns_ours_off(
        browser: Any) -> None:
    args = command_line(browser)
    assert set(CHROMIUM_ARGS) <= set(args), args
    lists = feature_lists(args)
    assert lists, args
    *before, ours = lists  # ours is the last: the one Chromium keeps
    assert set(ours) == {f for features in before for f in features} | set(FEATURES_OFF)
