"""Which high score table a game's final scores enter (RULES E1, M2, M3): the one
definition of *ranked*.

A game is ranked when its human final scores enter a table: against the computer
(the human in seat 1) the main table, ``vs_computer``; two humans, on one screen or
online, the table of their mode, both seats (one person can play both, so never the
main table). Not ranked: a practice game (a chosen seed, RULES I5), an assisted game
(a human seat asked for a hint, ``hint_used``), computer against computer (M3).

The stream says how a game was played; where a stored game comes from is the other
half (`entry_table`): played here (`HERE`), imported with a valid signature
(`SIGNED`) or without one (`ARCHIVE`: its entries are kept, in no table).
"""

from __future__ import annotations

from .events import HighScoreEntry
from .start import HUMAN_MODES
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

# Where a stored game comes from.
HERE = "here"
SIGNED = "signed"
ARCHIVE = "archive"
ORIGINS = (HERE, SIGNED, ARCHIVE)


def table_of(state: GameState) -> str | None:
    """The table the game's human final scores enter, played as it was; None when
    they enter none."""
    game = state.game
    if not game.ranked or state.assisted:
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
        HighScoreEntry(seat, info.name, state.scores[seat - 1], difficulty)
        for seat, info in enumerate(state.seats, start=1)
        if info.kind == "human"
    )
