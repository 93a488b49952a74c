"""The high_scores table (RULES E): its rows (`HighScore`), entries from games and
entries added by hand, each in its table (`domain.ranking`) and on its field size."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from ..domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH
from ..domain.events import Event, HighScoresEntered
from ..domain.names import name_key
from ..domain.ranking import (
    ARCHIVE,
    DEFAULT_HIGH_SCORE_DIFFICULTY,
    DEFAULT_HIGH_SCORES,
    HERE,
    MAIN,
    entry_table,
    level_of,
)
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import HighScoreNotFound
from .events import StoredEvent
from .schema import high_scores_table, utcnow
from .summaries import ShownName

_T = high_scores_table


@dataclass(frozen=True)
class HighScore:
    """One high_scores row."""

    id: int
    name: str
    score: int
    difficulty: str
    game_id: str | None
    seat: int | None
    created_at: datetime
    height: int  # the game's field size (the default field for entries without a game)
    width: int
    name_skeleton: str | None = None  # names.name_key(name); None only if written by hand
    ranking: str = MAIN  # the table (`domain.ranking`): a mode of play, or archive
    hints_recorded: bool = True  # False: from a game played before hints were recorded
    player_id: int | None = None  # the seat's player record (None before migration 0017)
    claimed: bool = False  # the record is a signed-in player's (read with the tables)

    @property
    def source(self) -> str:
        """Where the entry comes from: ``game`` (a game, perhaps deleted since),
        ``original`` (RULES E2's default rows, "from the original game") or
        ``manual`` (added by ``squares highscores add``)."""
        if self.seat is not None:
            return "game"
        return "original" if self.difficulty == DEFAULT_HIGH_SCORE_DIFFICULTY else "manual"

    @property
    def level(self) -> str | None:
        """The computer's level the entry ranks under (`ranking.level_of`); None for
        an entry without one (RULES E2's, two humans', some added by hand)."""
        return level_of(self.difficulty)


def enters_high_scores(events: Sequence[Event]) -> bool:
    """Whether storing `events` writes high score rows (`HighScoreRepository.record`)."""
    return any(isinstance(event, HighScoresEntered) for event in events)


class HighScoreRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def record(self, stored: Sequence[StoredEvent], state: GameState, shown: ShownName,
               origin: str = HERE) -> None:
        """Insert the entries of any ``high_scores_entered`` event among `stored`
        (`state`: the game after them, for its field size and table; `shown`: an
        entry's name as pages show it; `origin`: where the game comes from, so that
        an archive import's entries are ranked nowhere).

        The unique key on ``(game_id, seat)`` refuses a game's entries twice."""
        rows = [
            {"name": name, "score": entry.score, "difficulty": entry.difficulty,
             "game_id": s.game_id, "seat": entry.seat, "created_at": s.recorded_at,
             "height": state.height, "width": state.width, "name_skeleton": name_key(name),
             # a stream's entries follow `ranking.table_of`; kept apart if ever not
             "ranking": entry_table(state, origin) or ARCHIVE, "hints_recorded": True,
             "player_id": entry.player}
            for s in stored
            if isinstance(s.event, HighScoresEntered)
            for entry in s.event.entries
            for name in (shown(entry.name, entry.player),)
        ]
        if rows:
            self._conn.execute(insert(_T), rows)

    def of_game(self, game_id: str) -> list[HighScore]:
        query = select(_T).where(_T.c.game_id == game_id).order_by(_T.c.seat)
        return [HighScore(**row._mapping) for row in self._conn.execute(query)]

    def add(self, name: str, score: int, difficulty: str, *, height: int = DEFAULT_HEIGHT,
            width: int = DEFAULT_WIDTH, ranking: str = MAIN) -> HighScore:
        now = utcnow()
        key = name_key(name)
        new_id = self._conn.execute(
            insert(_T).values(name=name, score=score, difficulty=difficulty, game_id=None,
                              seat=None, created_at=now, name_skeleton=key, height=height,
                              width=width, ranking=ranking, hints_recorded=True)
            .returning(_T.c.id)
        ).scalar_one()
        return HighScore(new_id, name, score, difficulty, None, None, now, height, width,
                         key, ranking, True)

    def names_like(self, name_skeleton: str) -> list[str]:
        """The distinct names in the tables whose `name_key` is `name_skeleton` (by its
        index), in the order they first entered them; the archive guards no name."""
        query = (select(_T.c.name)
                 .where(_T.c.name_skeleton == name_skeleton, _T.c.ranking != ARCHIVE)
                 .group_by(_T.c.name).order_by(func.min(_T.c.id)))
        return list(self._conn.execute(query).scalars())

    def remove(self, entry_id: int) -> None:
        if self._conn.execute(delete(_T).where(_T.c.id == entry_id)).rowcount != 1:
            raise HighScoreNotFound(english("no high score {id}", id=entry_id), id=entry_id)

    def reset(self) -> None:
        """RULES E2: back to the default table (the rows the first migration adds, on
        the default field, in the main table)."""
        self._conn.execute(delete(_T))
        now = utcnow()
        self._conn.execute(insert(_T), [
            {"name": name, "score": score, "difficulty": DEFAULT_HIGH_SCORE_DIFFICULTY,
             "game_id": None, "seat": None, "created_at": now, "name_skeleton": name_key(name),
             "height": DEFAULT_HEIGHT, "width": DEFAULT_WIDTH, "ranking": MAIN,
             "hints_recorded": True}
            for name, score in DEFAULT_HIGH_SCORES
        ])
