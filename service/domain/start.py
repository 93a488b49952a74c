"""Starting a game (RULES I, M): the seats of each mode, names, levels, the random
initial lines, and the seeded randomness every later decision draws from.

`start_game(NewGame)` is pure. All randomness comes from `game_rng`, seeded from the
game's seed and the stream position, and every random outcome is written into events.
"""

from __future__ import annotations

import random
import unicodedata

from .board import FieldSizeError, geometry
from .commands import NewGame, RuleViolation
from .events import Event, GameCreated, Seat

LEVELS = ("easy", "moderate", "hard", "expert")
MODES = ("vs_computer", "two_players", "online", "computer_vs_computer")
# Modes where both seats are humans: no computer level, their own high score class.
HUMAN_MODES = ("two_players", "online")
NAME_MAX = 32


def game_rng(seed: int, version: int, purpose: str) -> random.Random:
    """The random generator for one decision of a game (RULES I5).

    Seeding from (seed, stream position, purpose) keeps `decide` pure and makes a
    game reproducible from its first event.
    """
    return random.Random(f"squares:{seed}:{version}:{purpose}")


def clean_name(name: object, field: str = "player_name") -> str:
    if not isinstance(name, str):
        raise RuleViolation("invalid_name", "a name must be text", field=field)
    name = name.strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise RuleViolation(
            "invalid_name", f"a name has 1 to {NAME_MAX} characters", field=field
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise RuleViolation(
            "invalid_name",
            "a name cannot hold control, invisible or unassigned characters",
            field=field,
        )
    return name


def _check_level(level: str, field: str) -> str:
    if level not in LEVELS:
        raise RuleViolation(
            "invalid_level", f"level must be one of {', '.join(LEVELS)}", field=field
        )
    return level


def start_game(command: NewGame) -> list[Event]:
    try:
        g = geometry(command.height, command.width)
    except FieldSizeError as exc:
        raise RuleViolation("invalid_field_size", str(exc)) from exc
    seats = _seats(command)
    difficulty = "none" if command.mode in HUMAN_MODES else command.difficulty
    rng = game_rng(command.seed, 0, "initial_lines")
    chosen = rng.sample(g.inner_slots, g.initial_line_count())
    initial = tuple(sorted(g.xy(i) for i in chosen))
    return [
        GameCreated(
            seed=command.seed,
            height=g.height,
            width=g.width,
            mode=command.mode,
            difficulty=difficulty,
            seats=seats,
            initial_lines=initial,
        )
    ]


def _seats(command: NewGame) -> tuple[Seat, Seat]:
    if command.mode not in MODES:
        raise RuleViolation("invalid_mode", f"mode must be one of {', '.join(MODES)}")
    if command.mode == "vs_computer":
        level = _check_level(command.difficulty, "difficulty")
        return (
            Seat(clean_name(command.player_name), "human"),
            Seat("Computer", "computer", level),
        )
    if command.mode == "two_players":
        second = clean_name(command.second_name or "", "second_name")
        return Seat(clean_name(command.player_name), "human"), Seat(second, "human")
    if command.mode == "online":  # seat 2 is named when a friend claims it
        return Seat(clean_name(command.player_name), "human"), Seat("", "human")
    first = _check_level(command.difficulty, "difficulty")
    second_level = _check_level(command.second_level or command.difficulty, "second_level")
    return (
        Seat(f"Computer 1 ({first})", "computer", first),
        Seat(f"Computer 2 ({second_level})", "computer", second_level),
    )
