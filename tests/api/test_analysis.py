"""``GET /api/games/<id>/analysis`` (issue 24): 404 for no game, 409 ``game_running``
while it is played, 202 ``pending`` once it has ended, 200 with the analyst's review
(`service.projections.catch_up.review_all`) after; the review's figures against the game's events; the
accuracies in ``/api/games`` and ``/api/highscores``; the OpenAPI document."""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import partial
from typing import Any

import pytest
from flask import Flask

from service.api.analysis import AnalysisSchema
from service.domain.review import review_game
from service.projections.analyst import Analyst
from service.projections.catch_up import review_all, reviews_pending
from service.services import Services
from service.store import utcnow
from squares_testing.play import computer_game
from tests.conftest import services_of

from .helpers import (
    CheckedClient,
    assert_error,
    assert_valid,
    bearer,
    create_game,
    greedy_move,
    play_hint,
    snapshot,
    state_of,
)

LATER = timedelta(days=8)


def analysis(client: CheckedClient, game_id: str, status: int = 200) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/analysis")
    body: dict[str, Any] = response.get_json()
    assert response.status_code == status, body
    assert response.mimetype == "application/json"
    return body


def assert_review_fits_the_game(client: CheckedClient, game_id: str,
                                body: dict[str, Any]) -> None:
    """The review's turns follow the game's events; the seats add their turns up."""
    assert_valid(AnalysisSchema, body)
    assert body["status"] == "ready" and body["game_id"] == game_id
    assert body["algorithm"] >= 1 and isinstance(body["exact"], bool)
    reviewed_at = datetime.fromisoformat(body["reviewed_at"].replace("Z", "+00:00"))
    assert abs(reviewed_at - utcnow()) < timedelta(minutes=5)
    version, events = snapshot(client, game_id)
    turns = body["turns"]
    assert [t["turn"] for t in turns] == list(range(1, len(turns) + 1))
    starts = [t["start_seq"] for t in turns]
    assert starts == sorted(set(starts)), starts  # strictly increasing
    assert all(1 <= s < version for s in starts)
    assert [t["round"] for t in turns] == sorted(t["round"] for t in turns)
    ends = [*starts[1:], version]
    for turn, end in zip(turns, ends, strict=True):
        between = events[turn["start_seq"]:end]  # seqs start_seq + 1 .. end
        turn_ends = [i for i, e in enumerate(between)
                     if e["type"] == "stage_advanced" and e["data"]["stage"] == 1]
        if turn_ends:  # up to the turn's last stage_advanced (a turn left unfinished
            between = between[:turn_ends[0] + 1]  # after it is not reviewed)
        decisions = [e for e in between if e["type"] in ("line_placed", "stage_advanced")]
        assert decisions, turn
        assert decisions[0]["data"]["seat"] == turn["seat"], (turn, decisions[0])
        stage1 = [[e["data"]["x"], e["data"]["y"]] for e in decisions
                  if e["type"] == "line_placed" and e["data"]["stage"] == 1]
        assert turn["stage1"]["played"] == stage1, turn
        assert all(e["data"]["seat"] == turn["seat"] for e in decisions if e["type"] ==
                   "line_placed"), turn
        s1, s2 = turn["stage1"], turn["stage2"]
        if s1["exact"]:
            assert s1["best"] >= s1["gained"], turn
        assert len(s1["best_lines"]) >= (1 if s1["best"] > 0 else 0), turn
        lost = max(0, s1["best"] - s1["gained"])
        if s2 is not None:
            stage2 = [[e["data"]["x"], e["data"]["y"]] for e in decisions
                      if e["type"] == "line_placed" and e["data"]["stage"] == 2]
            assert stage2 == [[s2["x"], s2["y"]]], turn
            assert len(s2["better"]) == 2
            if s2["exact"]:
                assert s2["gives"] >= s2["least_gives"] >= 0, turn
            lost += max(0, s2["gives"] - s2["least_gives"])
        assert turn["lost"] == lost, turn
        assert turn["exact"] is (s1["exact"] and (s2 is None or s2["exact"])), turn
    assert body["exact"] is all(t["exact"] for t in turns)
    for t1, t2 in zip(turns, turns[1:], strict=False):
        assert t1["seat"] != t2["seat"], (t1, t2)  # the seats take turns
    assert [s["seat"] for s in body["seats"]] == [1, 2]
    for seat in body["seats"]:
        own = [t for t in turns if t["seat"] == seat["seat"]]
        assert seat["gained"] == sum(t["stage1"]["gained"] for t in own)
        assert seat["best"] == sum(t["stage1"]["best"] for t in own)
        assert 0 <= seat["accuracy"] <= 100
        if seat["best"] > 0:
            expected = min(100, round(100 * max(0, seat["gained"]) / seat["best"]))
            assert seat["accuracy"] == expected, seat
        assert seat["given_away"] == sum(
            max(0, t["stage2"]["gives"] - t["stage2"]["least_gives"])
            for t in own if t["stage2"])
        mistakes = seat["mistakes"]
        assert len(mistakes) <= 3
        assert [m["lost"] for m in mistakes] == sorted((m["lost"] for m in mistakes),
                                                       reverse=True)
        by_turn = {t["turn"]: t for t in own}
        for m in mistakes:
            assert m["lost"] > 0 and m["stage"] in (1, 2)
            turn = by_turn[m["turn"]]  # a mistake of one of the seat's own turns
            assert (m["round"], m["start_seq"]) == (turn["round"], turn["start_seq"])


