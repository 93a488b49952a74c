"""The reviews of ended games (``game_reviews``), written by the analyst."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select
from sqlalchemy.engine import Connection

from .schema import game_reviews_table

_T = game_reviews_table


@dataclass(frozen=True)
class StoredReview:
    game_id: str
    algorithm: int
    position: int
    accuracy: tuple[int | None, int | None]  # None: the seat played no turn, or failed
    exact: bool
    reviewed_at: datetime
    body: dict[str, Any]  # Review.to_dict(), or {"error": why it failed}


class ReviewRepository:
    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def get(self, game_id: str) -> StoredReview | None:
        row = self._conn.execute(select(_T).where(_T.c.game_id == game_id)).mappings().first()
        if row is None:
            return None
        return StoredReview(row["game_id"], row["algorithm"], row["position"],
                            (row["accuracy1"], row["accuracy2"]), row["exact"],
                            row["reviewed_at"], row["body"])

    def add(self, review: StoredReview) -> None:
        self._conn.execute(insert(_T).values(
            game_id=review.game_id, algorithm=review.algorithm, position=review.position,
            accuracy1=review.accuracy[0], accuracy2=review.accuracy[1], exact=review.exact,
            reviewed_at=review.reviewed_at, body=review.body))

    def accuracies(self, game_ids: Iterable[str]
                   ) -> dict[str, tuple[int | None, int | None]]:
        """Each reviewed game's accuracy per seat (games without a review are left out)."""
        ids = sorted(set(game_ids))
        if not ids:
            return {}
        rows = self._conn.execute(select(_T.c.game_id, _T.c.accuracy1, _T.c.accuracy2)
                                  .where(_T.c.game_id.in_(ids)))
        return {game_id: (a1, a2) for game_id, a1, a2 in rows}

    def count(self) -> int:
        return int(self._conn.execute(select(func.count()).select_from(_T)).scalar_one())

    def delete_all(self) -> int:
        return self._conn.execute(delete(_T)).rowcount
