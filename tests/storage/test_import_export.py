"""Export / import of a game as JSON Lines (one `event_to_json` per line, and the
instance's signature last: tests/storage/test_signed_imports.py)."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import func, select, update

from service.domain.event_codec import event_to_json
from service.errors import GameExists, InvalidStream, TokenInvalid
from service.services import Services
from service.store import events_table, games_table, high_scores_table
from squares_testing.play import computer_game, play_unassisted
from tests.factories import EventStreamFactory, GameFactory

MODES = ("vs_computer", "two_players", "online", "computer_vs_computer")


def _row_counts(services: Services) -> tuple[int, int, int]:
    with services.store.engine.begin() as conn:
        return tuple(  # type: ignore[return-value]
            conn.execute(select(func.count()).select_from(t)).scalar_one()
            for t in (events_table, games_table, high_scores_table)
        )


def test_export_delete_import_gives_byte_identical_lines(services: Services) -> None:
    game = GameFactory.create(services=services, mode="two_players", second_name="Ayşe Çelik",
                              player_name="Gülşen İnce", finished=True, small=True)
    exported = services.admin.export_game(game.game_id)
    assert exported.endswith("\n") and "Gülşen İnce" in exported  # UTF-8, not \u escapes
    *lines, signature = exported.splitlines()
    assert lines == [event_to_json(s.event) for s in game.events]
    assert json.loads(signature)["type"] == "signature"

    services.admin.delete_game(game.game_id)
    new_id = services.admin.import_game(exported)
    assert new_id != game.game_id
    assert services.admin.export_game(new_id) == exported
    assert services.queries.get_state(new_id) == game.state
    assert services.queries.get_summary(new_id).status == "finished"
    table = services.queries.high_scores(100, height=7, width=9, mode="two_players")
    entered = sorted((h.seat, h.name) for h in table if h.game_id == new_id)
    assert entered == [(1, "Gülşen İnce"), (2, "Ayşe Çelik")]
    assert services.admin.verify(new_id) == []


def test_an_imported_game_is_read_only(services: Services) -> None:
    stream = EventStreamFactory.build(turns=2, ranked=False)  # the human to move
    new_id = services.admin.import_game(stream.jsonl())
    assert services.queries.get_state(new_id) == stream.state
    with pytest.raises(TokenInvalid):
        services.play.advance(new_id, "any token at all")


def _refused(services: Services, text: str) -> InvalidStream:
    before = _row_counts(services)
    with pytest.raises(InvalidStream) as caught:
        services.admin.import_game(text)
    assert caught.value.code == "invalid_stream"
    assert _row_counts(services) == before  # nothing written
    return caught.value


def test_import_refuses_bad_input_with_the_line_number(services: Services) -> None:
    lines = EventStreamFactory.build(turns=1).jsonl().splitlines()

    error = _refused(services, "")
    assert error.details["line"] == 1

    error = _refused(services, "\n".join([lines[0], lines[1], "{not json", *lines[3:]]))
    assert error.details["line"] == 3 and "JSON" in error.details["reason"]

    error = _refused(services, "\n".join([lines[0], "[1, 2]"]))
    assert error.details["line"] == 2

    unknown = json.dumps({"type": "meteor_strike", "v": 1, "data": {}})
    error = _refused(services, "\n".join([*lines[:4], unknown]))
    assert error.details["line"] == 5

    error = _refused(services, "\n".join([lines[0], "", lines[1]]))
    assert error.details["line"] == 2

    newer = json.loads(lines[1])
    newer["v"] = 99
    error = _refused(services, "\n".join([lines[0], json.dumps(newer)]))
    assert error.details["line"] == 2 and "no version of this event" in error.details["reason"]


def test_RULES_I5_an_unfinished_ranked_game_is_not_imported(services: Services) -> None:
    """Choice: its seed is still secret, so nobody but its server can check its random
    outcomes; it can be imported once it has ended and revealed its seed."""
    stream = EventStreamFactory.build(turns=2)
    error = _refused(services, stream.jsonl())
    assert error.details["line"] == 1 and "seed is secret" in error.details["reason"]


def test_import_refuses_a_stream_that_does_not_replay(services: Services) -> None:
    lines = EventStreamFactory.build(turns=2, ranked=False).jsonl().splitlines()

    # not starting with game_created
    error = _refused(services, "\n".join(lines[1:]))
    assert error.details["line"] == 1

    # the same line twice: the slot is drawn twice
    placed = next(i for i, line in enumerate(lines) if '"line_placed"' in line)
    error = _refused(services, "\n".join([*lines[: placed + 1], lines[placed]]))
    assert error.details["line"] == placed + 2

    # a score that the rules did not decide
    tampered = json.loads(lines[placed])
    tampered["data"]["penalty"] = 5 - tampered["data"]["penalty"]
    text = "\n".join([*lines[:placed], json.dumps(tampered), *lines[placed + 1 :]])
    error = _refused(services, text)
    assert error.details["line"] == placed + 1
    assert error.details["reason"]


def test_import_refuses_values_of_the_wrong_kind(services: Services) -> None:
    lines = EventStreamFactory.build(turns=1).jsonl().splitlines()
    placed = next(i for i, line in enumerate(lines) if '"line_placed"' in line)
    wrong = json.loads(lines[placed])
    wrong["data"]["x"] = "seven"
    error = _refused(services, "\n".join([*lines[:placed], json.dumps(wrong)]))
    assert error.details["line"] == placed + 1


def test_an_online_game_exports_and_imports_with_its_claim_and_no_secret(
        services: Services) -> None:
    created = services.play.create_game(player_name="Ann", mode="online", height=7, width=9, seed=4)
    assert created.invite is not None
    claimed = services.play.claim_seat(created.game_id, created.invite.code, "Bob")
    first = created.token if created.state.turn == 1 else claimed.token  # drawn
    services.play.advance(created.game_id, first)
    exported = services.admin.export_game(created.game_id)
    assert '"type":"seat_claimed"' in exported
    assert created.invite.code not in exported and claimed.token not in exported
    services.admin.delete_game(created.game_id)  # its invitation goes with it
    new_id = services.admin.import_game(exported)
    assert services.queries.get_state(new_id).seat_info(2).name == "Bob"
    assert services.admin.verify(new_id) == []
    with pytest.raises(TokenInvalid):  # neither seat's token moves the copy
        services.play.advance(new_id, claimed.token)


def _played(services: Services, mode: str, *, ranked: bool) -> str:
    """A 7 x 9 game of `mode` played here to its end by the greedy strategy, move by
    move through the services and without a hint: ranked (a secret seed) or a
    practice game (a chosen one); its id."""
    seed = None if ranked else 31
    if mode == "computer_vs_computer":
        return computer_game(services, seed)
    if mode != "online":
        created = services.play.create_game(player_name="Ayşe", mode=mode, height=7, width=9,
                                            difficulty="easy", seed=seed,
                                            second_name="Veli" if mode == "two_players" else None)
        play_unassisted(services, created.game_id, created.token, created.state)
        return created.game_id
    created = services.play.create_game(player_name="Ann", mode="online", height=7, width=9,
                                        seed=seed)
    assert created.invite is not None
    claimed = services.play.claim_seat(created.game_id, created.invite.code, "Bob")
    play_unassisted(services, created.game_id, {1: created.token, 2: claimed.token},
                    claimed.state)
    return created.game_id


def _stored_already(services: Services, text: str) -> str:
    """Import `text`, which must be refused as a game stored already, writing nothing;
    the id of the stored game it names."""
    before = _row_counts(services)
    with pytest.raises(GameExists) as caught:
        services.admin.import_game(text)
    same = caught.value.details["game_id"]
    assert caught.value.message == f"this stream is game {same}, stored already"
    assert _row_counts(services) == before
    return same


@pytest.mark.parametrize("signed", [True, False], ids=["signed", "unsigned"])
@pytest.mark.parametrize("ranked", [True, False], ids=["ranked", "practice"])
@pytest.mark.parametrize("mode", MODES)
def test_a_game_exported_and_imported_again_is_stored_already(
        services: Services, mode: str, ranked: bool, signed: bool) -> None:
    """A stream is known by its first event, however its seats were filled since: an
    online game's second seat is named by its ``seat_claimed`` event, and its export
    was once stored a second time, ranked twice."""
    game_id = _played(services, mode, ranked=ranked)
    text = services.admin.export_game(game_id)
    if not signed:
        text = "".join(text.splitlines(keepends=True)[:-1])  # without the signature line
    assert _stored_already(services, text) == game_id

    services.admin.delete_game(game_id)  # the copy is the game now: once, not twice
    copy = services.admin.import_game(text)
    assert services.queries.get_summary(copy).origin == ("signed" if signed else "archive")
    assert _stored_already(services, text) == copy
    assert _stored_already(services, services.admin.export_game(copy)) == copy


def test_rule_E1_M2_a_re_imported_online_game_is_in_the_online_table_once(
        services: Services) -> None:
    game_id = _played(services, "online", ranked=True)
    _stored_already(services, services.admin.export_game(game_id))
    table = services.queries.high_scores(100, height=7, width=9, mode="online")
    assert sorted((h.game_id, h.seat, h.name) for h in table if h.game_id is not None) == [
        (game_id, 1, "Ann"), (game_id, 2, "Bob")]


@pytest.mark.parametrize("ending", ["resigned", "aborted"])
def test_a_resigned_or_aborted_game_exports_imports_verifies_and_rebuilds(
        services: Services, ending: str) -> None:
    """docs/rules.md, "Resigning and aborting": the events of a game ended early are
    re-decided by `verify` and by an import (`replay_check`), and the games row that
    `rebuild` writes from them is the one the append wrote."""
    created = services.play.create_game(player_name="Ann", mode="online", height=7, width=9)
    assert created.invite is not None and created.state.game.ranked
    claimed = services.play.claim_seat(created.game_id, created.invite.code, "Bob")
    tokens = {1: created.token, 2: claimed.token}
    game_id, first = created.game_id, claimed.state.turn
    services.play.advance(game_id, tokens[first])  # one seat moved: abort still allowed
    if ending == "resigned":
        services.play.resign(game_id, tokens[3 - first])
    else:
        services.play.abort(game_id, tokens[3 - first])
    summary = services.queries.get_summary(game_id)
    assert (summary.status, summary.winner) == (
        ("finished", first) if ending == "resigned" else ("aborted", None))
    assert services.admin.verify(game_id) == []

    with services.store.engine.begin() as conn:  # a row that says something else
        conn.execute(update(games_table).where(games_table.c.game_id == game_id)
                     .values(status="active", winner=None, finished_at=None))
    assert [p.kind for p in services.admin.verify(game_id)] == ["read_model"] * (
        3 if ending == "resigned" else 1)
    assert services.admin.rebuild_read_model(game_id) == 1
    assert services.queries.get_summary(game_id) == summary
    assert services.admin.verify(game_id) == []

    exported = services.admin.export_game(game_id)
    assert f'"type":"game_{ending}"' in exported
    state = services.queries.get_state(game_id)
    services.admin.delete_game(game_id)
    new_id = services.admin.import_game(exported)
    assert services.queries.get_state(new_id) == state
    assert services.queries.get_summary(new_id).status == summary.status
    assert services.admin.verify(new_id) == []
    table = services.queries.high_scores(100, height=7, width=9, mode="online")
    assert [h for h in table if h.game_id == new_id] == []  # no table, also imported
