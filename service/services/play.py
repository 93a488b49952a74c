"""Playing: place lines, advance, the computer's turn, hints, resigning and aborting
(games are created by `creation`).

Every command loads the game's state (the newest committed snapshot plus the events
after it) in a read transaction, asks the rules (`rules.decide`) or a strategy
(`players.play_turn`) for new events and appends them at the version it decided on
(a compare-and-set: another writer in between makes it decide again), or changes
nothing. So the write transaction, which on SQLite holds the database's one write
lock, is only the append.

In `vs_computer` games the computer's whole turn is decided right after the human's
turn ends (an advance from stage 3) and appended with it, in the same transaction;
both sets of events come back in the one `MoveResult`. A game stored at the
computer's turn (the two were separate writes before 2026-11-28, and a crash could
come between them) gets its turn played by the next command or read
(`ServiceBase._load_settled`). Likewise a game past its time (`domain.retention`) is
abandoned by the next command or read, and the command is then refused
(``game_abandoned``).
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from functools import partial

from ..domain import ai
from ..domain.commands import Abort, Advance, Command, PlaceLine, Resign, RuleViolation, UseHint
from ..domain.events import Event
from ..domain.fold import apply_all
from ..domain.rules import check_playable, decide
from ..domain.state import GameState
from ..domain.texts import english
from ..errors import DailyNoHints, HintsOff, NotComputerTurn, VersionConflict
from ..ops import metrics
from ..store import StoredEvent, StoredGame
from .base import computer_owes_a_turn, computer_turn, is_computer_turn
from .creation import CreationService
from .hints import HintCache
from .results import Hint, MoveResult
from .shown import names, shown_result

# How often a move decided without an expected version is re-decided after another
# writer got in first.
RETRIES = 3


class Trusted(enum.Enum):
    """A caller that needs no token: it has the database anyway (the admin CLI)."""

    CALLER = "trusted"


TRUSTED = Trusted.CALLER


class PlayService(CreationService):
    _hints: HintCache

    def place_line(self, game_id: str, token: str | None, x: int, y: int,
                   expected_version: int | None = None) -> MoveResult:
        return self._human_move(game_id, token, expected_version,
                                lambda seat: PlaceLine(seat, x, y))

    def advance(self, game_id: str, token: str | None,
                expected_version: int | None = None) -> MoveResult:
        return self._human_move(game_id, token, expected_version, Advance)

    def _human_move(self, game_id: str, token: str | None, expected_version: int | None,
                    command_for: Callable[[int], Command]) -> MoveResult:
        owed: list[StoredEvent] = []  # a computer turn a crash left unplayed
        conflicts = settlings = 0
        while True:
            game, state, events = self._decide(game_id, token, expected_version, command_for)
            if events is None:  # past its time, or a computer turn owed: settle, then again
                settlings += 1
                if settlings > RETRIES:
                    raise VersionConflict(english("game {game_id} keeps changing", game_id=game_id),
                                          current_version=state.version)
                game, state = self._settle_abandonment(game, state)  # then refused
                if computer_owes_a_turn(state):
                    played = self._computer_turn(game_id, state)
                    owed += played.events if played is not None else []
                    if expected_version is not None:  # it named the version before that turn
                        expected_version = self._load(game_id)[1].version
                continue
            after = apply_all(state, events)
            if computer_owes_a_turn(after):  # the computer answers in the same append
                answer = computer_turn(after)
                events, after = events + answer, apply_all(after, answer)
            try:
                stored = self.store.append(game_id, state.version, events, after)
            except VersionConflict:
                # Another writer came first: decide again on its news (an expected
                # version is checked again there; a hint's ``hint_used`` may pass).
                conflicts += 1
                if conflicts == RETRIES:
                    raise
                continue
            return shown_result(game_id, owed + stored, after, names(game))

    def _decide(
        self, game_id: str, token: str | None, expected_version: int | None,
        command_for: Callable[[int], Command],
    ) -> tuple[StoredGame, GameState, list[Event] | None]:
        """Read the game, check the token and the version (one read transaction), and
        decide: (the game, its state, the move's events). The caller appends them at
        the state's version, a compare-and-set, so the write transaction holds
        SQLite's write lock only for the append. When the game must first be settled
        (abandoned, or a computer turn owed) nothing is decided: (the game, its
        state, None)."""
        with self.store.unit_of_work(write=False) as uow:
            game, state = uow.state(game_id)
            seats = self._token_seats(game, token, uow)
            _check_expected(game_id, state, expected_version)
            if self._due(game, state, uow=uow) is not None or computer_owes_a_turn(state):
                return game, state, None
        if is_computer_turn(state):
            raise RuleViolation(
                "not_your_turn",
                english("it is {name}'s turn", name=state.seat_info(state.turn).name),
                turn=state.turn,
            )
        # A seat the token does not move gets the rules' "not your turn".
        return game, state, decide(state, command_for(state.turn if state.turn in seats
                                                      else seats[0]))

    def play_computer_turn(self, game_id: str, token: str | None | Trusted = TRUSTED
                           ) -> MoveResult:
        """Play the whole turn of the computer seat to move (either seat). Callers on
        behalf of a player (the API) pass the `token` they were given, checked against
        the game's; callers that own the database (the CLI) pass none."""
        for _ in range(RETRIES):
            game, state = self._load(game_id)
            if token is not TRUSTED:
                self._token_seats(game, token)
            game, state = self._settle_abandonment(game, state)
            if state.abandoned is not None:
                check_playable(state)  # game_abandoned
            if not is_computer_turn(state):
                raise NotComputerTurn(
                    english("the game is over") if state.over
                    else english("a human is to move"),
                    turn=None if state.over else state.turn,
                )
            result = self._computer_turn(game_id, state)
            if result is not None:
                return result
        raise VersionConflict(english("game {game_id} keeps changing", game_id=game_id),
                              current_version=self._load(game_id)[1].version)

    def check_token(self, game_id: str, token: str | None) -> tuple[int, ...]:
        """The seats `token` moves (online games: its one seat; else both);
        `TokenMissing`/`TokenInvalid` unless it is one of the game's tokens."""
        with self.store.unit_of_work(write=False) as uow:
            game = uow.games.get(game_id)
        return self._token_seats(game, token)

    def hint(self, game_id: str, token: str | None = None) -> Hint:
        """The AI's move for the seat to move; computed once per (game, version).

        A hint for a human seat is that player's action: it needs the token that moves
        the seat (`TokenMissing`, `TokenInvalid`, ``not_your_turn``), so no spectator
        can consult the engine, or unrank a game, for a player. An online game has
        hints only when its creator turned them on (`HintsOff`). The first hint a human
        seat asks for makes the game assisted (RULES E1: it enters no high score
        table): ``hint_used``, appended in one small transaction at the version the
        hint was computed for; later hints write nothing. The move the client then
        sends may name either version (`GameState.current_for`)."""
        for _ in range(RETRIES):
            game, state = self._load_settled(game_id)
            if not state.game.hints and state.daily is not None:
                raise DailyNoHints(english("no hints in your ranked attempt at the daily "
                                           "challenge: its practice games have them"))
            if not state.game.hints:
                raise HintsOff(english("hints are off in this game: its creator did not turn "
                                       "them on"))
            check_playable(state)
            human = state.seat_info(state.turn).kind == "human"
            if human:
                self._check_hint_seat(game, state, token)
            recorded = decide(state, UseHint(state.turn)) if human else []
            command = self._hints.get_or_compute((game_id, state.version),
                                                 partial(_timed_hint, state))
            if not recorded:
                return Hint(command, state.version, state.assisted, [])
            after = apply_all(state, recorded)
            try:
                stored = self.store.append(game_id, state.version, recorded, after)
            except VersionConflict:
                continue  # a move, or another first hint, came first: ask again
            self._hints.put((game_id, after.version), command)
            return Hint(command, after.version, True, stored)
        raise VersionConflict(english("game {game_id} keeps changing", game_id=game_id),
                              current_version=self._load(game_id)[1].version)

    def resign(self, game_id: str, token: str | None) -> MoveResult:
        """The token's human seat gives the game up: ``game_resigned``, then
        ``game_over`` with the other seat the winner (and a ranked game's seed); no
        high score table. It needs no turn: online either player may resign at any
        moment. On one screen, where the one token moves both seats, the seat to move
        resigns."""
        return self._end(game_id, token, _resigning_seat, Resign)

    def abort(self, game_id: str, token: str | None) -> MoveResult:
        """Call off an online game before both seats have moved (``game_aborted``: no
        winner, no result), by either seat's token (the creator's, or the friend's
        once claimed); 409 ``abort_too_late`` after, ``abort_online_only`` in another
        mode."""
        return self._end(game_id, token, lambda state, seats: seats[0], Abort)

    def _end(self, game_id: str, token: str | None,
             seat_of: Callable[[GameState, tuple[int, ...]], int],
             command_for: Callable[[int], Command]) -> MoveResult:
        """Check the token, abandon the game first if it is past its time (then the
        command is refused, ``game_abandoned``), decide `command_for` the seat
        `seat_of` picks among the token's and append it at the version read; decided
        again when another writer came first."""
        for _ in range(RETRIES):
            game, state = self._load(game_id)
            seats = self._token_seats(game, token)
            game, state = self._settle_abandonment(game, state)
            result = self._append_at(game_id, state,
                                     decide(state, command_for(seat_of(state, seats))))
            if result is not None:
                return result
        raise VersionConflict(english("game {game_id} keeps changing", game_id=game_id),
                              current_version=self._load(game_id)[1].version)

    def _check_hint_seat(self, game: StoredGame, state: GameState, token: str | None) -> None:
        if state.turn not in self._token_seats(game, token):
            raise RuleViolation("not_your_turn", english("a hint is only for the seat to move"),
                                turn=state.turn)


def _resigning_seat(state: GameState, seats: tuple[int, ...]) -> int:
    """Which of the token's `seats` resigns: the seat to move when it is a human one
    of them (one screen: the player whose turn it is), else the token's human seat
    (against the computer, online); a computer seat when none is human, which the
    rules refuse (``not_a_human``)."""
    humans = [seat for seat in seats if state.seat_info(seat).kind == "human"]
    if state.turn in humans:
        return state.turn
    return humans[0] if humans else seats[0]


def _timed_hint(state: GameState) -> Command:
    with metrics.ai_decision(ai.HINT_LEVEL, "hint"):
        return ai.hint(state)


def _check_expected(game_id: str, state: GameState, expected_version: int | None) -> None:
    """`VersionConflict` unless the move was chosen on this position: at its version,
    or at the one before the game's ``hint_used`` (`GameState.current_for`)."""
    if expected_version is not None and not state.current_for(expected_version):
        metrics.version_conflict("expected_version")
        raise VersionConflict(
            english("game {game_id} is at version {version}, not {expected}",
                    game_id=game_id, version=state.version, expected=expected_version),
            current_version=state.version,
        )
