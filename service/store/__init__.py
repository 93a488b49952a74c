"""Persistence: the event store on SQLAlchemy Core, one job per module.

- `schema`: the tables (`account_tables`: players and how they sign in); `summaries`: the one definition of the games read model
- `engine`: engines, database URLs, SQLite pragmas (`writer_queue`: SQLite writers queue;
  `private_files`: the SQLite file's folder 0700, its files 0600)
- `events`, `games`, `high_scores`, `invitations`, `viewers`, `reviews`: the
  repositories of those tables
- `positions`: one order over all streams, for followers; `checkpoints`: where each
  follower stands, and its lease
- `notifications`: listening for new events (PostgreSQL)
- `snapshots`: a cache of committed states
- `event_store`: the store of one database, its transactions; `unit_of_work`: a
  transaction's repositories and the one append path
- `queries`: read-side listings
- `credentials`: passkeys, sign-in sessions, recovery codes, WebAuthn ceremonies
- `daily`: the daily challenge's games (`daily_tables`)
- `ratings`: the players' ratings and each rated game's changes (`rating_tables`)
- `migrations`: Alembic upgrade/downgrade, what a downgrade drops, backups
"""

from . import (
    account_tables,  # noqa: F401  (its tables join `metadata`)
    daily_tables,  # noqa: F401  (its table joins `metadata`)
    rating_tables,  # noqa: F401  (its tables join `metadata`)
)
from .engine import (
    ADMIN,
    REQUEST,
    SQLITE_BUSY_TIMEOUT_MS,
    Patience,
    make_engine,
)
from .event_store import EventStore
from .events import RawEvent, StoredEvent
from .games import StoredGame
from .high_scores import HighScore
from .invitations import Invitation, RematchTaken
from .migrations import alembic_config, current_revisions, downgrade, migrate
from .positions import Notice
from .reviews import StoredReview
from .schema import events_table, games_table, high_scores_table, metadata, utcnow
from .snapshots import SNAPSHOT_CAPACITY, SnapshotCache
from .summaries import SUMMARY_FIELDS, GameSummary
from .unit_of_work import UnitOfWork
from .writer_queue import WriteLockTimeout

__all__ = [
    "ADMIN",
    "REQUEST",
    "SNAPSHOT_CAPACITY",
    "SQLITE_BUSY_TIMEOUT_MS",
    "SUMMARY_FIELDS",
    "EventStore",
    "GameSummary",
    "HighScore",
    "Invitation",
    "Notice",
    "Patience",
    "RawEvent",
    "RematchTaken",
    "SnapshotCache",
    "StoredReview",
    "StoredEvent",
    "StoredGame",
    "UnitOfWork",
    "WriteLockTimeout",
    "alembic_config",
    "current_revisions",
    "downgrade",
    "events_table",
    "games_table",
    "high_scores_table",
    "make_engine",
    "metadata",
    "migrate",
    "utcnow",
]
