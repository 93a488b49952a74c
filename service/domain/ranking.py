"""Which high score table a game's final scores enter (RULES E1, M2, M3): the one
definition of *ranked*.

A game is ranked when its human final scores enter a table: against the computer
(the human in seat 1) the main table, ``vs_computer``; two humans, on one screen or
online, the table of their mode, both seats (one person can play both, so never the
main table). Not ranked: a practice game (a chosen seed, RULES I5), an assisted game
(a human seat asked for a hint, ``hint_used``), computer against computer (M3), and a
game that did not end on a full board: resigned (``game_resigned``: its scores are
not a finished game's), abandoned or aborted (no result).

The stream says how a game was played; where a stored game comes from is the other
half (`entry_table`): played here (`HERE`), imported with a valid signature
(`SIGNED`) or without one (`ARCHIVE`: its entries are kept, in no table).
"""

from __future__ import annotations

from collections.abc import Iterable

from .events import HighScoreEntry
from .start import HUMAN_MODES, LEVELS
from .state import GameState

MAIN = "vs_computer"  # the table of games against the computer, shown first
TABLES = (MAIN, *HUMAN_MODES)

# RULES E2: the table a new database holds (the default field's; a migration makes it).
DEFAULT_HIGH_SCORES: tuple[tuple[str, int], ...] = (
    ("Eda Fırat", 200),
    ("Tarık Yolcu", 325),
    ("Sinem Okur", 153),
    ("Ali Okyanus", 26),
    ("Deniz Vadi", 85),
)
DEFAULT_HIGH_SCORE_DIFFICULTY = "default"

# How a table ranks (docs/rules.md, "How each table ranks"): the main table ranks each
# level of the computer apart, the hardest first, since a score against an easier
# computer is no match for one against a harder; the entries without a level (RULES
# E2's, and those added by hand with another difficulty) come last. Two humans' tables
# have no levels: one ranking by score. Within a level: descending score, ties oldest
# first (RULES E2). The store's query (`store.queries`) reads a table in this order.
LEVELS_HARDEST_FIRST = tuple(reversed(LEVELS))

# Where a stored game comes from.
HERE = "here"
SIGNED = "signed"
ARCHIVE = "archive"
ORIGINS = (HERE, SIGNED, ARCHIVE)


def table_levels(table: str) -> tuple[str, ...]:
    """The levels `table` ranks apart, hardest first; none for two humans' tables."""
    return LEVELS_HARDEST_FIRST if table == MAIN else ()


def level_of(difficulty: str) -> str | None:
    """An entry's level: its difficulty when it is one of the computer's levels (a game
    against the computer, or one added by hand with a level); None for the others."""
    return difficulty if difficulty in LEVELS else None


def ranks(levels: Iterable[str | None]) -> list[int]:
    """The rank of each entry of a table, read in its order, given each entry's
    `level_of`: 1, 2, … within each level, so that an entry is first among the
    entries of its level, never above a harder level's."""
    counts: dict[str | None, int] = {}
    result = []
    for level in levels:
        counts[level] = counts.get(level, 0) + 1
        result.append(counts[level])
    return result


def table_of(state: GameState) -> str | None:
    """The table the game's human final scores enter, played as it was; None when
    they enter none."""
    game = state.game
    if not game.ranked or state.assisted or state.resigned is not None or state.no_result:
        return None
    if game.mode == MAIN:
        return MAIN if state.seats[0].kind == "human" else None
    return game.mode if game.mode in HUMAN_MODES else None


def entry_table(state: GameState, origin: str) -> str | None:
    """Where a stored game's entries go: `table_of`, except that a game imported
    without a valid signature keeps its entries in `ARCHIVE`, ranked nowhere."""
    table = table_of(state)
    return ARCHIVE if table is not None and origin == ARCHIVE else table


def high_score_entries(state: GameState) -> tuple[HighScoreEntry, ...]:
    """The human seats' final scores of a ranked game (RULES E1, M2); none else.
    Their ``difficulty`` is the computer's level, or the mode of two humans."""
    if table_of(state) is None:
        return ()
    mode = state.game.mode
    difficulty = mode if mode in HUMAN_MODES else state.game.difficulty
    return tuple(
        # a seat with a player record is named by it, never in text (`seat_names`)
        HighScoreEntry(seat, "" if info.player is not None else info.name,
                       state.scores[seat - 1], difficulty, info.player)
        for seat, info in enumerate(state.seats, start=1)
        if info.kind == "human"
    )
