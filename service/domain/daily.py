"""The daily challenge (RULES D): one game a UTC date, the same for everybody.

Each date has one definition (`daily_game`): the default field, rules edition 2, the
hard computer, the human moving first, ranked, and a seed that is the HMAC-SHA256 of
``squares-daily:<ISO date>`` under the instance's daily secret (`daily_seed`). The
seed's commitment (`seeds.commitment`) is public from the date's first second; the
seed itself only once the date is over, so a daily game ends without its
``seed_revealed`` event (`rules`, `GameState.daily`) and anyone checks the reveal as
they check a ranked game's (the SHA-256 of the revealed seed is the commitment).

Pure: the secret and the clock come from the caller.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

from .board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from .commands import NewGame
from .seeds import SEED_BITS
from .state import GameState

SEED_PREFIX = "squares-daily:"  # what the secret signs, before the ISO date
RULES_EDITION = 2  # the daily pins its edition: a date's game never changes
LEVEL = "hard"
MODE = "vs_computer"  # the human in seat 1, who moves first (`start.first_seat`)


def date_of(moment: datetime) -> date:
    """The UTC date `moment` belongs to (23:59:59.999 is still its date)."""
    if moment.tzinfo is None:
        raise ValueError("a moment without a time zone belongs to no date")
    return moment.astimezone(UTC).date()


def daily_seed(secret: bytes, day: date) -> str:
    """The seed of `day`'s game: HMAC-SHA256(secret, "squares-daily:" + ISO date) as
    hex, cut to the length of every seed (`seeds.SEED_BITS`)."""
    mac = hmac.new(secret, (SEED_PREFIX + day.isoformat()).encode("ascii"), hashlib.sha256)
    return mac.hexdigest()[:SEED_BITS // 4]


def daily_game(seed: str, *, player_name: str, player: int | None = None,
               ranked_attempt: bool = True) -> NewGame:
    """The command that starts a game of the date whose seed is `seed`. Every daily
    game keeps its seed secret (``ranked`` in the rules' sense); a ranked attempt has
    no hints, a practice one has."""
    return NewGame(seed=seed, player_name=player_name, player=player, difficulty=LEVEL,
                   mode=MODE, height=DEFAULT_HEIGHT, width=DEFAULT_WIDTH, ranked=True,
                   hints=not ranked_attempt, rules_edition=RULES_EDITION)


def practice(state: GameState) -> bool:
    """Whether the game is a practice game: a chosen seed's, or a daily game other than
    its player's ranked attempt (the attempt alone has no hints: `daily_game`)."""
    if state.daily is not None:
        return state.game.hints
    return not state.game.ranked


def is_over(day: date, now: datetime) -> bool:
    """Whether `day` is over at `now` (its seed may be revealed)."""
    return day < date_of(now)


def streak(days: Iterable[date], today: date) -> int:
    """How many consecutive dates up to today or yesterday `days` (a player's dates
    with a ranked attempt) cover: 0 when neither today nor yesterday is one."""
    have = set(days)
    day = today if today in have else today - timedelta(days=1)
    count = 0
    while day in have:
        count += 1
        day -= timedelta(days=1)
    return count
