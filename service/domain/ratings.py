"""Glicko-2 ratings: Mark E. Glickman's "Example of the Glicko-2 system" (2013, revised
2022), step by step, with his constants.

A player's `Rating` is the rating, its deviation (RD, how uncertain the rating is) and
its volatility (how erratic the player's results are), on the Glicko scale (1500 is an
average player). `rate` updates one player after one rating period from the results of
that period; `rate_game` rates one game between two players.

Written here rather than wrapping the `glicko2` package (2.1.0 on PyPI): its volatility
step computes f(x) with the player's rating μ² where the paper has the deviation φ², so
its volatilities are off (in the paper's example 0.0599934 for 0.0599960, which the
paper's five printed decimals do not tell apart); and it is one mutable class with
untyped camelCase methods.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SCALE = 173.7178  # 400 / ln 10: from the Glicko scale to Glicko-2's (step 2)
CENTRE = 1500.0  # the rating that is 0 on Glicko-2's scale
TAU = 0.5  # the system constant: how much the volatility may change in one period
EPSILON = 0.000001  # the convergence tolerance of the volatility's iteration (step 5)
SCORES = (0.0, 0.5, 1.0)  # a loss, a draw, a win


@dataclass(frozen=True)
class Rating:
    """A player's rating, its deviation (both on the Glicko scale) and its volatility."""

    rating: float
    deviation: float
    volatility: float

    def __post_init__(self) -> None:
        if not all(map(math.isfinite, (self.rating, self.deviation, self.volatility))):
            raise ValueError(f"a rating is finite numbers: {self}")
        if self.deviation <= 0 or self.volatility <= 0:
            raise ValueError(f"a rating's deviation and volatility are positive: {self}")


DEFAULT = Rating(1500.0, 350.0, 0.06)  # an unrated player (step 1)


def _g(phi: float) -> float:
    """How much a result against an opponent of deviation `phi` counts (step 3)."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    """The score a player at `mu` is expected to make against one at `mu_j` (step 3)."""
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def _check_score(score: float) -> None:
    if score not in SCORES:
        raise ValueError(f"a score is 1 (a win), 0.5 (a draw) or 0 (a loss), not {score!r}")


def _volatility(phi: float, sigma: float, delta: float, v: float) -> float:
    """The new volatility σ': the root of the paper's f, by the Illinois algorithm (step 5)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        from_results = ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2)
        return from_results - (x - a) / (TAU * TAU)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * TAU) < 0:
            k += 1
        big_b = a - k * TAU
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        # "≤ 0" as in the paper: with "< 0", an iterate landing exactly on the root
        # would leave A where it is and the interval would never shrink.
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def idle(player: Rating) -> Rating:
    """A player who played no game in a rating period: the rating and the volatility
    stay, the deviation grows to φ* = sqrt(φ² + σ²) (step 6), as nothing was learned
    about the player while their strength may have moved. Not capped at DEFAULT's 350:
    the paper sets no cap, and σ = 0.06 takes hundreds of idle periods to get there."""
    phi = player.deviation / SCALE
    phi_star = math.sqrt(phi * phi + player.volatility * player.volatility)
    return Rating(player.rating, phi_star * SCALE, player.volatility)


def rate(player: Rating, results: Sequence[tuple[Rating, float]]) -> Rating:
    """`player` after one rating period in which they played `results`: each opponent's
    rating at the start of the period and the player's score against them (1 a win,
    0.5 a draw, 0 a loss). No results is an idle period (`idle`). A score outside
    those three raises ValueError."""
    for _, score in results:
        _check_score(score)
    if not results:
        return idle(player)
    mu = (player.rating - CENTRE) / SCALE
    phi = player.deviation / SCALE
    information = 0.0  # 1 / v (step 3)
    improvement = 0.0  # Δ / v (step 4)
    for opponent, score in results:
        g_j = _g(opponent.deviation / SCALE)
        e_j = _expected(mu, (opponent.rating - CENTRE) / SCALE, g_j)
        information += g_j * g_j * e_j * (1.0 - e_j)
        improvement += g_j * (score - e_j)
    v = 1.0 / information
    sigma = _volatility(phi, player.volatility, v * improvement, v)
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + information)  # step 7
    # μ' = μ + φ'² Σ g(φ_j)(s_j − E_j), added on the Glicko scale so that a period
    # that moves μ by nothing leaves the rating exactly as it was (steps 7 and 8).
    return Rating(player.rating + SCALE * phi_new * phi_new * improvement, phi_new * SCALE, sigma)


def rate_game(a: Rating, b: Rating, score_a: float) -> tuple[Rating, Rating]:
    """`a` and `b` after one game between them in which `a` scored `score_a` (1, 0.5
    or 0) and `b` the rest. One game is one rating period, as on online services such
    as lichess that rate each game when it ends, not in batches: so each player is rated
    against the other's rating from before the game, and ratings change at once rather
    than at the end of a period the service would have to schedule."""
    _check_score(score_a)
    return rate(a, [(b, score_a)]), rate(b, [(a, 1.0 - score_a)])
