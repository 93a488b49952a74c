"""Glicko-2 ratings (`service.domain.ratings`, docs/rules.md "Ratings"): Glickman's
worked example, the direction of every change, the idle period's growing deviation,
and the scores a game can have."""

import math

import pytest

from service.domain.ratings import (
    DEFAULT,
    SCALE,
    TAU,
    Rating,
    idle,
    rate,
    rate_game,
)

# "Example of the Glicko-2 system" (Glickman): a player rated 1500, RD 200, volatility
# 0.06 beats a 1400 (RD 30) and loses to a 1550 (RD 100) and a 1700 (RD 300).
PLAYER = Rating(1500.0, 200.0, 0.06)
EXAMPLE = [
    (Rating(1400.0, 30.0, 0.06), 1.0),
    (Rating(1550.0, 100.0, 0.06), 0.0),
    (Rating(1700.0, 300.0, 0.06), 0.0),
]


def test_RULES_ratings_glickman_example_as_printed() -> None:
    new = rate(PLAYER, EXAMPLE)
    # The paper rounds its figures between steps (μ' = −0.2069, so r' = 1464.06), so
    # its printed results are met to within their last printed digit.
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.deviation == pytest.approx(151.52, abs=0.005)
    assert new.volatility == pytest.approx(0.05999, abs=0.00001)
    assert round((new.rating - 1500) / SCALE, 4) == -0.2069
    assert round(new.deviation / SCALE, 4) == 0.8722


def test_RULES_ratings_glickman_example_unrounded() -> None:
    # The same steps without rounding between them (what other implementations of the
    # paper print too). The volatility pins step 5's f: with μ² in place of φ² it
    # would be 0.0599934, which the paper's printed 0.05999 does not tell apart.
    new = rate(PLAYER, EXAMPLE)
    assert new.rating == pytest.approx(1464.0507, abs=0.0001)
    assert new.deviation == pytest.approx(151.5165, abs=0.0001)
    assert new.volatility == pytest.approx(0.0599960, abs=0.0000001)


def _step5(player: Rating, results: list[tuple[Rating, float]], x: float) -> float:
    """The paper's f(x) of step 5 for `player` and `results`, from its formulas."""
    mu, phi = (player.rating - 1500) / SCALE, player.deviation / SCALE
    information = improvement = 0.0
    for opponent, score in results:
        g = 1 / math.sqrt(1 + 3 * (opponent.deviation / SCALE) ** 2 / math.pi**2)
        e = 1 / (1 + math.exp(-g * (mu - (opponent.rating - 1500) / SCALE)))
        information += g * g * e * (1 - e)
        improvement += g * (score - e)
    v = 1 / information
    delta = v * improvement
    a = math.log(player.volatility**2)
    ex = math.exp(x)
    return ex * (delta**2 - phi**2 - v - ex) / (2 * (phi**2 + v + ex) ** 2) - (x - a) / TAU**2


def test_RULES_ratings_upset_raises_volatility_to_the_root_of_step_5() -> None:
    # A settled 2000 losing twenty games to a settled 1400: results far from expected,
    # so the volatility rises, to the root of the paper's equation f(x) = 0 at
    # x = ln σ'², at a rating far from 1500 (where f's φ² and μ² differ).
    strong = Rating(2000.0, 50.0, 0.06)
    results = [(Rating(1400.0, 50.0, 0.06), 0.0)] * 20
    new = rate(strong, results)
    assert new.volatility > 0.065
    assert new.rating < strong.rating
    x = math.log(new.volatility**2)
    assert abs(_step5(strong, results, x)) < 0.00001
    # f falls through its root: the root is found, not just a small value of f
    assert _step5(strong, results, x - 0.001) > 0 > _step5(strong, results, x + 0.001)


