"""The use cases: the one way into the game service for the API, the CLI and the page.

Every use case runs in units of work of the `EventStore`: it loads the game's
events (from the newest cached snapshot on), folds them (`state`), asks the rules
(`rules.decide`) or a strategy (`players.play_turn`) for new events and appends them
at the version it decided on — or changes nothing. This layer never computes
squares or scores itself.

In `vs_computer` games the computer's whole turn is played right after the human's
turn ends (an advance from stage 3) and appended in its own transaction; both sets
of events come back in the one `MoveResult`.
"""

from __future__ import annotations

import json
import re
import secrets
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, delete, or_, select

from . import config, security
from .domain import ai
from .domain.events import Event, EventFormatError, event_from_dict, event_to_json
from .domain.players import play_turn
from .domain.rules import (
    Advance,
    Command,
    NewGame,
    PlaceLine,
    RuleViolation,
    clean_name,
    decide,
    replay_check,
    start_game,
)
from .domain.state import CorruptStream, GameState, apply_all, apply_in_place, fold
from .errors import (
    GameNotFound,
    HighScoreNotFound,
    InvalidStream,
    NotComputerTurn,
    ServiceError,
    StepOutOfRange,
    TokenInvalid,
    TokenMissing,
    VersionConflict,
)
from .store import (
    EventStore,
    GameRow,
    HighScoreRow,
    StoredEvent,
    UnitOfWork,
    events_table,
    games_table,
    high_scores_table,
    make_engine,
    read_model_values,
    utcnow,
)

__all__ = [
    "CreatedGame",
    "GameNotFound",
    "GameSummary",
    "HighScore",
    "HighScoreNotFound",
    "InvalidStream",
    "MoveResult",
    "NotComputerTurn",
    "Problem",
    "RuleViolation",
    "ServiceError",
    "Services",
    "StepOutOfRange",
    "StoredEvent",
    "TokenInvalid",
    "TokenMissing",
    "VersionConflict",
    "parse_stream",
]

# How often a move decided without an expected version is re-decided after another
# writer got in first.
RETRIES = 3


# -- results ---------------------------------------------------------------------


@dataclass(frozen=True)
class CreatedGame:
    game_id: str
    token: str  # shown only here
    events: list[StoredEvent]
    state: GameState


@dataclass(frozen=True)
class MoveResult:
    game_id: str
    events: list[StoredEvent]  # every event appended by the call, human + computer, in order
    state: GameState


@dataclass(frozen=True)
class GameSummary:
    game_id: str
    status: str  # "active" | "finished"
    mode: str
    difficulty: str
    player_name: str
    second_name: str
    created_at: datetime
    finished_at: datetime | None
    version: int
    scores: tuple[int, int]
    squares: tuple[int, int]
    ownerless: int
    round: int
    turn: int
    stage: int
    winner: int | None


@dataclass(frozen=True)
class HighScore:
    id: int
    name: str
    score: int
    difficulty: str
    game_id: str | None
    seat: int | None
    created_at: datetime


@dataclass(frozen=True)
class Problem:
    game_id: str | None
    kind: str  # seq_gap | bad_event | corrupt_stream | no_events | read_model | high_scores
    message: str


def _summary(row: GameRow) -> GameSummary:
    return GameSummary(
        game_id=row.game_id,
        status=row.status,
        mode=row.mode,
        difficulty=row.difficulty,
        player_name=row.player_name,
        second_name=row.second_name,
        created_at=row.created_at,
        finished_at=row.finished_at,
        version=row.version,
        scores=(row.score1, row.score2),
        squares=(row.squares1, row.squares2),
        ownerless=row.ownerless,
        round=row.round,
        turn=row.turn,
        stage=row.stage,
        winner=row.winner,
    )


def _high_score(row: HighScoreRow) -> HighScore:
    return HighScore(row.id, row.name, row.score, row.difficulty, row.game_id, row.seat,
                     row.created_at)


def _is_computer_turn(state: GameState) -> bool:
    return not state.over and state.seat_info(state.turn).kind == "computer"


