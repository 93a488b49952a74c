"""Import and verify re-derive every random outcome from the seed (RULES I5): a
stream with a changed seed, initial line or piece is refused naming its exact
line; JSON booleans are not integers; an import is idempotent."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select, update

from service.domain.events import PieceInserted
from service.domain.seeds import commitment
from service.errors import GameExists, InvalidStream
from service.services import Services
from service.store import events_table, high_scores_table
from tests.factories import EventStreamFactory, GameFactory


def _refused(services: Services, lines: list[str]) -> InvalidStream:
    before = services.queries.list_games()[1]
    with pytest.raises(InvalidStream) as caught:
        services.admin.import_game("\n".join(lines) + "\n")
    assert services.queries.list_games()[1] == before  # nothing written
    return caught.value


def _edit(line: str, **changes: object) -> str:
    raw = json.loads(line)
    raw["data"].update(changes)
    return json.dumps(raw)


def _finished_lines(*, ranked: bool = True) -> list[str]:
    """A finished game's export: a ranked game reveals its seed in its last events."""
    # 9 x 11: a small field that still starts with random lines (4)
    return EventStreamFactory.build(finished=True, height=9, width=11, seed=77,
                                    ranked=ranked).jsonl().splitlines()


def _first(lines: list[str], type_: str, **where: object) -> int:
    return next(i for i, line in enumerate(lines)
                if json.loads(line)["type"] == type_
                and all(json.loads(line)["data"][k] == v for k, v in where.items()))


def test_RULES_I5_import_refuses_a_changed_seed_or_initial_line(services: Services) -> None:
    lines = _finished_lines()
    created = json.loads(lines[0])["data"]
    revealed = _first(lines, "seed_revealed")
    # another seed revealed than the one committed to
    error = _refused(services, [*lines[:revealed], _edit(lines[revealed], seed="78"),
                                *lines[revealed + 1 :]])
    assert error.details["line"] == revealed + 1
    assert "commitment" in error.details["reason"]
    # another seed and its commitment: the initial lines are not that seed's
    forged = [_edit(lines[0], seed_commitment=commitment("78")), *lines[1:revealed],
              _edit(lines[revealed], seed="78"), *lines[revealed + 1 :]]
    error = _refused(services, forged)
    assert error.details["line"] == 1 and "initial_lines" in error.details["reason"]
    practice = _finished_lines(ranked=False)
    error = _refused(services, [_edit(practice[0], seed="78"), *practice[1:]])
    assert error.details["line"] == 1 and "commitment" in error.details["reason"]
    error = _refused(services, [_edit(lines[0], initial_lines=created["initial_lines"][:-1]),
                                *lines[1:]])
    assert error.details["line"] == 1 and "initial_lines" in error.details["reason"]


def test_RULES_T4_import_refuses_a_changed_piece_naming_its_line(services: Services) -> None:
    lines = _finished_lines()
    piece = _first(lines, "piece_inserted", skipped=False)
    data = json.loads(lines[piece])["data"]
    for changes in ({"tries": data["tries"] + 1}, {"shape": data["shape"][::-1]}):
        error = _refused(services, [*lines[:piece], _edit(lines[piece], **changes),
                                    *lines[piece + 1 :]])
        assert error.details["line"] == piece + 1, error.details
        assert "piece_inserted" in error.details["reason"]


def test_import_refuses_a_tampered_game_over_and_high_score_at_their_own_lines(
        services: Services) -> None:
    lines = _finished_lines()
    over = _first(lines, "game_over")
    scores = json.loads(lines[over])["data"]["scores"]
    error = _refused(services, [*lines[:over], _edit(lines[over], scores=[scores[0] + 50,
                                                                           scores[1]]),
                                *lines[over + 1 :]])
    assert error.details["line"] == over + 1
    entered = _first(lines, "high_scores_entered")
    entries = json.loads(lines[entered])["data"]["entries"]
    entries[0]["score"] += 50
    error = _refused(services, [*lines[:entered], _edit(lines[entered], entries=entries)])
    assert error.details["line"] == entered + 1


def test_import_refuses_json_booleans_where_integers_belong(services: Services) -> None:
    lines = _finished_lines()
    placed = _first(lines, "line_placed")
    error = _refused(services, [*lines[:placed], _edit(lines[placed], x=True),
                                *lines[placed + 1 :]])
    assert error.details["line"] == placed + 1 and "wrong type" in error.details["reason"]
    error = _refused(services, [_edit(lines[0], seed=True), *lines[1:]])
    assert error.details["line"] == 1


def test_import_stops_inside_a_command_is_refused(services: Services) -> None:
    lines = _finished_lines(ranked=False)  # a practice game: its seed public throughout
    piece = _first(lines, "piece_inserted")
    error = _refused(services, lines[: piece + 1])  # the first of three pieces only
    assert error.details["line"] == piece + 2


def test_an_import_is_idempotent(services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True, seed=78)
    text = services.admin.export_game(game.game_id)
    with pytest.raises(GameExists) as caught:  # the same stream as a stored game
        services.admin.import_game(text)
    assert caught.value.details["game_id"] == game.game_id
    services.admin.delete_game(game.game_id)
    rows_before = _high_score_rows(services)
    first = services.admin.import_game(text)
    with pytest.raises(GameExists):  # the same file twice
        services.admin.import_game(text)
    shorter = "".join(text.splitlines(keepends=True)[:9])  # an earlier export of it
    with pytest.raises(InvalidStream, match="seed is secret"):  # no way to check it
        services.admin.import_game(shorter)
    assert services.queries.list_games()[1] == 1 and services.queries.list_games()[0][0].game_id == first
    assert _high_score_rows(services) == rows_before + 1


def test_verify_re_derives_stored_pieces(services: Services) -> None:
    game = GameFactory.create(services=services, finished=True, small=True, seed=79)
    seq = next(s.seq for s in game.events
               if isinstance(s.event, PieceInserted) and not s.event.skipped)
    with services.store.engine.begin() as conn:
        payload = conn.execute(select(events_table.c.payload).where(
            events_table.c.game_id == game.game_id, events_table.c.seq == seq)).scalar_one()
        conn.execute(update(events_table)
                     .where(events_table.c.game_id == game.game_id, events_table.c.seq == seq)
                     .values(payload={**payload, "tries": payload["tries"] + 1}))
    problems = services.admin.verify(game.game_id)
    assert [p.kind for p in problems] == ["corrupt_stream"]
    assert problems[0].message.startswith(f"event {seq}: piece_inserted differs")


def _high_score_rows(services: Services) -> int:
    with services.store.engine.begin() as conn:
        return int(conn.execute(select(func.count()).select_from(high_scores_table)).scalar_one())
