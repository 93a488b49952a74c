"""Proving a stream legal: every event re-decided by the rules (RULES I5, V2).

`replay_check` re-creates the first event from its seed and settings and re-decides
every player command; everything the rules add to a command (random pieces, game
over, the seed's reveal, high score entries) must follow it unchanged. Imports and
`verify` use it. The seed is the practice game's public one, the one a ranked game
revealed when it ended, or (`verify`, which may read it) the server's secret of a
ranked game still running; it must match the commitment in the first event.
"""

from __future__ import annotations

import dataclasses
from datetime import date

from .commands import (
    Abandon,
    Abort,
    Advance,
    ClaimSeat,
    Command,
    Explain,
    NewGame,
    PlaceLine,
    Resign,
    RuleViolation,
    UseHint,
)
from .events import (
    Event,
    GameAbandoned,
    GameAborted,
    GameCreated,
    GameResigned,
    HintUsed,
    LinePlaced,
    MoveExplained,
    Seat,
    SeatClaimed,
    SeedRevealed,
    StageAdvanced,
)
from .fold import apply_in_place, fold
from .names import check_stored_name, clean_name
from .rules import decide
from .seeds import commitment
from .start import start_game
from .state import CorruptStream, GameState


def replay_check(events: list[Event], *, partial_tail: bool = False,
                 secret_seed: str | None = None, daily: date | None = None) -> GameState:
    """Fold `events`, re-deciding everything, to prove the stream is exactly what
    the rules make of its commands and its seed.

    The first event is re-created from its seed and settings (the initial lines,
    who moves first); each player command (a line, an advance, the computer's
    explanation, a resignation, an abort) is re-decided, and every event it causes
    must follow it unchanged: the random pieces (shape, offset, tries, skip, drawn
    with `game_rng` exactly as `decide` draws them), game over, the seed's reveal and
    the high score entries.
    Raises `CorruptStream` naming the 1-based position of the first event that
    differs, and when no seed is known (an unfinished ranked game without
    `secret_seed`: its random outcomes cannot be checked by anyone but its server).
    A stream that stops inside the events of one command (e.g. after one of three
    pieces) is refused too, unless `partial_tail` (a prefix of a stream). `daily`: the
    date of a daily challenge game (`daily`), which ends without revealing its seed
    and enters no high score table; its seed is given as `secret_seed` (the date's,
    revealed once the date is over).
    """
    if not events:
        raise CorruptStream("an empty stream")
    created = events[0]
    if not isinstance(created, GameCreated):
        raise CorruptStream("event 1: a stream starts with game_created")
    seed = _known_seed(events, secret_seed)
    _expect(events, 0, _recreate(created, seed), partial_tail)
    state = fold(events[:1])
    state.daily = daily
    if created.seed is None:
        state.know_secret_seed(seed)
    i = 1
    while i < len(events):
        command = _command_behind(events[i])
        if command is None:
            raise CorruptStream(
                f"event {i + 1}: {events[i].TYPE} without the command that causes it"
            )
        expected = _redecide(state, command, i + 1)
        if isinstance(events[i], SeatClaimed):
            expected = [_with_stored_name(e, events[i]) for e in expected]
        _expect(events, i, expected, partial_tail)
        for offset, event in enumerate(expected):
            try:
                apply_in_place(state, event)
            except CorruptStream as exc:  # pragma: no cover - decide's events fold
                raise CorruptStream(f"event {i + offset + 1}: {exc}") from exc
        i += len(expected)
    return state


def _known_seed(events: list[Event], secret_seed: str | None) -> str:
    """The stream's seed, checked against the commitment of event 1: a practice
    game's (event 1), a revealed one, or the given secret."""
    created = events[0]
    assert isinstance(created, GameCreated)
    known = [(1, created.seed)]
    known += [(i, e.seed) for i, e in enumerate(events, start=1) if isinstance(e, SeedRevealed)]
    known += [(1, secret_seed)]
    seeds = [(position, seed) for position, seed in known if seed is not None]
    if not seeds:
        raise CorruptStream("event 1: the game is unfinished and its seed is secret, so "
                            "its random outcomes cannot be checked")
    for position, seed in seeds:
        if commitment(seed) != created.seed_commitment:
            raise CorruptStream(f"event {position}: the seed does not match its commitment")
    return seeds[0][1]


# A name that today's rules for a new name take as it is: what a stored name that
# those rules would shape otherwise is re-decided with (`_entry_name`).
STAND_IN_NAME = "x"