# -- the use cases -------------------------------------------------------------------


class Services:
    def __init__(self, store: EventStore) -> None:
        self.store = store

    @classmethod
    def from_url(cls, url: str | None = None) -> Services:
        """Services on `url` (None: `config.database_url()`); run `store.migrate` first."""
        return cls(EventStore(make_engine(url or config.database_url())))

    # creating and playing ----------------------------------------------------
    def create_game(self, *, player_name: str, difficulty: str = "moderate",
                    mode: str = "vs_computer", seed: int | None = None,
                    height: int = 19, width: int = 33, second_name: str | None = None,
                    second_level: str | None = None) -> CreatedGame:
        if seed is None:
            seed = secrets.randbelow(2**31)
        events = start_game(NewGame(
            seed=seed, player_name=player_name, difficulty=difficulty, mode=mode,
            height=height, width=width, second_name=second_name, second_level=second_level,
        ))
        state = fold(events)
        token, salt, token_hash = security.new_token_hash()
        game_id = uuid.uuid4().hex
        stored = self.store.add_game(game_id, events, state, token_hash=token_hash,
                                     token_salt=salt)
        return CreatedGame(game_id, token, stored, state.copy())

    def place_line(self, game_id: str, token: str | None, x: int, y: int,
                   expected_version: int | None = None) -> MoveResult:
        return self._human_move(game_id, token, expected_version,
                                lambda seat: PlaceLine(seat, x, y))

    def advance(self, game_id: str, token: str | None,
                expected_version: int | None = None) -> MoveResult:
        return self._human_move(game_id, token, expected_version, Advance)

    def _human_move(self, game_id: str, token: str | None, expected_version: int | None,
                    command_for: Callable[[int], Command]) -> MoveResult:
        for attempt in range(RETRIES):
            row, state = self._load(game_id)
            self._check_token(row, token)
            if expected_version is not None and expected_version != state.version:
                raise VersionConflict(
                    f"game {game_id} is at version {state.version}, not {expected_version}",
                    current_version=state.version,
                )
            if _is_computer_turn(state):
                raise RuleViolation(
                    "not_your_turn", f"it is {state.seat_info(state.turn).name}'s turn",
                    turn=state.turn,
                )
            events = decide(state, command_for(state.turn))
            after = apply_all(state, events)
            try:
                stored = self.store.append(game_id, state.version, events, after)
            except VersionConflict:
                if expected_version is not None or attempt == RETRIES - 1:
                    raise
                continue
            if _is_computer_turn(after) and after.game.mode == "vs_computer":
                computer = self._computer_turn(game_id, after)
                if computer is not None:
                    stored = stored + computer.events
                    after = computer.state
                else:  # another writer played it meanwhile: answer with the news
                    after = self._load(game_id)[1]
            return MoveResult(game_id, stored, after.copy())
        raise AssertionError("unreachable")  # pragma: no cover

    def play_computer_turn(self, game_id: str) -> MoveResult:
        """Play the whole turn of the computer seat to move (either seat)."""
        for _ in range(RETRIES):
            _, state = self._load(game_id)
            if not _is_computer_turn(state):
                raise NotComputerTurn(
                    "the game is over" if state.over else "a human is to move",
                    turn=None if state.over else state.turn,
                )
            result = self._computer_turn(game_id, state)
            if result is not None:
                return result
        raise VersionConflict(f"game {game_id} keeps changing",
                              current_version=self._load(game_id)[1].version)

    def _computer_turn(self, game_id: str, state: GameState) -> MoveResult | None:
        """Append the computer's turn from `state`; None if another writer was first."""
        level = state.seat_info(state.turn).level or state.game.difficulty
        events = play_turn(state, ai.strategy_for(level))
        after = apply_all(state, events)
        try:
            stored = self.store.append(game_id, state.version, events, after)
        except VersionConflict:
            return None
        return MoveResult(game_id, stored, after.copy())

    def check_token(self, game_id: str, token: str | None) -> None:
        """Raise `TokenMissing`/`TokenInvalid` unless `token` is the game's."""
        with self.store.unit_of_work(write=False) as uow:
            row = uow.game(game_id)
        self._check_token(row, token)

    def hint(self, game_id: str) -> Command:
        _, state = self._load(game_id)
        if state.over:
            raise RuleViolation("game_over", "the game is over")
        return ai.hint(state)

    # reading -----------------------------------------------------------------
    def _load(self, game_id: str, at: int | None = None) -> tuple[GameRow, GameState]:
        with self.store.unit_of_work(write=False) as uow:
            return uow.state(game_id, at)

    @staticmethod
    def _check_token(row: GameRow, token: str | None) -> None:
        if token is None or token == "":
            raise TokenMissing("this game needs its token")
        if not security.token_matches(token, row.token_salt, row.token_hash):
            raise TokenInvalid("wrong token for this game")

    def get_state(self, game_id: str, at_step: int | None = None) -> GameState:
        with self.store.unit_of_work(write=False) as uow:
            if at_step is not None:
                _check_step(uow, game_id, at_step)
            return uow.state(game_id, at_step)[1]

    def get_game(self, game_id: str) -> tuple[GameSummary, GameState]:
        """The summary and the state, read together (the same version)."""
        with self.store.unit_of_work(write=False) as uow:
            row, state = uow.state(game_id)
            return _summary(row), state

    def get_summary(self, game_id: str) -> GameSummary:
        with self.store.unit_of_work(write=False) as uow:
            return _summary(uow.game(game_id))

    def replay_step(self, game_id: str, step: int) -> tuple[GameState, StoredEvent, int]:
        """The state after the first `step` events, the `step`-th event and the
        game's current version, read together."""
        with self.store.unit_of_work(write=False) as uow:
            version = _check_step(uow, game_id, step)
            state = uow.state(game_id, step)[1]
            event = uow.events(game_id, after=step - 1, upto=step)[0]
            return state, event, version

    def list_games(self, *, status: str | None = None, player: str | None = None,
                   limit: int = 20, offset: int = 0) -> tuple[list[GameSummary], int]:
        """Newest first, and the total that match. `player` matches either seat's name."""
        t = games_table
        query = select(t)
        if status is not None:
            query = query.where(t.c.status == status)
        if player is not None:
            query = query.where(or_(t.c.player_name == player, t.c.second_name == player))
        with self.store.unit_of_work(write=False) as uow:
            total = uow.count(query)
            rows = uow.conn.execute(
                query.order_by(t.c.created_at.desc(), t.c.game_id).limit(limit).offset(offset)
            )
            return [_summary(GameRow(**r._mapping)) for r in rows], total

    def events_of(self, game_id: str, after: int = 0,
                  limit: int | None = None) -> list[StoredEvent]:
        return self.event_page(game_id, after, limit)[0]

    def event_page(self, game_id: str, after: int = 0,
                   limit: int | None = None) -> tuple[list[StoredEvent], int]:
        """The events after `after` (at most `limit`) and the version they were read
        at: ``after=version`` is a safe cursor for the next page."""
        with self.store.unit_of_work(write=False) as uow:
            version = uow.game(game_id).version
            return uow.events(game_id, after=after, upto=version, limit=limit), version

    # high scores ---------------------------------------------------------------
    def high_scores(self, limit: int = 10) -> list[HighScore]:
        """Descending score; ties: oldest first."""
        with self.store.unit_of_work(write=False) as uow:
            return [_high_score(r) for r in uow.high_scores(limit)]

    def add_high_score(self, name: str, score: int, difficulty: str = "manual") -> HighScore:
        name = clean_name(name, "name")
        with self.store.unit_of_work() as uow:
            return _high_score(uow.add_high_score(name, int(score), difficulty))

    def remove_high_score(self, entry_id: int) -> None:
        with self.store.unit_of_work() as uow:
            uow.remove_high_score(entry_id)

    def reset_high_scores(self) -> None:
        """Back to RULES E2's defaults (entries from games are removed too)."""
        with self.store.unit_of_work() as uow:
            uow.reset_high_scores()

    # managing games ---------------------------------------------------------------
    def delete_game(self, game_id: str) -> None:
        """Delete a game's events and row; its high scores stay (game_id set to NULL)."""
        with self.store.unit_of_work() as uow:
            uow.delete_game(game_id)

    def prune_unfinished(self, older_than: timedelta) -> int:
        """Delete active games whose last event is older than `older_than`."""
        cutoff = utcnow() - older_than
        t = games_table
        with self.store.unit_of_work() as uow:
            ids = list(uow.conn.execute(
                select(t.c.game_id).where(and_(t.c.status == "active", t.c.updated_at < cutoff))
            ).scalars())
            for game_id in ids:
                uow.conn.execute(delete(events_table).where(events_table.c.game_id == game_id))
                uow.conn.execute(delete(t).where(t.c.game_id == game_id))
        for game_id in ids:
            self.store.snapshots.forget(game_id)
        return len(ids)

    def export_game(self, game_id: str) -> str:
        """JSON Lines: one `event_to_json` per line, each line ending in a newline."""
        return "".join(event_to_json(s.event) + "\n" for s in self.events_of(game_id))

    def import_game(self, text: str) -> str:
        """Store an exported stream as a new game (read-only: nobody knows its token).

        The stream is re-validated by `rules.replay_check`; on any error nothing is
        written and `InvalidStream` names the 1-based line and the reason.
        """
        events = parse_stream(text)
        try:
            state = replay_check(events)
        except CorruptStream as exc:
            match = re.match(r"event (\d+)", str(exc))
            line = int(match.group(1)) if match else len(events)
            raise InvalidStream(f"line {line}: {exc}", line=line, reason=str(exc)) from exc
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
            # well-formed JSON with values of the wrong kind (e.g. a string coordinate)
            line = _first_unfoldable(events)
            reason = f"malformed event: {exc!r}"
            raise InvalidStream(f"line {line}: {reason}", line=line, reason=reason) from exc
        _, salt, token_hash = security.new_token_hash()
        game_id = uuid.uuid4().hex
        self.store.add_game(game_id, events, state, token_hash=token_hash, token_salt=salt)
        return game_id

    # checking -----------------------------------------------------------------------
    def verify(self, game_id: str | None = None) -> list[Problem]:
        """Fold every stream from scratch (no snapshots) and compare the read model
        and the high score rows with it; [] when all is well."""
        problems: list[Problem] = []
        with self.store.unit_of_work(write=False) as uow:
            ids = [game_id] if game_id is not None else uow.game_ids()
            for gid in ids:
                problems.extend(_verify_game(uow, gid))
        return problems

    def rebuild_read_model(self, game_id: str | None = None,
                           progress: Callable[[int, int], object] | None = None) -> int:
        """Rewrite games rows from the events; returns how many were written.

        `progress(done, total)` is called after each game. A game whose events do
        not fold is left as it is (`verify` reports it). Rows of games without
        events are left too.
        """
        with self.store.unit_of_work(write=False) as uow:
            ids = [game_id] if game_id is not None else uow.game_ids()
        written = 0
        for done, gid in enumerate(ids, start=1):
            with self.store.unit_of_work() as uow:
                stored = uow.events(gid)
                if stored:
                    try:
                        state = fold(s.event for s in stored)
                    except (CorruptStream, EventFormatError):
                        state = None
                    if state is not None and state.version == stored[-1].seq:
                        _, salt, token_hash = security.new_token_hash()
                        uow.write_read_model(gid, read_model_values(state, stored),
                                             token_hash=token_hash, token_salt=salt)
                        written += 1
                elif game_id is not None:
                    raise GameNotFound(f"no events for game {gid!r}", game_id=gid)
            self.store.snapshots.forget(gid)
            if progress is not None:
                progress(done, len(ids))
        return written


