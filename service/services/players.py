"""A player's page: their games, best scores and records, by their name.

Names are free text typed at each game; a player is every human seat whose name is
the same name (`domain.names.name_key`: case, spacing, marks and look-alike letters
aside), so "eda fırat" finds the games of "Eda Fırat". Nobody holds a name yet:
every player is a guest (``claimed`` is false), until names can be claimed.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..domain.names import clean_name, name_key
from ..domain.start import HUMAN_MODES
from ..errors import PlayerNotFound
from ..store import GameSummary
from ..store.players import PlayedGame, PlayerTotals, TableBest
from .base import ServiceBase

# what the adapters read of a page (the store's rows, handed on)
__all__ = ["PAGE_MAX", "PlayedGame", "PlayerPage", "PlayerService", "PlayerTotals",
           "TableBest", "human_seats", "result_of"]

PAGE_MAX = 100  # games on one page, at most


@dataclass(frozen=True)
class PlayerPage:
    """One page of a player's games, newest first, and what is true of all of them."""

    name: str  # as their newest game writes it
    claimed: bool  # always False for now: names cannot be claimed yet
    games: list[PlayedGame]
    totals: PlayerTotals
    best: list[TableBest]


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
                raise PlayerNotFound(f"no game has a player named {name!r}", name=name)
            games = uow.players.games(key, limit=limit, offset=offset)
            best = uow.players.best_scores(key)
            # the first page's first game is the newest; a later page asks
            shown = (_seat_name(games[0]) if games and not offset
                     else uow.players.newest_name(key))
        return PlayerPage(shown or clean_name(name, "name"), False, games, totals, best)


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
