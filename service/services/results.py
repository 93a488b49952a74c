"""What the use cases hand back (besides the store's `GameSummary` and `HighScore`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..domain.commands import Command
from ..domain.state import GameState
from ..store import StoredEvent


@dataclass(frozen=True)
class Invite:
    """An online game's one-time claim code (shown only to its creator)."""

    code: str
    expires_at: datetime


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    token: str  # shown only here
    events: list[StoredEvent]
    state: GameState
    invite: Invite | None = None  # online games


@dataclass(frozen=True)
class ClaimedSeat:
    game_id: str
    seat: int
    token: str  # the seat's own token, shown only here
    events: list[StoredEvent]
    state: GameState


@dataclass(frozen=True)
class Rematch:
    """A rematch of a finished online game, the seats swapped: made (`created`, with
    the invite for the friend) or accepted (the invited player's seat claimed)."""

    game_id: str
    seat: int  # the caller's seat in the rematch
    token: str  # that seat's own token, shown only here
    events: list[StoredEvent]
    state: GameState
    created: bool
    invite: Invite | None = None  # created: the friend's invite


@dataclass(frozen=True)
class WaitingRematch:
    """A finished online game's rematch, made by one of its players: its seat that
    waits for the friend (or was taken: `claimed`), and who made it."""

    game_id: str
    seat: int
    claimed: bool
    by: str


@dataclass(frozen=True)
class MoveResult:
    game_id: str
    events: list[StoredEvent]  # every event appended by the call, human + computer, in order
    state: GameState


@dataclass(frozen=True)
class Hint:
    """A hint (`PlayService.hint`): the AI's move for the seat to move, and the game
    after asking it. A human seat's first hint appends ``hint_used`` (`events`, then
    ``version`` counts it, and the game is ``assisted``); later ones append nothing."""

    command: Command
    version: int
    assisted: bool
    events: list[StoredEvent]


@dataclass(frozen=True)
class Followed:
    """What a follower of a game learns in one look (`QueryService.follow`): the
    events after its position, oldest first (none when nothing happened), and the
    state after them; its next position is ``state.version``."""

    events: list[StoredEvent]
    state: GameState


@dataclass(frozen=True)
class SignatureReport:
    """Where a stored game comes from and the state of its signature (`verify`):
    ``origin`` here | signed | archive (`domain.ranking`); ``state`` ``here`` (played
    on this instance: no signature needed) or `domain.signing`'s valid | missing |
    invalid | unknown_key, checked now with the keys this server knows; ``own``: the
    key is this instance's."""

    game_id: str
    origin: str
    state: str
    key: str | None
    own: bool


@dataclass(frozen=True)
class Problem:
    """Something `verify` found. ``kind``: game_not_found | no_events | seq_gap |
    bad_event | corrupt_stream | read_model | high_scores | signature."""

    game_id: str | None
    kind: str
    message: str


@dataclass(frozen=True)
class Waiting:
    """A vs_computer game whose computer is to move (a crash between the human's
    write and the computer's, when they were two): the next command or read plays it."""

    game_id: str
    seat: int
    level: str


@dataclass(frozen=True)
class SignedIn:
    """A signed-in player (`accounts`): their player record and its name."""

    player_id: int
    name: str


# -- passkey accounts (`accounts`) ----------------------------------------------------
@dataclass(frozen=True)
class Started:
    """A ceremony begun: its id (sent back with the answer) and the options for
    ``navigator.credentials`` as WebAuthn's JSON (``publicKey``)."""

    ceremony: str
    options: dict[str, Any]


@dataclass(frozen=True)
class Session:
    """A new session: the cookie's token (never stored), and when it expires."""

    token: str
    expires_at: datetime


@dataclass(frozen=True)
class Passkey:
    id: str  # the credential id, base64url
    label: str
    created_at: datetime
    used_at: datetime | None


@dataclass(frozen=True)
class Account:
    player_id: int
    name: str
    passkeys: tuple[Passkey, ...]
    recovery_codes_left: int


@dataclass(frozen=True)
class Claimed:
    player: SignedIn
    session: Session
    recovery_codes: tuple[str, ...]  # shown once


@dataclass(frozen=True)
class SignedInNow:
    player: SignedIn
    session: Session | None  # None: the browser was signed in as this player already
