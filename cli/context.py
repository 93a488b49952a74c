"""The state shared by every command: the database URL and the service layer on it.

Every command that reads or writes data opens the services through
`AppContext.services()`, which first migrates the database to head (idempotent
and cheap when it already is; serialised across processes by the migration
environment). So every command works on a new, empty database. Only the ``db``
commands manage the schema explicitly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import click

from service.services import Services
from service.store import migrate

F = TypeVar("F", bound=Callable[..., Any])


@dataclass
class AppContext:
    url: str
    migrated: bool = field(default=False, init=False)

    def migrate(self) -> None:
        if not self.migrated:
            migrate(self.url)
            self.migrated = True

    @contextmanager
    def services(self) -> Iterator[Services]:
        """The service layer on a database at the newest schema; disposed afterwards."""
        self.migrate()
        services = Services.from_url(self.url)
        try:
            yield services
        finally:
            services.store.dispose()


pass_app: Callable[[F], F] = click.make_pass_decorator(AppContext)