# -- import parsing and verification ---------------------------------------------------------


def parse_stream(text: str) -> list[Event]:
    """Events of a JSON Lines text; `InvalidStream` with the 1-based line otherwise."""
    lines = text.split("\n")
    while lines and lines[-1].strip() == "":
        lines.pop()
    if not lines:
        raise InvalidStream("line 1: the stream is empty", line=1, reason="empty stream")
    events: list[Event] = []
    for number, line in enumerate(lines, start=1):
        def refuse(reason: str, number: int = number) -> InvalidStream:
            return InvalidStream(f"line {number}: {reason}", line=number, reason=reason)

        if not line.strip():
            raise refuse("empty line")
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise refuse(f"not JSON: {exc.msg} (column {exc.colno})") from exc
        if not isinstance(raw, dict):
            raise refuse("not a JSON object")
        try:
            events.append(event_from_dict(raw))
        except EventFormatError as exc:
            raise refuse(str(exc)) from exc
    return events


def _first_unfoldable(events: list[Event]) -> int:
    """The 1-based position of the first event that cannot be folded (else the last)."""
    try:
        state = fold(events[:1])
    except Exception:  # noqa: BLE001 - any failure names line 1
        return 1
    for position, event in enumerate(events[1:], start=2):
        try:
            apply_in_place(state, event)
        except Exception:  # noqa: BLE001
            return position
    return len(events)


