"""`verify`: check one stored game from scratch, without snapshots.

Each events row must decode strictly, the sequence must be gap-free, the stream must
be exactly what the rules make of its commands and its seed (`replay_check.replay_check`,
which re-derives every random outcome; a running ranked game's secret seed is read
from its games row and must match its commitment), and the games row and the high
score rows must be what the events say.
"""

from __future__ import annotations

from ..domain.events import EventFormatError, HighScoresEntered
from ..domain.ranking import HERE, entry_table
from ..domain.replay_check import replay_check
from ..domain.state import CorruptStream
from ..store import StoredEvent, UnitOfWork
from ..store.games import summary_of
from .results import Problem


def verify_game(uow: UnitOfWork, game_id: str) -> list[Problem]:
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
        state = replay_check([s.event for s in stored],
                             secret_seed=game.seed_secret if game is not None else None)
    except CorruptStream as exc:
        return [Problem(game_id, "corrupt_stream", str(exc))]
    problems: list[Problem] = []
    if game is None:
        problems.append(Problem(game_id, "read_model", "events without a games row"))
    else:
        expected_summary = summary_of(game_id, state, stored, game.summary.origin)
        for name, value in vars(expected_summary).items():
            have = getattr(game.summary, name)
            if have != value:
                problems.append(Problem(
                    game_id, "read_model", f"games.{name} is {have!r}, the events say {value!r}"
                ))
    table = entry_table(state, game.summary.origin if game is not None else HERE)
    want = sorted(
        (entry.seat, entry.name, entry.score, entry.difficulty, state.height, state.width,
         table)
        for s in stored if isinstance(s.event, HighScoresEntered)
        for entry in s.event.entries
    )
    have_rows = sorted((h.seat, h.name, h.score, h.difficulty, h.height, h.width, h.ranking)
                       for h in uow.high_scores.of_game(game_id))
    if want != have_rows:
        problems.append(Problem(game_id, "high_scores",
                                f"high score rows {have_rows} differ from the events {want}"))
    return problems