def _entry_name(stored: str) -> str:
    """The name to re-decide a stored name's command with. Names are judged by the
    rules of their time: a stored name must meet the rules every stored name has met
    (`check_stored_name`); a later rule for new names (single spaces, no blank
    letters) would refuse or reshape a name it accepted then, so such a name is
    re-decided as a stand-in and its events get the stored name back."""
    if not stored:
        return stored  # an online game's open seat
    try:
        check_stored_name(stored)
    except RuleViolation as exc:
        raise CorruptStream(f"a stored name breaks a rule: {exc.code}") from exc
    try:
        return stored if clean_name(stored) == stored else STAND_IN_NAME
    except RuleViolation:
        return STAND_IN_NAME


def _recreate(created: GameCreated, seed: str) -> list[Event]:
    """The game_created event that `start_game` makes of this one's settings, with
    its stored seat names (`_entry_name`)."""
    first, second = created.seats
    creator_seat = 2 if created.mode == "online" and not first.taken else 1  # a rematch
    names = {seat.name: _entry_name(seat.name) if seat.kind == "human" else seat.name
             for seat in created.seats}
    command = NewGame(
        seed=seed, player_name=names[(second if creator_seat == 2 else first).name],
        difficulty=(first.level if created.mode == "computer_vs_computer" else second.level)
        or created.difficulty,
        mode=created.mode, height=created.height, width=created.width,
        second_name=names[second.name] if created.mode == "two_players" else None,
        second_level=second.level if created.mode == "computer_vs_computer" else None,
        ranked=created.ranked, hints=created.hints, rules_edition=created.rules_edition,
        committed=not created.before_commitments,  # then re-created by the rules of then
        creator_seat=creator_seat,
        player=(second if creator_seat == 2 else first).player,
        second_player=second.player if created.mode == "two_players" else None,
        rated=created.rated,
    )
    try:
        (recreated,) = start_game(command)
    except RuleViolation as exc:
        raise CorruptStream(f"event 1 breaks a rule: {exc.code}") from exc
    assert isinstance(recreated, GameCreated)
    if len(created.seats) != 2:
        return [recreated]  # differs anyway: `_expect` says where
    return [dataclasses.replace(recreated, seats=(_stored_name(recreated.seats[0], first),
                                                  _stored_name(recreated.seats[1], second)))]


def _stored_name(made: Seat, stored: Seat) -> Seat:
    """A re-created human seat with its stored name (`_entry_name`)."""
    return dataclasses.replace(made, name=stored.name) if made.kind == "human" else made


def _expect(events: list[Event], at: int, expected: list[Event], partial_tail: bool) -> None:
    """`events` from index `at` on must start with `expected`."""
    for offset, want in enumerate(expected):
        position = at + offset + 1
        if position > len(events):
            if partial_tail:
                return
            raise CorruptStream(f"event {position}: the stream ends before the "
                                f"{want.TYPE} that the rules add here")
        have = events[at + offset]
        if have != want:
            raise CorruptStream(f"event {position}: {_difference(have, want)}")


def _difference(have: Event, want: Event) -> str:
    if type(have) is not type(want):
        return f"{have.TYPE} where the rules give {want.TYPE}"
    fields = [f for f in have.to_dict()["data"] if getattr(have, f) != getattr(want, f)]
    what = ", ".join(f"{f} {getattr(have, f)!r} (the rules give {getattr(want, f)!r})"
                     for f in fields[:3])
    return f"{have.TYPE} differs from what the rules decide: {what}"


def _command_behind(event: Event) -> Command | None:
    if isinstance(event, LinePlaced):
        return PlaceLine(event.seat, event.x, event.y)
    if isinstance(event, StageAdvanced) and event.reason == "player":
        return Advance(event.seat)
    if isinstance(event, SeatClaimed):
        return ClaimSeat(event.seat, _entry_name(event.name), event.player)
    if isinstance(event, HintUsed):
        return UseHint(event.seat)
    if isinstance(event, GameAbandoned):
        # the rules check the state; the clock that made it due is not in the stream
        return Abandon(event.reason)
    if isinstance(event, GameResigned):
        return Resign(event.seat)
    if isinstance(event, GameAborted):
        return Abort(event.seat)
    if isinstance(event, MoveExplained):
        return Explain(
            event.seat,
            event.level,
            event.best_point,
            event.best_x,
            event.best_y,
            event.best_direction,
            event.starts,
            event.trials,
            event.reason,
        )
    return None


def _with_stored_name(event: Event, stored: Event) -> Event:
    """A re-decided seat claim with the stored claim's name (`_entry_name`)."""
    if isinstance(event, SeatClaimed) and isinstance(stored, SeatClaimed) \
            and event.seat == stored.seat:
        return dataclasses.replace(event, name=stored.name)
    return event


def _redecide(state: GameState, command: Command, position: int) -> list[Event]:
    try:
        return decide(state, command)
    except RuleViolation as exc:
        raise CorruptStream(f"event {position} breaks a rule: {exc.code}") from exc