def _check_step(uow: UnitOfWork, game_id: str, step: int) -> int:
    """The game's version, or `StepOutOfRange` unless ``1 <= step <= version``."""
    version = uow.game(game_id).version
    if not 1 <= step <= version:
        raise StepOutOfRange(f"step {step} is outside 1..{version}", version=version)
    return version


def _verify_game(uow: UnitOfWork, game_id: str) -> list[Problem]:
    problems: list[Problem] = []
    t = events_table
    rows = uow.conn.execute(
        select(t.c.seq, t.c.type, t.c.version, t.c.payload, t.c.recorded_at)
        .where(t.c.game_id == game_id)
        .order_by(t.c.seq)
    ).all()
    row = uow.find_game(game_id)
    if not rows:
        if row is None:
            return [Problem(game_id, "game_not_found", f"no game {game_id!r}")]
        return [Problem(game_id, "no_events", "a games row without events")]
    stored: list[StoredEvent] = []
    for expected, (seq, type_, version, payload, recorded_at) in enumerate(rows, start=1):
        if seq != expected:
            problems.append(Problem(game_id, "seq_gap", f"event {expected} is missing "
                                    f"(next stored is {seq})"))
            return problems
        try:
            event = event_from_dict({"type": type_, "v": version, "data": payload})
        except EventFormatError as exc:
            problems.append(Problem(game_id, "bad_event", f"event {seq}: {exc}"))
            return problems
        stored.append(StoredEvent(game_id, seq, event, recorded_at))
    try:
        state = replay_check([s.event for s in stored])
    except CorruptStream as exc:
        problems.append(Problem(game_id, "corrupt_stream", str(exc)))
        return problems
    if row is None:
        problems.append(Problem(game_id, "read_model", "events without a games row"))
    else:
        expected_values = read_model_values(state, stored)
        for name, value in expected_values.items():
            if getattr(row, name) != value:
                problems.append(Problem(
                    game_id, "read_model",
                    f"games.{name} is {getattr(row, name)!r}, the events say {value!r}",
                ))
    want = sorted(
        (entry.seat, entry.name, entry.score, entry.difficulty)
        for s in stored
        if s.event.TYPE == "high_scores_entered"
        for entry in s.event.entries  # type: ignore[attr-defined]
    )
    hs = high_scores_table
    have = sorted(
        (seat, name, score, difficulty)
        for seat, name, score, difficulty in uow.conn.execute(
            select(hs.c.seat, hs.c.name, hs.c.score, hs.c.difficulty).where(
                hs.c.game_id == game_id
            )
        )
    )
    if want != have:
        problems.append(Problem(game_id, "high_scores",
                                f"high score rows {have} differ from the events {want}"))
    return problems

