"""Player names against the high score table: a new name may not be the same name as
a different one already in it (equal `domain.names.name_key`s: the same letters
whatever their case, accents, spacing or look-alikes; docs/rules.md, "Names that
match"). The same name again, displayed the same, is no conflict: a player plays on
under it.

Checked where a name enters: a new game's human seats, a friend's claim of an online
seat, an entry added by hand. The check reads the table in the caller's transaction,
so a look-alike that enters the table afterwards (its game still running now) is not
seen; the table is a record of scores, not a register of names.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..domain.commands import RuleViolation
from ..domain.events import Seat
from ..domain.names import look_alike, name_key
from ..domain.texts import english
from ..store import UnitOfWork

# The fields of a new game's seat names, in seat order.
SEAT_FIELDS = ("player_name", "second_name")


def refuse_look_alike(uow: UnitOfWork, name: str, field: str) -> None:
    """`RuleViolation` ``name_confusable`` when the table holds a different name
    that is the same name as `name` (a name `clean_name` returned): one found by its
    stored key (``high_scores.name_skeleton``, `name_key` since migration 0014)."""
    existing = look_alike(name, uow.high_scores.names_like(name_key(name)))
    if existing is not None:
        raise RuleViolation(
            "name_confusable",
            english("the name {name!r} looks like {existing!r}, a name in the high score "
                    "table; choose a name that cannot be mistaken for it",
                    name=name, existing=existing),
            field=field, existing=existing,
        )


def refuse_look_alike_seats(uow: UnitOfWork, seats: Sequence[Seat]) -> None:
    """`refuse_look_alike` for each named human seat of a new game."""
    for field, seat in zip(SEAT_FIELDS, seats, strict=True):
        if seat.kind == "human" and seat.name:
            refuse_look_alike(uow, seat.name, field)
