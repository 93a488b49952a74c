"""`verify`: check one stored game from scratch, without snapshots.

Each events row must decode strictly, the sequence must be gap-free, the stream must
be exactly what the rules make of its commands and its seed (`replay_check.replay_check`,
which re-derives every random outcome; a running ranked game's secret seed is read
from its games row and must match its commitment), and the games row and the high
score rows must be what the events say. A game imported as ranked (``signed``) must
still carry a valid signature (`signature_report` tells every import's state).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..domain import signing
from ..domain.events import Event, EventFormatError, HighScoresEntered
from ..domain.ranking import HERE, SIGNED, entry_table
from ..domain.replay_check import replay_check
from ..domain.state import CorruptStream
from ..store import StoredEvent, StoredGame, UnitOfWork
from ..store.games import summary_of
from .results import Problem, SignatureReport


def signature_report(uow: UnitOfWork, game: StoredGame, keys: Mapping[str, bytes],
                     own: str) -> SignatureReport:
    """Where `game` comes from, and its signature checked now with `keys`."""
    summary = game.summary
    if summary.origin == HERE:
        return SignatureReport(summary.game_id, HERE, HERE, None, False)
    events = [s.event for s in uow.events.load(summary.game_id)]
    found = _check(events, game, keys)
    return SignatureReport(summary.game_id, summary.origin, found.state, found.key,
                           found.key == own)


def _check(events: Sequence[Event], game: StoredGame,
           keys: Mapping[str, bytes]) -> signing.SignatureCheck:
    signature = None if game.signature is None else signing.Signature.from_text(game.signature)
    return signing.check(events, signature, keys)


def verify_game(uow: UnitOfWork, game_id: str,
                keys: Mapping[str, bytes] | None = None) -> list[Problem]:
    rows = uow.events.raw(game_id)
    game = uow.games.find(game_id)
    if not rows:
        if game is None:
            return [Problem(game_id, "game_not_found", f"no game {game_id!r}")]
        return [Problem(game_id, "no_events", "a games row without events")]
    stored: list[StoredEvent] = []
    for expected, raw in enumerate(rows, start=1):
        if raw.seq != expected:
            return [Problem(game_id, "seq_gap",
                            f"event {expected} is missing (next stored is {raw.seq})")]
        try:
            stored.append(raw.decode(game_id, strict=True))
        except EventFormatError as exc:
            return [Problem(game_id, "bad_event", f"event {raw.seq}: {exc}")]
    try:  # a running ranked game is checked with the secret seed the server keeps
        # (a daily game's, too: it ends without revealing it, `daily`)
        state = replay_check([s.event for s in stored],
                             secret_seed=game.seed_secret if game is not None else None,
                             daily=uow.daily.date_of_game(game_id))
    except CorruptStream as exc:
        return [Problem(game_id, "corrupt_stream", str(exc))]
    problems: list[Problem] = []
    if game is None:
        problems.append(Problem(game_id, "read_model", "events without a games row"))
    else:
        seating = uow.seating(state)
        expected_summary = summary_of(game_id, state, stored, seating, game.summary.origin)
        for name, value in vars(expected_summary).items():
            have = getattr(game.summary, name)
            if have != value:
                problems.append(Problem(
                    game_id, "read_model", f"games.{name} is {have!r}, the events say {value!r}"
                ))
        have_keys = uow.games.seating(game_id) or {}
        for name, value in seating.items():
            if have_keys.get(name) != value:
                problems.append(Problem(
                    game_id, "read_model",
                    f"games.{name} is {have_keys.get(name)!r}, the events say {value!r}"))
    table = entry_table(state, game.summary.origin if game is not None else HERE)
    want = sorted(
        (entry.seat, uow.shown_name(entry.name, entry.player), entry.score, entry.difficulty,
         state.height, state.width, table)
        for s in stored if isinstance(s.event, HighScoresEntered)
        for entry in s.event.entries
    )
    have_rows = sorted((h.seat, h.name, h.score, h.difficulty, h.height, h.width, h.ranking)
                       for h in uow.high_scores.of_game(game_id))
    if want != have_rows:
        problems.append(Problem(game_id, "high_scores",
                                f"high score rows {have_rows} differ from the events {want}"))
    if game is not None and game.summary.origin == SIGNED and keys is not None:
        found = _check([s.event for s in stored], game, keys)
        if found.state != signing.VALID:
            problems.append(Problem(game_id, "signature", (
                f"imported as ranked, but its signature is {found.state.replace('_', ' ')} "
                f"now (key {found.key}): was a trusted key removed?")))
    return problems
