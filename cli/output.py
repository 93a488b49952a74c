"""Output helpers: plain-text tables, JSON for scripts, times and error exits."""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Sequence
from datetime import datetime
from typing import IO, Any

import click

from service.ops.times import human_utc, iso_utc

INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1
"""The range of the database's INTEGER columns (PostgreSQL's ``integer``)."""


class CliFailure(click.ClickException):
    """A failure reported as ``error: <message>`` on stderr with its own exit code
    (1 for a failed operation, 2 for a usage problem such as a missing ``--yes``)."""

    def __init__(self, message: str, exit_code: int = 1) -> None:
        super().__init__(message)
        # click types `exit_code` as one per exception class, yet reads it off the
        # instance: one class serves both codes here
        self.exit_code = exit_code  # type: ignore[misc]

    def show(self, file: IO[Any] | None = None) -> None:
        click.echo(f"error: {self.format_message()}", err=True)


def require_yes(yes: bool, what: str = "delete") -> None:
    """Destructive commands need ``--yes``; without it: exit 2 and say so."""
    if not yes:
        raise CliFailure(f"refusing to {what} without --yes", exit_code=2)


def table(headers: Sequence[str], rows: Sequence[Sequence[object]],
          align_right: Sequence[int] = ()) -> str:
    """A left-aligned text table (the columns in `align_right` right-aligned)."""
    cells = [[str(c) for c in headers]] + [[_cell(c) for c in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    lines = []
    for n, row in enumerate(cells):
        parts = [
            value.rjust(widths[i]) if i in align_right else value.ljust(widths[i])
            for i, value in enumerate(row)
        ]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, datetime):
        return human_utc(value)
    return str(value)


def jsonable(value: Any) -> Any:
    """Dataclasses, tuples and datetimes as plain JSON values (a moment as the API
    writes it: `iso_utc`)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    if isinstance(value, datetime):
        return iso_utc(value)
    return value


def echo_json(value: Any) -> None:
    click.echo(json.dumps(jsonable(value), ensure_ascii=False, indent=2))


def safe_url(url: str) -> str:
    """`url` with any password masked, for messages."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except (ArgumentError, ValueError):  # unparsable, or a port that is not a number
        return _PASSWORD.sub(r"\1***@", url)


_PASSWORD = re.compile(r"(://[^:/@]*:)[^/]*@")
