"""Reading: a game's state and summary, replay steps and scores, event pages,
following a game, listings."""

from __future__ import annotations

from datetime import timedelta

from ..domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from ..domain.fold import score_series
from ..domain.ranking import MAIN
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import StepOutOfRange
from ..store import GameSummary, HighScore, StoredEvent, UnitOfWork
from ..store.summaries import seat_names
from .base import ServiceBase
from .results import Followed
from .shown import names, shown, shown_stored

LIVE_READ_TIMEOUT_S = 5.0


class QueryService(ServiceBase):
    def get_state(self, game_id: str, at_step: int | None = None) -> GameState:
        if at_step is None:
            game, state = self._load_settled(game_id)
            return shown(state, names(game))
        with self.store.unit_of_work(write=False) as uow:
            _check_step(uow, game_id, at_step)
            game, state = uow.state(game_id, at_step)
            return shown(state, names(game))

    def get_game(self, game_id: str) -> tuple[GameSummary, GameState]:
        """The summary and the state, read together (the same version)."""
        game, state = self._load_settled(game_id)
        return game.summary, shown(state, names(game))

    def held_seats(self, game_ids: list[str]) -> dict[str, tuple[bool, bool]]:
        """For each game, whether each seat's name is held by its signed-in player
        (else a guest's name, anyone's)."""
        with self.store.unit_of_work(write=False) as uow:
            return uow.player_records.held_seats(game_ids)

    def get_summary(self, game_id: str) -> GameSummary:
        with self.store.unit_of_work(write=False) as uow:
            return uow.games.get(game_id).summary

    def replay_step(self, game_id: str, step: int) -> tuple[GameState, StoredEvent, int]:
        """The state after the first `step` events, the `step`-th event and the
        game's current version, read together."""
        with self.store.unit_of_work(write=False) as uow:
            version = _check_step(uow, game_id, step)
            game, state = uow.state(game_id, step)
            event = uow.events.load(game_id, after=step - 1, upto=step)[0]
            seats = names(game)
            return shown(state, seats), shown_stored([event], seats)[0], version

    def score_series(self, game_id: str) -> list[tuple[int, int]]:
        """Both seats' scores after each step (step 1: the game as created), for a
        replay's chart: ``len(series)`` is the game's version."""
        with self.store.unit_of_work(write=False) as uow:
            version = uow.games.get(game_id).summary.version
            stored = uow.events.load(game_id, after=0, upto=version)
        return score_series(s.event for s in stored)

    def follow(self, game_id: str, after: int) -> Followed:
        """What is new in `game_id` since version `after` (a follower's position):
        the events after it, oldest first, and the state after them, read as
        `get_state` reads it (a game past its time is abandoned first). No events
        when nothing happened; the follower's next `after` is ``state.version``.
        What a watcher polls (``squares watch``, an online game's waiting seat)."""
        game, state = self._load_settled(game_id)
        seats = names(game)
        if state.version <= after:
            return Followed([], shown(state, seats))
        with self.store.unit_of_work(write=False) as uow:
            events = uow.events.load(game_id, after=after, upto=state.version)
        return Followed(shown_stored(events, seats), shown(state, seats))

    def list_games(self, *, status: str | None = None, player: str | None = None,
                   limit: int = 20, offset: int = 0, by_last_move: bool = False,
                   moved_within: timedelta | None = None) -> tuple[list[GameSummary], int]:
        """Newest first (or the latest move first), and the total that match.
        `player` matches either seat's name. ``status="active"`` leaves out the
        games past their time (`domain.retention`) even before they are abandoned.
        `moved_within`: only the games with an event that recent (`/live`)."""
        now = self.clock()
        live_at = (now, now - self.abandon_after) if status == "active" else None
        since = None if moved_within is None else now - moved_within
        with self.store.unit_of_work(write=False) as uow:
            return uow.queries.games(status=status, player=player, limit=limit, offset=offset,
                                     by_last_move=by_last_move, live_at=live_at,
                                     moved_since=since)

    def events_of(self, game_id: str, after: int = 0,
                  limit: int | None = None) -> list[StoredEvent]:
        return self.event_page(game_id, after, limit)[0]

    def event_page(self, game_id: str, after: int = 0,
                   limit: int | None = None) -> tuple[list[StoredEvent], int]:
        """The events after `after` (at most `limit`) and the version they were read
        at: ``after=version`` is a safe cursor for the next page."""
        with self.store.unit_of_work(write=False) as uow:
            summary = uow.games.get(game_id).summary
            events = uow.events.load(game_id, after=after, upto=summary.version, limit=limit)
            return shown_stored(events, seat_names(summary)), summary.version

    def live_page(self, game_id: str, after: int,
                  limit: int = 500) -> tuple[list[StoredEvent], int, bool]:
        """The events after `after` (at most `limit`), the version they were read at
        and whether the game is over (finished or abandoned), read together (for the
        live feed: no statement of it runs longer than `LIVE_READ_TIMEOUT_S`, since
        the streams of the game, and the feed's watcher, wait for it)."""
        with self.store.unit_of_work(write=False, timeout_s=LIVE_READ_TIMEOUT_S) as uow:
            summary = uow.games.get(game_id).summary
            events = uow.events.load(game_id, after=after, upto=summary.version, limit=limit)
            return (shown_stored(events, seat_names(summary)), summary.version,
                    summary.status != "active")

    def high_scores(self, limit: int | None = 10, *, height: int = DEFAULT_HEIGHT,
                    width: int = DEFAULT_WIDTH, mode: str = MAIN,
                    level: str | None = None) -> list[HighScore]:
        """One high score table (RULES E1, M2): the games of `mode` (`ranking.TABLES`;
        the main table, against the computer, by default) on one field size (the
        default field by default), in the table's order (`ranking.LEVELS_HARDEST_FIRST`:
        level by level, hardest first, then descending score, ties oldest first);
        `level`: only the entries of that level of the computer (`ranking.ranks`
        numbers them)."""
        with self.store.unit_of_work(write=False) as uow:
            return uow.queries.high_scores(mode, height, width, limit, level)

    def high_score_sizes(self, mode: str = MAIN) -> list[tuple[int, int]]:
        """The field sizes that the table of `mode` has entries on, largest first."""
        with self.store.unit_of_work(write=False) as uow:
            return uow.queries.high_score_sizes(mode)


def _check_step(uow: UnitOfWork, game_id: str, step: int) -> int:
    """The game's version, or `StepOutOfRange` unless ``1 <= step <= version``."""
    version = uow.games.get(game_id).summary.version
    if not 1 <= step <= version:
        raise StepOutOfRange(english("step {step} is outside 1..{version}", step=step,
                                     version=version), version=version)
    return version
