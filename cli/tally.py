"""What ``squares simulate`` reports: per level and seat, with Wilson intervals, and how
much of the final margin luck explains (the random start and pieces, as the game
review measures them)."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Setup:
    level1: str
    level2: str
    height: int
    width: int


@dataclass(frozen=True)
class GameResult:
    seed: int
    levels: tuple[str, str]  # seat 1, seat 2
    game_id: str | None
    scores: tuple[int, int]
    squares: tuple[int, int]
    winner: int  # 0: draw
    seconds: float
    luck: tuple[int, int] | None = None  # per seat, from the game's review (--luck)


@dataclass(frozen=True)
class SeatStats:
    seat: int
    level: str
    wins: int
    draws: int
    losses: int
    average_score: float
    average_squares: float


@dataclass(frozen=True)
class LevelStats:
    level: str
    games: int
    wins: int
    draws: int
    losses: int
    win_rate: float  # (wins + draws / 2) / games
    ci_low: float  # 95 % Wilson interval of the win rate
    ci_high: float
    average_margin: float  # own score minus the opponent's, per game


@dataclass(frozen=True)
class SeatAdvantage:
    games: int
    seat1_wins: int
    draws: int
    seat1_rate: float  # (seat-1 wins + draws / 2) / games
    ci_low: float
    ci_high: float


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for z = 1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = (centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n)
    return max(0.0, low), min(1.0, high)


def level_stats(setup: Setup, results: list[GameResult]) -> list[LevelStats]:
    """Per level (each level of the setup), over every game, whichever its seat."""
    stats = []
    for level in dict.fromkeys((setup.level1, setup.level2)):
        wins = draws = losses = 0
        margin = 0
        games = 0
        for r in results:
            for i in (0, 1):
                if r.levels[i] != level or (i == 1 and r.levels[0] == level):
                    continue  # a game between equal levels counts once, for seat 1
                games += 1
                margin += r.scores[i] - r.scores[1 - i]
                if r.winner == 0:
                    draws += 1
                elif r.winner == i + 1:
                    wins += 1
                else:
                    losses += 1
        rate = (wins + draws / 2) / games if games else 0.0
        low, high = wilson(wins + draws / 2, games)
        stats.append(LevelStats(level, games, wins, draws, losses, round(rate, 4),
                                round(low, 4), round(high, 4),
                                round(margin / games, 2) if games else 0.0))
    return stats


def seat_advantage(results: list[GameResult]) -> SeatAdvantage:
    n = len(results)
    wins = sum(r.winner == 1 for r in results)
    draws = sum(r.winner == 0 for r in results)
    low, high = wilson(wins + draws / 2, n)
    rate = (wins + draws / 2) / n if n else 0.0
    return SeatAdvantage(n, wins, draws, round(rate, 4), round(low, 4), round(high, 4))


def seat_stats(setup: Setup, results: list[GameResult]) -> list[SeatStats]:
    n = max(len(results), 1)
    stats = []
    for seat, level in ((1, setup.level1), (2, setup.level2)):
        i = seat - 1
        stats.append(SeatStats(
            seat=seat,
            level=level,
            wins=sum(r.winner == seat for r in results),
            draws=sum(r.winner == 0 for r in results),
            losses=sum(r.winner not in (0, seat) for r in results),
            average_score=round(sum(r.scores[i] for r in results) / n, 2),
            average_squares=round(sum(r.squares[i] for r in results) / n, 2),
        ))
    return stats




@dataclass(frozen=True)
class LuckShare:
    games: int
    r_squared: float  # share of the variance of the margin that luck explains
    slope: float  # points of margin per point of luck difference
    mean_abs_margin: float
    mean_abs_luck: float


def luck_share(results: list[GameResult]) -> LuckShare | None:
    """A least-squares line of the margin (seat 1 - seat 2) on the luck difference."""
    pairs = [(r.luck[0] - r.luck[1], r.scores[0] - r.scores[1])
             for r in results if r.luck is not None]
    n = len(pairs)
    if n < 2:
        return None
    mx = sum(x for x, _ in pairs) / n
    my = sum(y for _, y in pairs) / n
    sxx = sum((x - mx) ** 2 for x, _ in pairs)
    syy = sum((y - my) ** 2 for _, y in pairs)
    sxy = sum((x - mx) * (y - my) for x, y in pairs)
    r2 = sxy * sxy / (sxx * syy) if sxx and syy else 0.0
    return LuckShare(n, round(r2, 4), round(sxy / sxx, 3) if sxx else 0.0,
                     round(sum(abs(y) for _, y in pairs) / n, 2),
                     round(sum(abs(x) for x, _ in pairs) / n, 2))
