"""The analyst's own process: it follows the ended games and reviews them
(`service.projections.analyst`), at a lower CPU priority than the servers
(`NICENESS`), so that a review never takes a request's CPU or thread. One per node
(``squares serve`` starts it); several on one database take turns by the lease.

    python -m service.serve.analyst_process
"""

from __future__ import annotations

import os
import signal
import threading
from types import FrameType

NICENESS = 10


def main() -> None:
    from ..ops import logs
    from ..ops.settings import Settings
    from ..projections.analyst import Analyst
    from ..store import EventStore, make_engine

    os.nice(NICENESS)
    settings = Settings.from_env()
    logs.configure(settings.log_format)
    stop = threading.Event()

    def stopping(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, stopping)
    store = EventStore(make_engine(settings.database_url, synchronous=settings.sqlite_synchronous))
    try:
        Analyst(store).run(stop)
    finally:
        store.dispose()


if __name__ == "__main__":
    main()
