"""The unit tests' shared check modules get pytest's assertion rewriting, as test
modules do: their asserts are the tests' own checks (a review against the events,
a search against the brute force), and a failure should show the values compared.
Registered here, before any test module of this folder imports them."""

import pytest

pytest.register_assert_rewrite(
    "tests.unit.review_brute",
    "tests.unit.review_games",
    "tests.unit.review_positions",
    "tests.unit.rules_T_support",
)
