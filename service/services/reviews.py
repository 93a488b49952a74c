"""Game reviews: reading them (the analyst, `service.projections`, writes them)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..domain.texts import english
from ..errors import GameRunning
from ..store import StoredReview
from .base import ServiceBase


@dataclass(frozen=True)
class Analysis:
    # "ready"; "pending": the game has ended, the analyst has not got to it yet;
    # "failed": the analyst could not review it (`review.body["error"]` says why)
    status: str
    review: StoredReview | None


class ReviewService(ServiceBase):
    def analysis(self, game_id: str) -> Analysis:
        """The review of an ended game; `GameNotFound`, or `GameRunning` while it is
        played (no help during play)."""
        game, _state = self._load_settled(game_id)  # a game past its time is abandoned
        if game.summary.status == "active":
            raise GameRunning(english("game {game_id} is still being played: its review "
                                      "comes when it ends", game_id=game_id), game_id=game_id)
        with self.store.unit_of_work(write=False) as uow:
            review = uow.reviews.get(game_id)
        if review is None:
            return Analysis("pending", None)
        return Analysis("failed" if "error" in review.body else "ready", review)

    def accuracies(self, game_ids: Iterable[str]
                   ) -> dict[str, tuple[int | None, int | None]]:
        """Each reviewed game's accuracy per seat (for the lists)."""
        with self.store.unit_of_work(write=False) as uow:
            return uow.reviews.accuracies(game_ids)