# -- the statuses ----------------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["0" * 32, "bad.id", "%20", "x" * 65, "n%C3%B6"])
def test_no_such_game_is_a_404(any_client: CheckedClient, game_id: str) -> None:
    assert_error(any_client.get(f"/api/games/{game_id}/analysis"), 404, "game_not_found")


def test_a_running_game_is_a_409_and_nothing_is_written(any_app: Flask) -> None:
    client, services = any_app.test_client(), services_of(any_app)
    created = create_game(client, difficulty="easy")
    game_id, token = created["game_id"], created["token"]
    play_hint(client, game_id, token, created["state"])  # a move or two: still running
    before = snapshot(client, game_id)
    details = assert_error(client.get(f"/api/games/{game_id}/analysis"), 409,
                           "game_running")
    assert details == {"game_id": game_id}
    assert snapshot(client, game_id) == before
    assert reviews_pending(services.store) == 0
    assert review_all(services.store) == (0, False)
    assert_error(client.get(f"/api/games/{game_id}/analysis"), 409, "game_running")
    assert services.reviews.accuracies([game_id]) == {}


def test_an_ended_game_is_pending_then_ready(any_app: Flask) -> None:
    client, services = any_app.test_client(), services_of(any_app)
    game_id = computer_game(services, seed=5)
    assert state_of(client, game_id)["over"] is True
    assert analysis(client, game_id, 202) == {"status": "pending", "game_id": game_id}
    assert reviews_pending(services.store) == 1
    before = snapshot(client, game_id)

    assert review_all(services.store) == (1, False)
    assert reviews_pending(services.store) == 0
    body = analysis(client, game_id)
    assert_review_fits_the_game(client, game_id, body)
    assert body["turns"], "a finished game has turns to review"
    assert snapshot(client, game_id) == before  # a review writes no event
    assert client.checked["AnalysisSchema"] == 2

    assert review_all(services.store) == (0, False)  # each game once
    assert analysis(client, game_id) == body


def test_a_review_out_of_budget_says_which_turns_are_approximate(any_app: Flask) -> None:
    client, services = any_app.test_client(), services_of(any_app)
    game_id = computer_game(services, seed=5)
    analyst = Analyst(services.store, review=partial(review_game, units=40))
    assert analyst.catch_up() == 1
    body = analysis(client, game_id)
    assert_review_fits_the_game(client, game_id, body)
    approximate = [t for t in body["turns"] if not t["exact"]]
    assert approximate and body["exact"] is False
    assert any(t["exact"] for t in body["turns"])  # the cheap turns are still exact


