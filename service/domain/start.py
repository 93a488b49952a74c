"""Starting a game (RULES I, M): the seats of each mode, names, levels, the random
initial lines, who moves first, and the seed every later decision draws from.

`start_game(NewGame)` is pure. All randomness comes from `seeds.game_rng`, seeded from
the game's seed and the stream position, and every random outcome is written into
events. A ranked game's first event carries only the commitment to its seed
(`seeds`); `start_state` is the state of a new game as its server knows it.
"""

from __future__ import annotations

from .board import FieldSizeError, geometry
from .commands import NewGame, RuleViolation
from .events import Event, GameCreated, Seat
from .fold import fold
from .names import clean_name
from .random_lines import draw_initial_lines
from .seeds import commitment, game_rng
from .state import GameState
from .texts import english

LEVELS = ("easy", "moderate", "hard", "expert")
MODES = ("vs_computer", "two_players", "online", "computer_vs_computer")
# Modes where both seats are humans: no computer level, their own high score class.
HUMAN_MODES = ("two_players", "online")


def _check_level(level: str, field: str) -> str:
    if level not in LEVELS:
        raise RuleViolation(
            "invalid_level", english("level must be one of {levels}", levels=", ".join(LEVELS)),
            field=field
        )
    return level


def start_game(command: NewGame) -> list[Event]:
    try:
        g = geometry(command.height, command.width)
    except FieldSizeError as exc:
        raise RuleViolation("invalid_field_size", exc.args[0]) from exc
    seats = _seats(command)
    difficulty = "none" if command.mode in HUMAN_MODES else command.difficulty
    seed = str(command.seed)
    rng = game_rng(seed, 0, "initial_lines")
    chosen = draw_initial_lines(g, rng, command.rules_edition)
    initial = tuple(sorted(g.xy(i) for i in chosen))
    return [
        GameCreated(
            seed=None if command.ranked and command.committed else seed,
            seed_commitment=commitment(seed),
            ranked=command.ranked,
            first_seat=first_seat(seed, command.mode) if command.committed else 1,
            hints=command.mode != "online" if command.hints is None else command.hints,
            height=g.height,
            width=g.width,
            mode=command.mode,
            difficulty=difficulty,
            seats=seats,
            initial_lines=initial,
            rules_edition=command.rules_edition,
            rated=command.rated,
        )
    ]


def start_state(command: NewGame, events: list[Event] | None = None) -> GameState:
    """The state of the game `command` starts, knowing its seed even when it is the
    ranked game's secret (the server's view, and that of simulations); `events`: its
    `start_game` events, when the caller has them already."""
    state = fold(start_game(command) if events is None else events)
    state.know_secret_seed(str(command.seed))
    return state


def first_seat(seed: str, mode: str) -> int:
    """Who moves first: in an online game a draw from the seed (committed, so neither
    player can choose it); else seat 1, the human against the computer (RULES I4).
    Games from before commitments (`NewGame.committed` False) always began with seat 1."""
    if mode != "online":
        return 1
    return game_rng(seed, 0, "first_seat").choice((1, 2))


def _human(name: str, player: int | None, field: str) -> Seat:
    """A human seat: by its player record, which holds the name, or by its name."""
    if player is not None:
        return Seat("", "human", player=player)
    return Seat(clean_name(name, field), "human")


def _seats(command: NewGame) -> tuple[Seat, Seat]:
    if command.mode not in MODES:
        raise RuleViolation("invalid_mode", english("mode must be one of {modes}",
                                                   modes=", ".join(MODES)))
    if command.rated and command.mode != "online":
        raise RuleViolation("invalid_mode", "only an online game is rated")
    creator = _human(command.player_name, command.player, "player_name")
    if command.mode == "vs_computer":
        level = _check_level(command.difficulty, "difficulty")
        return creator, Seat("Computer", "computer", level)
    if command.mode == "two_players":
        return creator, _human(command.second_name or "", command.second_player, "second_name")
    if command.mode == "online":  # the other seat is named when a friend claims it
        if command.creator_seat == 2:  # a rematch, the seats swapped
            return Seat("", "human"), creator
        if command.creator_seat != 1:
            raise RuleViolation("invalid_mode",
                                english("the creator of an online game sits in seat 1 or 2"))
        return creator, Seat("", "human")
    first = _check_level(command.difficulty, "difficulty")
    second_level = _check_level(command.second_level or command.difficulty, "second_level")
    return (
        Seat(f"Computer 1 ({first})", "computer", first),
        Seat(f"Computer 2 ({second_level})", "computer", second_level),
    )
