"""The daily challenge (RULES D): starting a date's game, its ranking, its reveal.

Every UTC date has one game (`domain.daily`), its seed derived from the instance's
daily secret (``SQUARES_DAILY_SECRET``, else a key file made like the export key's,
`export_keys.key_file_secret`), so every instance with the same secret has the same
daily games. The seed's commitment is public from the date's first second; the seed
is shown only once the date is over (`DailyService.day`), never while anyone may
still play it: a daily game ends without ``seed_revealed`` (`rules`), and one still
running at midnight is abandoned by its next command or read (``day_over``,
`ServiceBase._due`).

A signed-in player's first daily game of a date is their ranked attempt, whatever
becomes of it: it has no hints (`DailyNoHints`), and once it ends (played to the
end, resigned, or abandoned) its human score as it stands then enters the date's
ranking. Later games of the date, and every guest's, are practice: the same game,
with hints, ranked nowhere. No daily game enters the high score tables. The one
ranked attempt per date and player is the store's unique index
(`store.daily.RankedAttemptTaken`): two first attempts at the same moment make one
ranked attempt and one practice game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timedelta

from ..domain import daily
from ..domain.events import GameCreated
from ..domain.names import clean_name, name_key
from ..domain.replay_check import replay_check
from ..domain.seeds import commitment
from ..domain.state import CorruptStream
from ..domain.texts import english
from ..errors import DailyNotYet, PlayerNotFound
from ..store import UnitOfWork
from ..store.daily import DailyAttempt, RankedAttemptTaken
from .creation import CreationService
from .export_keys import key_file_secret
from .results import CreatedGame, Problem, SignedIn
from .verify import verify_game

RANKING_SIZE = 100  # the places a date's ranking shows
HISTORY_SIZE = 30  # the dates a player's page shows
STREAK_DAYS = 400  # how far back a streak is counted


@dataclass(frozen=True)
class DailyStart:
    """A new daily game: its date, whether it is the player's ranked attempt."""

    date: date
    ranked: bool
    created: CreatedGame

    @property
    def practice(self) -> bool:
        return not self.ranked


@dataclass(frozen=True)
class DailyEntry:
    """One place of a date's ranking."""

    place: int
    name: str
    player_id: int | None
    score: int
    game_id: str
    ended_at: datetime | None  # None: still running when its date ended


@dataclass(frozen=True)
class DailyDay:
    """A date's challenge: its commitment, its seed once the date is over, and its
    ranking (so far, or final)."""

    date: date
    commitment: str
    seed: str | None  # None until the date is over
    over: bool
    ranking: list[DailyEntry]
    ranked_players: int  # ranked attempts counted in the ranking
    practice_games: int

    @property
    def best_game_id(self) -> str | None:
        return self.ranking[0].game_id if self.ranking else None


@dataclass(frozen=True)
class DailyRecord:
    """One of a player's ranked attempts, for their page."""

    date: date
    game_id: str
    score: int
    ended: bool
    place: int | None  # in the date's ranking of ended attempts; None while it runs


@dataclass(frozen=True)
class DailyHistory:
    attempts: list[DailyRecord]
    streak: int  # consecutive dates with a ranked attempt, ending today or yesterday


@dataclass(frozen=True)
class DailyCheck:
    """`DailyService.verify`: the revealed seed against the commitment every stored
    daily game of the date carries, and each of them replayed from that seed."""

    date: date
    seed: str
    commitment: str
    reveal_matches: bool
    games: int
    problems: list[Problem]