def test_several_games_are_each_reviewed_once(any_app: Flask) -> None:
    client, services = any_app.test_client(), services_of(any_app)
    ended = [computer_game(services, seed) for seed in (1, 2, 3)]
    running = create_game(client)["game_id"]
    assert reviews_pending(services.store) == 3
    assert review_all(services.store) == (3, False)
    for game_id in ended:
        assert_review_fits_the_game(client, game_id, analysis(client, game_id))
    assert_error(client.get(f"/api/games/{running}/analysis"), 409, "game_running")
    later = computer_game(services, seed=4)  # ends after the catch-up
    assert analysis(client, later, 202)["status"] == "pending"
    assert review_all(services.store) == (1, False)
    assert analysis(client, later)["status"] == "ready"


def test_an_abandoned_game_is_reviewed_up_to_its_last_whole_turn(any_app: Flask) -> None:
    client, services = any_app.test_client(), services_of(any_app)
    for seed in range(10, 20):  # a game that does not end in its first round
        created = create_game(client, difficulty="easy", height=9, width=11, seed=seed)
        game_id, token = created["game_id"], created["token"]
        state = created["state"]
        while state["round"] < 2 and not state["over"]:  # the player's turn, the computer's
            state = play_hint(client, game_id, token, state)["state"]
        if not state["over"]:
            break
    assert not state["over"] and state["turn"] == 1 and state["stage"] == 1
    state = play_hint(client, game_id, token, state)["state"]  # a turn begun, not ended
    assert not state["over"]
    assert_error(client.get(f"/api/games/{game_id}/analysis"), 409, "game_running")

    services.clock = lambda: utcnow() + LATER
    state = state_of(client, game_id)  # the read writes the abandonment
    assert (state["over"], state["abandoned"]) == (True, "idle")
    assert analysis(client, game_id, 202)["status"] == "pending"
    assert review_all(services.store) == (1, False)
    body = analysis(client, game_id)
    assert_review_fits_the_game(client, game_id, body)
    # the two whole turns; the one left in its stage 1 is not reviewed
    assert [(t["turn"], t["seat"], t["round"]) for t in body["turns"]] == [
        (1, 1, 1), (2, 2, 1)]
    listed = client.get("/api/games?status=abandoned").get_json()["games"]
    assert [g["accuracy"] for g in listed] == [[s["accuracy"] for s in body["seats"]]]


def test_a_deleted_game_takes_its_review_along(any_app: Flask) -> None:
    client, services = any_app.test_client(), services_of(any_app)
    game_id = computer_game(services, seed=6)
    review_all(services.store)
    assert analysis(client, game_id)["status"] == "ready"
    services.admin.delete_game(game_id)
    assert_error(client.get(f"/api/games/{game_id}/analysis"), 404, "game_not_found")
    assert services.reviews.accuracies([game_id]) == {}


# -- the accuracies in the lists -------------------------------------------------------


def test_the_game_list_carries_each_game_s_accuracy(any_app: Flask) -> None:
    client, services = any_app.test_client(), services_of(any_app)
    ended = computer_game(services, seed=7)
    running = create_game(client)["game_id"]

    def accuracies() -> dict[str, Any]:
        games = client.get("/api/games").get_json()["games"]
        return {g["game_id"]: g["accuracy"] for g in games}

    assert accuracies() == {ended: None, running: None}
    review_all(services.store)
    seats = analysis(client, ended)["seats"]
    assert accuracies() == {ended: [seats[0]["accuracy"], seats[1]["accuracy"]],
                            running: None}
    finished = client.get("/api/games?status=finished").get_json()["games"]
    assert [(g["game_id"], g["accuracy"]) for g in finished] == [
        (ended, [seats[0]["accuracy"], seats[1]["accuracy"]])]
    assert client.checked["GameListSchema"] == 3


