"""Managing the data: high score entries, deleting and pruning games, export and
import, rebuilding the read model, and `verify`."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from ..domain import signing
from ..domain.board import DEFAULT_HEIGHT, DEFAULT_WIDTH, FieldSizeError, geometry
from ..domain.commands import RuleViolation
from ..domain.events import Event, EventFormatError, GameCreated
from ..domain.export_format import (
    LineSource,
    StreamRefused,
    check_stream,
    parse_signed,
    parse_signed_stream,
    stream_digest,
    to_jsonl,
)
from ..domain.fold import fold
from ..domain.names import clean_name
from ..domain.ranking import ARCHIVE, HERE, MAIN, SIGNED, TABLES
from ..domain.state import CorruptStream
from ..domain.texts import english
from ..errors import GameExists, GameNotFound, InvalidStream
from ..store import HighScore, UnitOfWork, utcnow
from ..store.games import summary_of
from . import security
from .base import ServiceBase, computer_owes_a_turn
from .export_keys import known_secrets, own_key_id, own_secret
from .names import refuse_look_alike, refuse_look_alike_seats
from .results import Problem, SignatureReport, Waiting
from .seating import refuse_held_names
from .shown import names, shown_stored
from .verify import signature_report, verify_game

SCORE_LIMIT = 2**31  # the high_scores.score column is a 32-bit integer


class AdminService(ServiceBase):
    # high scores -------------------------------------------------------------------
    def add_high_score(self, name: str, score: int, difficulty: str = "manual", *,
                       height: int = DEFAULT_HEIGHT, width: int = DEFAULT_WIDTH,
                       mode: str = MAIN) -> HighScore:
        """An entry by hand, in the table of `mode` on one field size (the main table
        of the default field unless told)."""
        name = clean_name(name, "name")
        try:
            geometry(height, width)
        except FieldSizeError as exc:
            raise RuleViolation("invalid_field_size", exc.args[0]) from exc
        if mode not in TABLES:
            raise RuleViolation("invalid_mode", english("mode must be one of {modes}",
                                                           modes=", ".join(TABLES)))
        if type(score) is not int or not -SCORE_LIMIT <= score < SCORE_LIMIT:
            raise RuleViolation("invalid_score",
                                english("a score is a whole number from {least} to {most}",
                                        least=-SCORE_LIMIT, most=SCORE_LIMIT - 1),
                                field="score")
        with self.store.unit_of_work() as uow:
            refuse_look_alike(uow, name, "name")
            return uow.high_scores.add(name, int(score), difficulty, height=height,
                                       width=width, ranking=mode)

    def remove_high_score(self, entry_id: int) -> None:
        with self.store.unit_of_work() as uow:
            uow.high_scores.remove(entry_id)

    def reset_high_scores(self) -> None:
        """Back to RULES E2's defaults (entries from games are removed too)."""
        with self.store.unit_of_work() as uow:
            uow.high_scores.reset()

    # games -------------------------------------------------------------------------
    def delete_game(self, game_id: str) -> None:
        """Delete a game's events and row; its high scores stay (game_id set to NULL)."""
        with self.store.unit_of_work() as uow:
            uow.delete_game(game_id)

    def prune_unfinished(self, older_than: timedelta) -> int:
        """Delete unfinished games (active or abandoned) whose last event is older
        than `older_than`."""
        try:
            cutoff = self.clock() - older_than
        except OverflowError:  # older than the calendar: no game is
            return 0
        with self.store.unit_of_work() as uow:
            ids = uow.games.last_moved_before(("active", "abandoned"), cutoff)
            for game_id in ids:
                uow.delete_game(game_id)
        return len(ids)

    def export_game(self, game_id: str) -> str:
        """JSON Lines: one canonical event per line, each line ending in a newline,
        and last the signature of this instance (`domain.signing`), unless the game
        is an archive game: a stream this server could not vouch for stays unsigned."""
        with self.store.unit_of_work(write=False) as uow:
            game = uow.games.get(game_id)
            # named as pages name the seats (`shown`): an export holds no player record
            events = [s.event for s in shown_stored(uow.events.load(game_id), names(game))]
            origin = game.summary.origin
        signature = None if origin == ARCHIVE else signing.sign(events, own_secret(self.settings))
        return to_jsonl(events, signature)

    def import_game(self, stream: str | LineSource) -> str:
        """Store an exported stream, a text or a binary file read line by line, as a
        game (read-only: nobody knows its token).

        The stream is parsed strictly within `export_bounds` and proved by
        `export_format.check_stream` (every random outcome re-derived from the seed); its
        human names pass the API's look-alike check (``name_confusable``); on any
        error nothing is written and `InvalidStream` names the 1-based line. The game's
        id is the stream's digest: the same stream a second time is refused
        (`GameExists`), and so is a stream that is the same game as a stored one (one
        is a prefix of the other). With a valid signature of this instance or of a
        trusted one the game keeps its table (RULES E1); otherwise it is an archive
        game, its entries ranked nowhere (`signature_reports` tells which).
        """
        try:
            events, signature = (parse_signed_stream(stream) if isinstance(stream, str)
                                 else parse_signed(stream))
            state = check_stream(events)
        except StreamRefused as exc:
            raise InvalidStream(exc.message, **exc.details) from exc
        verdict = signing.check(events, signature, known_secrets(self.settings))
        game_id = stream_digest(events)
        _, salt, token_hash = security.new_token_hash()
        with self.store.unit_of_work() as uow:
            same = _same_game(uow, events)
            if same is not None:
                raise GameExists(english("this stream is game {game_id}, stored already",
                                         game_id=same), game_id=same)
            refuse_look_alike_seats(uow, state.seats)
            refuse_held_names(uow, state.seats, utcnow())
            uow.add_game(game_id, events, state, token_hash=token_hash, token_salt=salt,
                         origin=SIGNED if verdict.state == signing.VALID else ARCHIVE,
                         signature=None if signature is None else signature.text())
        return game_id

    def signature_reports(self, game_id: str | None = None) -> list[SignatureReport]:
        """The signature state of one game, or of every imported game (`verify`)."""
        keys, own = known_secrets(self.settings), own_key_id(self.settings)
        with self.store.unit_of_work(write=False) as uow:
            rows = ([uow.games.get(game_id)] if game_id is not None
                    else [uow.games.get(g) for g in uow.games.imported()])
            return [signature_report(uow, game, keys, own) for game in rows]

    # checking and repairing ------------------------------------------------------------
    def verify(self, game_id: str | None = None) -> list[Problem]:
        """Fold every stream from scratch (no snapshots), re-deriving its random
        outcomes, and compare the read model and the high scores; [] when all is well."""
        problems: list[Problem] = []
        keys = known_secrets(self.settings)
        with self.store.unit_of_work(write=False) as uow:
            ids = [game_id] if game_id is not None else _all_ids(uow)
            for gid in ids:
                problems.extend(verify_game(uow, gid, keys))
        return problems

    def waiting_on_computer(self) -> list[Waiting]:
        """vs_computer games whose computer is to move: stored before 2026-11-28,
        when the human's write and the computer's were two, with a crash between
        them (the next command or read plays it)."""
        waiting = []
        with self.store.unit_of_work(write=False) as uow:
            for summary in uow.queries.waiting_for_seat2():
                state = uow.state(summary.game_id)[1]
                if computer_owes_a_turn(state):
                    seat = state.seat_info(state.turn)
                    waiting.append(Waiting(summary.game_id, state.turn, seat.level or ""))
        return waiting

    def rebuild_read_model(self, game_id: str | None = None,
                           progress: Callable[[int, int], object] | None = None) -> int:
        """Rewrite games rows from the events; returns how many were written.

        `progress(done, total)` is called after each game. A game whose events do
        not fold is left as it is (`verify` reports it), and so are rows of games
        without events.
        """
        with self.store.unit_of_work(write=False) as uow:
            ids = [game_id] if game_id is not None else _all_ids(uow)
        written = 0
        for done, gid in enumerate(ids, start=1):
            with self.store.unit_of_work() as uow:
                written += _rebuild_one(uow, gid, must_exist=game_id is not None)
            if progress is not None:
                progress(done, len(ids))
        return written


