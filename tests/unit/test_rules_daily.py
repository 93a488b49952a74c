"""The daily challenge's definition (docs/rules.md, "The daily challenge"), pinned as
RULES tests: one game a UTC date, its seed derived from the daily secret."""

from __future__ import annotations

import hashlib
import hmac
from datetime import UTC, date, datetime, timedelta, timezone

import pytest

from service.domain import daily
from service.domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from service.domain.seeds import SEED_BITS
from service.domain.start import start_game, start_state

SECRET = b"a daily secret for the tests"
DAY = date(2026, 11, 29)


def test_RULES_daily_game_is_edition_2_hard_human_first_on_the_default_field() -> None:
    seed = daily.daily_seed(SECRET, DAY)
    (created,) = start_game(daily.daily_game(seed, player_name="Ann"))
    assert created.rules_edition == 2
    assert (created.mode, created.difficulty) == ("vs_computer", "hard")
    assert created.seats[0].kind == "human" and created.first_seat == 1
    assert (created.height, created.width) == (DEFAULT_HEIGHT, DEFAULT_WIDTH)
    assert created.ranked and created.seed is None  # secret, committed to
    assert not created.hints  # the ranked attempt's
    assert start_game(daily.daily_game(seed, player_name="Ann", ranked_attempt=False))[0].hints


def test_RULES_daily_seed_is_the_hmac_of_the_date_cut_to_a_seeds_length() -> None:
    expected = hmac.new(SECRET, b"squares-daily:2026-11-29", hashlib.sha256).hexdigest()
    seed = daily.daily_seed(SECRET, DAY)
    assert seed == expected[:SEED_BITS // 4] and len(seed) == 32
    assert daily.daily_seed(SECRET, DAY + timedelta(days=1)) != seed
    assert daily.daily_seed(b"another instance's secret", DAY) != seed


def test_RULES_daily_same_date_same_game_whoever_plays_it() -> None:
    seed = daily.daily_seed(SECRET, DAY)
    ann = start_state(daily.daily_game(seed, player_name="Ann"))
    bob = start_state(daily.daily_game(seed, player_name="Bob", player=7))
    assert ann.lines == bob.lines and ann.game.seed_commitment == bob.game.seed_commitment


def test_RULES_daily_a_moment_belongs_to_its_utc_date() -> None:
    assert daily.date_of(datetime(2026, 11, 29, 23, 59, 59, 999999, tzinfo=UTC)) == DAY
    assert daily.date_of(datetime(2026, 11, 30, 0, 0, tzinfo=UTC)) == DAY + timedelta(days=1)
    # 01:00 in UTC+2 is 23:00 of the day before in UTC
    assert daily.date_of(datetime(2026, 11, 30, 1, 0, tzinfo=timezone(timedelta(hours=2)))) == DAY
    assert not daily.is_over(DAY, datetime(2026, 11, 29, 23, 59, 59, tzinfo=UTC))
    assert daily.is_over(DAY, datetime(2026, 11, 30, 0, 0, tzinfo=UTC))
    with pytest.raises(ValueError):
        daily.date_of(datetime(2026, 11, 29, 12, 0))


def test_RULES_daily_streak_counts_consecutive_dates_ending_today_or_yesterday() -> None:
    days = [DAY - timedelta(days=n) for n in (1, 2, 3, 5)]
    assert daily.streak(days, DAY) == 3  # yesterday back to 3 days ago
    assert daily.streak([DAY, *days], DAY) == 4
    assert daily.streak(days, DAY + timedelta(days=2)) == 0  # a day missed
    assert daily.streak([], DAY) == 0