def _two_players_game(client: CheckedClient,
                      services: Services) -> tuple[str, dict[str, Any]]:
    """A ranked two-player game on 7 x 9: Ali plays the domain's `Greedy` moves (no
    hint: RULES E1 would unrank the game), Veli ends each of his stages 1 at once
    (drawing nothing when he may); (its id, its final state)."""
    created = create_game(client, mode="two_players", player_name="Ali",
                          second_name="Veli", seed=None)
    game_id, token = created["game_id"], created["token"]
    state = created["state"]
    while not state["over"]:
        if state["turn"] == 2 and state["stage"] == 1 and state["legal"]["can_advance"]:
            response = client.post(f"/api/games/{game_id}/advance", headers=bearer(token),
                                   json={"expected_version": state["version"]})
            assert response.status_code == 200, response.get_json()
            state = response.get_json()["state"]
        else:
            state = greedy_move(client, services, game_id, token, state)["state"]
    return game_id, state


def test_high_score_entries_carry_their_seat_s_accuracy(any_app: Flask) -> None:
    client, services = any_app.test_client(), services_of(any_app)

    def table() -> list[dict[str, Any]]:
        entries: list[dict[str, Any]] = client.get(
            "/api/highscores?limit=1000&height=7&width=9&mode=two_players"
        ).get_json()["high_scores"]
        return entries

    for _ in range(3):  # until the seats' accuracies differ: the seat is told apart
        game_id, _final = _two_players_game(client, services)
        assert {e["name"]: e["accuracy"] for e in table() if e["game_id"] == game_id} == {
            "Ali": None, "Veli": None}
        review_all(services.store)
        seats = analysis(client, game_id)["seats"]
        if seats[0]["accuracy"] != seats[1]["accuracy"]:
            break
    assert seats[0]["accuracy"] != seats[1]["accuracy"], seats
    entries = table()
    assert {e["name"]: e["accuracy"] for e in entries if e["game_id"] == game_id} == {
        "Ali": seats[0]["accuracy"], "Veli": seats[1]["accuracy"]}
    defaults = client.get("/api/highscores").get_json()["high_scores"]
    assert len(defaults) == 5 and all(e["accuracy"] is None for e in defaults)
    limited = client.get("/api/highscores?limit=3").get_json()["high_scores"]
    assert all("accuracy" in e for e in limited)


# -- the document ----------------------------------------------------------------------


def test_the_openapi_document_describes_the_analysis(client: CheckedClient) -> None:
    spec = client.get("/api/openapi.json").get_json()
    operation = spec["paths"]["/api/games/{game_id}/analysis"]["get"]
    responses = operation["responses"]
    assert {"200", "202", "404", "409"} <= set(responses)
    assert operation.get("summary")
    assert "security" not in operation  # anyone may read an ended game's review

    def schema_of(status: str) -> str:
        ref: str = responses[status]["content"]["application/json"]["schema"]["$ref"]
        return ref

    assert schema_of("200") == schema_of("202") == "#/components/schemas/Analysis"
    assert schema_of("404") == schema_of("409") == "#/components/schemas/Error"
    schemas = spec["components"]["schemas"]
    props = schemas["Analysis"]["properties"]
    assert props["status"]["enum"] == ["ready", "pending", "failed"]
    assert set(schemas["Analysis"]["required"]) == {"status", "game_id"}
    assert {"turns", "seats", "reviewed_at", "algorithm", "exact"} <= set(props)
    assert {"accuracy", "mistakes", "luck", "given_away"} <= set(
        schemas["SeatReview"]["properties"])
    assert "accuracy" in schemas["ListedGame"]["properties"]
    assert "accuracy" in schemas["HighScore"]["properties"]
