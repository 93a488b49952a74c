"""The bounds of an import (an export's stream, JSON Lines): an import holds at most
one legal game, so every bound is derived from the largest game the rules allow
(RULES F1's largest field); `export_format` refuses a stream past one at the line
that crosses it, and reads nothing after that line."""

from __future__ import annotations

from .board import MAX_HEIGHT, MAX_WIDTH, geometry
from .names import NAME_MAX
from .random_lines import EDITIONS, initial_line_count, most_initial_lines

MAX_DEPTH = 8  # an event nests 4 deep: the line, data, a list of points, a point
MAX_INT_DIGITS = 20  # the largest integer in a stream: a v1 seed, at most 2**63 - 1
EVENT_KEYS = frozenset({"type", "v", "data"})

# The canonical size, newline included, that each event after the first is given
# in `most_stream_bytes`: the largest the rules allow on the largest field, rounded up
# (see tests/unit/test_stream_bounds.py, which builds them).
LINE_PLACED_BYTES = 128  # two squares (a line borders two boxes), a penalty
STAGE_ADVANCED_BYTES = 112
PIECE_INSERTED_BYTES = 224  # three lines, the shape, six squares, a hundred tries
MOVE_EXPLAINED_BYTES = 384  # the computer's sentence; its path's directions apart
DIRECTION_BYTES = 2  # each line of a computer's stage-1 path names one direction
ENDING_BYTES = 2048  # seat_claimed, hint_used, the ending (game_over, game_resigned and
# game_over, game_abandoned or game_aborted), seed_revealed and high_scores_entered, their
# names of NAME_MAX characters escaped
SIGNATURE_BYTES = 160  # the signature line (`domain.signing`), after the events


def open_slots(height: int = MAX_HEIGHT, width: int = MAX_WIDTH) -> int:
    """The most inner line slots a game on this field starts with empty (RULES I2,
    under any rules edition)."""
    g = geometry(height, width)
    return len(g.inner_slots) - min(initial_line_count(g, e) for e in EDITIONS)


def most_events(height: int = MAX_HEIGHT, width: int = MAX_WIDTH) -> int:
    """An upper bound on the events of any game on a `height` x `width` field.

    Every line_placed fills an open slot, and every turn but the last draws its
    stage-2 line (RULES T3) in one, so a game has at most as many turns as open slots.
    A turn has at most three stage advances (1 to 2 to 3 to 1), three pieces and two
    explanations (a computer explains its stage 1 and its stage 2 once each: the
    rules would take more, this service never writes more). Around them: game_created,
    seat_claimed, hint_used (once a game), and game_over or game_abandoned,
    seed_revealed, high_scores_entered (or game_resigned, game_over, seed_revealed; or
    game_aborted, seed_revealed: no more).
    """
    turns = slots = open_slots(height, width)
    return 3 + slots + turns * (3 + 3 + 2) + 3


def largest_event_bytes(height: int = MAX_HEIGHT, width: int = MAX_WIDTH) -> int:
    """A generous size of the largest event of a game on this field, its game_created:
    its initial lines written with ``json.dumps``'s default spacing, both names in
    12-byte escapes, and 2 KiB for the rest (seed, commitment, settings, keys)."""
    point = len(f"[{width - 1}, {height - 1}], ")
    g = geometry(height, width)
    lines = max(most_initial_lines(g, e) for e in EDITIONS)
    return lines * point + 2 * NAME_MAX * 12 + 2048


def most_stream_bytes(height: int = MAX_HEIGHT, width: int = MAX_WIDTH) -> int:
    """An upper bound on the size of a stream of one game on this field: its first
    line, and the events `most_events` counts at the sizes above."""
    turns = slots = open_slots(height, width)
    per_turn = 3 * STAGE_ADVANCED_BYTES + 3 * PIECE_INSERTED_BYTES + 2 * MOVE_EXPLAINED_BYTES
    per_line = LINE_PLACED_BYTES + DIRECTION_BYTES
    return (MAX_LINE_BYTES + slots * per_line + turns * per_turn + ENDING_BYTES
            + SIGNATURE_BYTES)


# Four times the largest event: room for any spacing a tool puts between tokens.
MAX_LINE_BYTES = 4 * largest_event_bytes()
MAX_EVENTS = most_events()
MAX_STREAM_BYTES = most_stream_bytes()