def _all_ids(uow: UnitOfWork) -> list[str]:
    """Every game id that has a games row or events."""
    return sorted(uow.games.ids() | uow.events.game_ids())


def _rebuild_one(uow: UnitOfWork, game_id: str, *, must_exist: bool) -> int:
    stored = uow.events.load(game_id)
    if not stored:
        if must_exist:
            raise GameNotFound(english("no events for game {game_id!r}", game_id=game_id),
                               game_id=game_id)
        return 0
    try:
        state = fold(s.event for s in stored)
    except (CorruptStream, EventFormatError):
        return 0
    row = uow.games.find(game_id)
    seating = uow.seating(state)
    summary = summary_of(game_id, state, stored, seating,
                         HERE if row is None else row.summary.origin)
    if row is None:
        _, salt, token_hash = security.new_token_hash()
        uow.games.add(summary, seating=seating, token_hash=token_hash,
                      token_salt=salt, seed_commitment=state.game.seed_commitment)
    else:
        uow.games.overwrite(summary, seating)
    uow.snapshots.forget(game_id)
    return 1


def _same_game(uow: UnitOfWork, events: list[Event]) -> str | None:
    """A stored game whose stream and `events` are one a prefix of the other.

    A stream is known by its first event, whatever filled its seats later: the
    candidates are the games committed to its seed (one indexed query; several only
    for practice games of one chosen seed), and their events are compared."""
    created = events[0]
    if not isinstance(created, GameCreated):  # `check_stream` refuses such a stream
        return None
    for candidate in uow.games.same_seed(created.seed_commitment):
        seats = names(uow.games.get(candidate))  # as its export would name them
        stored = [s.event for s in shown_stored(
            uow.events.load(candidate, upto=len(events)), seats)]
        if stored and stored[0] == created and events[: len(stored)] == stored:
            return candidate
    return None
