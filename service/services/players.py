"""A player's page: their games, best scores and records, by their name.

Names are free text typed at each game; a player is every human seat whose name is
the same name (`domain.names.name_key`: case, spacing, marks and look-alike letters
aside), so "eda fırat" finds the games of "Eda Fırat". A page is ``claimed`` when a
signed-in player holds the name (`seating`); it shows their rating then, once they
have finished a rated game (`ratings`).

Forgetting a player (`forget`) empties the player records of their name and puts a
placeholder ("deleted player 7") in every games row and high score row that showed
it, in one transaction: no page, answer or export shows the name again, and the
name stays out of everyone's reach for ``SQUARES_FORGOTTEN_NAME_HOLD``. The events
never change: a game since player records names its seats by record; an older game's
events hold the name in text, and the record's keyed hash of the name masks it
where a read model is made again from them (`UnitOfWork.shown_name`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..domain.names import clean_name, name_key
from ..domain.start import HUMAN_MODES
from ..domain.texts import english
from ..errors import PlayerNotFound
from ..store import GameSummary
from ..store.player_records import placeholder
from ..store.players import PlayedGame, PlayerTotals, TableBest
from .base import ServiceBase
from .ratings import HISTORY_MAX, PlayerRating

# what the adapters read of a page (the store's rows, handed on)
__all__ = ["PAGE_MAX", "PlayedGame", "PlayerPage", "PlayerService", "PlayerTotals",
           "TableBest", "human_seats", "result_of"]

PAGE_MAX = 100  # games on one page, at most


@dataclass(frozen=True)
class Forgotten:
    """What forgetting a name did: the records emptied (their placeholders), and when
    the name is free again."""

    placeholders: list[str]
    free_at: datetime


@dataclass(frozen=True)
class PlayerPage:
    """One page of a player's games, newest first, and what is true of all of them."""

    name: str  # as their newest game writes it
    claimed: bool  # a signed-in player holds the name
    games: list[PlayedGame]
    totals: PlayerTotals
    best: list[TableBest]
    rating: PlayerRating | None = None  # the signed-in holder's, once they finished a rated game


class PlayerService(ServiceBase):
    def page(self, name: str, *, limit: int = 20, offset: int = 0) -> PlayerPage:
        """The player named `name` (any way of writing their name): `RuleViolation`
        ``invalid_name`` for a name `clean_name` refuses, `PlayerNotFound` when no
        game has a human seat of that name. At most `PAGE_MAX` games a page."""
        key = name_key(clean_name(name, "name"))
        limit = max(1, min(limit, PAGE_MAX))
        with self.store.unit_of_work(write=False) as uow:
            totals = uow.players.totals(key)
            if totals.games == 0:
                raise PlayerNotFound(english("no game has a player named {name!r}", name=name),
                                     name=name)
            games = uow.players.games(key, limit=limit, offset=offset)
            best = uow.players.best_scores(key)
            # the first page's first game is the newest; a later page asks
            shown = (_seat_name(games[0]) if games and not offset
                     else uow.players.newest_name(key))
            holder = uow.player_records.holder(key, self.clock())
            claimed = holder is not None and holder.claimed
            rated = uow.ratings.of(holder.id) if holder is not None and claimed else None
            rating = None if rated is None or holder is None else PlayerRating(
                rated, uow.ratings.history(holder.id, limit=HISTORY_MAX))
        return PlayerPage(shown or clean_name(name, "name"), claimed, games, totals, best,
                          rating)

    def forget(self, name: str) -> Forgotten:
        """Forget the player named `name` (any way of writing it: `name_key`): every
        record of the name, claimed or guest, their passkeys, recovery codes and
        sessions, and the name in every games and high score row. `PlayerNotFound`
        when no record and no game knows the name."""
        key = name_key(clean_name(name, "name"))
        now = self.clock()
        free_at = now + self.settings.forgotten_name_hold
        with self.store.unit_of_work() as uow:
            if not uow.player_records.knows(key) and uow.players.totals(key).games == 0:
                raise PlayerNotFound(english("no game has a player named {name!r}", name=name),
                                     name=name)
            ids = uow.player_records.forget(key, now, free_at)
            for player_id in ids:
                uow.credentials.drop_player(player_id)
        return Forgotten([placeholder(i) for i in ids], free_at)


def human_seats(mode: str) -> tuple[bool, bool]:
    """Which seats of a game of `mode` are humans' (`domain.start` seats them):
    against the computer seat 1, between humans both, computer against computer
    none."""
    if mode == "vs_computer":
        return True, False
    return (True, True) if mode in HUMAN_MODES else (False, False)


def result_of(summary: GameSummary, seat: int) -> str | None:
    """The finished game's result for `seat`: "won", "lost" or "drawn"; None while
    it is played, and for an abandoned game (no result)."""
    if summary.status != "finished" or summary.winner is None:
        return None
    if summary.winner == 0:
        return "drawn"
    return "won" if summary.winner == seat else "lost"


def _seat_name(game: PlayedGame) -> str:
    summary = game.summary
    return summary.player_name if game.seat == 1 else summary.second_name
