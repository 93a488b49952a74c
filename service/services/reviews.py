"""Game reviews: reading them, and catching the analyst up from the CLI."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from ..errors import GameRunning
from ..projections.analyst import ENDINGS, LEASE_S, NAME, Analyst, Step
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
            raise GameRunning(f"game {game_id} is still being played: its review "
                              "comes when it ends", game_id=game_id)
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

    def reviews_pending(self) -> int:
        """The games that ended after the analyst's checkpoint (not yet reviewed)."""
        with self.store.unit_of_work(write=False) as uow:
            return uow.log.count_after(uow.checkpoints.position(NAME), ENDINGS)

    def review_all(self, progress: Callable[[Step], None] | None = None,
                   rebuild: bool = False, lease_s: float = LEASE_S) -> tuple[int, bool]:
        """Catch the analyst up from here (after forgetting every review if
        `rebuild`): the games reviewed, and whether another analyst (a server's)
        holds the lease and does the work instead."""
        analyst = Analyst(self.store, lease_s=lease_s)
        if rebuild:
            analyst.rebuild()
        waiting = False

        def note(step: Step) -> None:
            nonlocal waiting
            waiting = step is Step.WAITING
            if progress is not None:
                progress(step)

        try:
            return analyst.catch_up(note), waiting
        finally:
            analyst.release()