class DailyService(CreationService):
    def secret(self) -> bytes:
        """The daily secret: the setting, else its key file (made on first use)."""
        if self.settings.daily_secret is not None:
            return self.settings.daily_secret.encode("utf-8")
        return key_file_secret(self.settings.daily_secret_file, "daily secret")

    def today(self) -> date:
        return daily.date_of(self.clock())

    def _seed(self, day: date) -> str:
        return daily.daily_seed(self.secret(), day)

    # -- playing -----------------------------------------------------------------
    def start(self, *, player_id: int | None, player_name: str | None = None,
              client_address: str | None = None) -> DailyStart:
        """Start today's game (the clock's UTC date, 23:59:59 included) for the
        signed-in player `player_id` (their record's name; `player_name` is not used)
        or a guest named `player_name` (always practice). The player's first daily
        game of the date is their ranked attempt; later ones are practice.
        `client_address`: for the cap on active games per address, as any game."""
        now = self.clock()
        day = daily.date_of(now)
        seed = self._seed(day)
        creator = self._creator(client_address)
        for attempt in range(2):
            try:
                with self.store.unit_of_work() as uow:
                    return self._start(uow, day, seed, now, player_id, player_name, creator)
            except RankedAttemptTaken:  # a request of the same player was first
                if attempt:
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    def _start(self, uow: UnitOfWork, day: date, seed: str, now: datetime,
               player_id: int | None, player_name: str | None,
               creator: str | None) -> DailyStart:
        signed_in = None
        if player_id is not None:
            record = uow.player_records.get(player_id)
            if record is None or record.name is None:
                raise PlayerNotFound(english("no player {player_id}", player_id=player_id))
            signed_in = SignedIn(player_id, record.name)
            player_name = record.name
        ranked = player_id is not None and uow.daily.ranked_attempt(day, player_id) is None
        command = daily.daily_game(seed, player_name=player_name or "", player=player_id,
                                   ranked_attempt=ranked)
        made = self._add(uow, command, creator, signed_in=signed_in, daily=day)
        uow.daily.add(DailyAttempt(made.game_id, day, player_id, ranked, now,
                                   made.state.scores[0], None))
        return DailyStart(day, ranked, made)

    def ranked_attempt(self, player_id: int) -> DailyAttempt | None:
        """The player's ranked attempt of today, None before they started one."""
        with self.store.unit_of_work(write=False) as uow:
            return uow.daily.ranked_attempt(self.today(), player_id)

    def attempt(self, game_id: str) -> DailyAttempt | None:
        """The daily row of `game_id`; None for any other game."""
        with self.store.unit_of_work(write=False) as uow:
            return uow.daily.get(game_id)

    # -- reading -----------------------------------------------------------------
    def day(self, day: date | None = None) -> DailyDay:
        """The challenge of `day` (default today): today's commitment and its ranking
        so far (ranked attempts whose games ended), or a past date's revealed seed and
        final ranking (every ranked attempt: one still running at midnight with its
        score then, after those that ended). `DailyNotYet` for a date to come."""
        today = self.today()
        day = today if day is None else day
        if day > today:
            raise DailyNotYet(english("the daily challenge of {date} has not begun",
                                      date=day.isoformat()), date=day.isoformat())
        over = day < today
        seed = self._seed(day)
        with self.store.unit_of_work(write=False) as uow:
            attempts = uow.daily.ranking(day, ended_only=not over, limit=RANKING_SIZE)
            names = uow.player_records.shown_names(
                {a.player_id for a in attempts if a.player_id is not None})
            ranked = uow.daily.count(day, ranked=True, ended_only=not over)
            practice = uow.daily.count(day, ranked=False)
        ranking = [DailyEntry(place, names.get(a.player_id, "") if a.player_id else "",
                              a.player_id, a.score, a.game_id, a.ended_at)
                   for place, a in enumerate(attempts, start=1)]
        return DailyDay(day, commitment(seed), seed if over else None, over, ranking,
                        ranked, practice)

    def history(self, player_id: int) -> DailyHistory:
        """The player's ranked attempts, newest first, and their streak."""
        today = self.today()
        with self.store.unit_of_work(write=False) as uow:
            attempts = uow.daily.history(player_id, limit=HISTORY_SIZE)
            places = uow.daily.rank_of(attempts)
            dates = uow.daily.ranked_dates(player_id, today - timedelta(days=STREAK_DAYS))
        return DailyHistory(
            [DailyRecord(a.date, a.game_id, a.score, a.ended_at is not None,
                         places.get(a.game_id)) for a in attempts],
            daily.streak(dates, today))

    def history_of_name(self, name: str) -> DailyHistory | None:
        """The daily history of the signed-in player who holds `name` (any way of
        writing it: `names.name_key`); None when no claimed record holds it (a guest
        has no ranked attempts). `RuleViolation` for a name no player can have."""
        key = name_key(clean_name(name, "name"))
        with self.store.unit_of_work(write=False) as uow:
            record = uow.player_records.holder(key, self.clock())
        if record is None or not record.claimed:
            return None
        return self.history(record.id)

    # -- checking ----------------------------------------------------------------
    def verify(self, day: date) -> DailyCheck:
        """Check a date that is over: its revealed seed against its commitment, and
        every stored daily game of the date, ranked and practice, replayed from that
        seed (`replay_check`) and checked as ``squares verify`` checks a game
        (`verify_game`). `DailyNotYet` for today or a date to come: its seed is
        still secret."""
        if not daily.is_over(day, self.clock()):
            raise DailyNotYet(english("the seed of {date} is revealed once the date is over",
                                      date=day.isoformat()), date=day.isoformat())
        seed = self._seed(day)
        promised = commitment(seed)
        problems: list[Problem] = []
        with self.store.unit_of_work(write=False) as uow:
            game_ids = uow.daily.of_date(day)
            reveal_matches = True
            for game_id in game_ids:
                events = [s.event for s in uow.events.load(game_id)]
                first = events[0] if events else None
                if not isinstance(first, GameCreated) or first.seed_commitment != promised:
                    reveal_matches = False
                    problems.append(Problem(game_id, "daily_seed", english(
                        "the game's commitment is not its date's")))
                    continue
                try:
                    replay_check(events, secret_seed=seed, daily=day)
                except CorruptStream as exc:
                    problems.append(Problem(game_id, "daily_seed", str(exc)))
                problems += verify_game(uow, game_id)
        return DailyCheck(day, seed, promised, reveal_matches, len(game_ids), problems)