def test_RULES_ratings_a_win_raises_a_loss_lowers() -> None:
    a, b = Rating(1600.0, 120.0, 0.06), Rating(1450.0, 200.0, 0.06)
    a_won, b_lost = rate_game(a, b, 1)
    assert a_won.rating > a.rating and b_lost.rating < b.rating
    a_lost, b_won = rate_game(a, b, 0)
    assert a_lost.rating < a.rating and b_won.rating > b.rating
    # The favourite gains less by winning than it loses by losing.
    assert a_won.rating - a.rating < a.rating - a_lost.rating
    # Here each deviation shrinks: what the game tells outweighs the period's growth.
    for before, after in ((a, a_won), (b, b_lost), (a, a_lost), (b, b_won)):
        assert after.deviation < before.deviation


def test_RULES_ratings_one_game_between_equals_is_zero_sum() -> None:
    winner, loser = rate_game(DEFAULT, DEFAULT, 1)
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert winner.rating > 1500
    assert winner.deviation == pytest.approx(loser.deviation)


def test_RULES_ratings_a_draw_between_equals_keeps_the_ratings() -> None:
    for player in (DEFAULT, Rating(1623.4, 80.0, 0.059)):
        a, b = rate_game(player, player, 0.5)
        assert a.rating == player.rating and b.rating == player.rating
        assert a.deviation < player.deviation


def test_RULES_ratings_one_game_is_one_rating_period() -> None:
    a, b = Rating(1530.0, 90.0, 0.06), Rating(1710.0, 240.0, 0.061)
    assert rate_game(a, b, 0.5) == (rate(a, [(b, 0.5)]), rate(b, [(a, 0.5)]))
    assert rate_game(a, b, 1) == (rate(a, [(b, 1)]), rate(b, [(a, 0)]))


def test_RULES_ratings_a_settled_player_meeting_a_new_one_widens() -> None:
    # The period's volatility widens the deviation before the game narrows it, and a
    # game against an unknown opponent tells little: the settled player's RD grows.
    settled = Rating(1500.0, 30.0, 0.06)
    after, newcomer = rate_game(settled, DEFAULT, 0.5)
    assert after.deviation > settled.deviation
    assert newcomer.deviation < DEFAULT.deviation


def test_RULES_ratings_an_idle_period_grows_the_deviation() -> None:
    new = idle(PLAYER)
    # φ* = sqrt(φ² + σ²): 200 and 0.06 × 173.7178 = 10.42 in quadrature
    assert new.deviation == pytest.approx(math.sqrt(200.0**2 + (0.06 * SCALE) ** 2))
    assert new.deviation == pytest.approx(200.2714, abs=0.0001)
    assert (new.rating, new.volatility) == (PLAYER.rating, PLAYER.volatility)
    assert rate(PLAYER, []) == new
    assert idle(new).deviation > new.deviation


@pytest.mark.parametrize("score", [2, -1, 0.25, 0.75, 1.5, math.nan, math.inf])
def test_RULES_ratings_a_score_is_a_win_a_draw_or_a_loss(score: float) -> None:
    with pytest.raises(ValueError, match="score"):
        rate(PLAYER, [(DEFAULT, score)])
    with pytest.raises(ValueError, match="score"):
        rate(PLAYER, [*EXAMPLE, (DEFAULT, score)])
    with pytest.raises(ValueError, match="score"):
        rate_game(PLAYER, DEFAULT, score)


@pytest.mark.parametrize(
    "values",
    [
        (1500, 0, 0.06),
        (1500, -50, 0.06),
        (1500, 350, 0),
        (math.nan, 350, 0.06),
        (1500, math.inf, 0.06),
    ],
)
def test_RULES_ratings_a_rating_is_finite_with_positive_deviation_and_volatility(
    values: tuple[float, float, float],
) -> None:
    with pytest.raises(ValueError, match="rating"):
        Rating(*values)


def test_RULES_ratings_are_immutable_values() -> None:
    with pytest.raises(AttributeError):
        DEFAULT.rating = 2000.0  # type: ignore[misc]
    assert (DEFAULT.rating, DEFAULT.deviation, DEFAULT.volatility) == (1500.0, 350.0, 0.06)
    assert rate(PLAYER, EXAMPLE) == rate(PLAYER, EXAMPLE)
