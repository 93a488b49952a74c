"""A player's page as JSON, ``GET /api/players/<name>``, and as a page: the games
where a human seat has the name (any way of writing it: `names.name_key`), newest
first a page at a time, the best score per high score table, the average review
accuracy and the online record; 404 for a name no game has, 400 for a name no
player can have. On SQLite and PostgreSQL (``any_client``)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask

from service.projections.catch_up import review_all
from service.services import Services
from squares_testing.play import play_unassisted
from tests.conftest import services_of

from .helpers import CheckedClient, assert_error

EDA = "Eda Fırat"


def path(name: str, query: str = "") -> str:
    """The API path of the player `name` (every character but the unreserved ones
    percent-encoded, as the pages' links write it)."""
    return f"/api/players/{quote(name, safe='')}" + (f"?{query}" if query else "")


def get(client: CheckedClient, name: str, query: str = "") -> dict[str, Any]:
    response = client.get(path(name, query))
    assert response.status_code == 200, response.get_json()
    body: dict[str, Any] = response.get_json()
    return body


def new_game(services: Services, name: str = EDA, **kwargs: Any) -> str:
    """A practice game (a chosen seed) of `name` on a 7 x 9 field, unfinished."""
    kwargs.setdefault("seed", 5)
    created = services.play.create_game(player_name=name, height=7, width=9, **kwargs)
    return created.game_id


def ranked_game(services: Services, name: str = EDA, **kwargs: Any) -> str:
    """A ranked game of `name` on a 7 x 9 field, played to its end without a hint."""
    created = services.play.create_game(player_name=name, height=7, width=9, seed=None,
                                        difficulty="easy", **kwargs)
    play_unassisted(services, created.game_id, created.token, created.state)
    return created.game_id


def online_game(services: Services, creator: str, friend: str) -> str:
    """A ranked online game of `creator` and `friend`, played to its end."""
    created = services.play.create_game(player_name=creator, mode="online", height=7,
                                        width=9, seed=None)
    assert created.invite is not None
    claimed = services.play.claim_seat(created.game_id, created.invite.code, friend)
    play_unassisted(services, created.game_id, {1: created.token, 2: claimed.token},
                    claimed.state)
    return created.game_id


@pytest.fixture
def services(any_app: Flask) -> Services:
    return services_of(any_app)


def test_a_players_games_newest_first_a_page_at_a_time(any_client: CheckedClient,
                                                       services: Services) -> None:
    mine = [new_game(services, seed=n) for n in range(1, 4)]
    new_game(services, "Bora")  # someone else's
    body = get(any_client, EDA)
    assert body["name"] == EDA and body["claimed"] is False
    assert body["url"] == "/players/Eda%20F%C4%B1rat"
    assert body["total"] == 3 and (body["limit"], body["offset"]) == (20, 0)
    assert [g["game_id"] for g in body["games"]] == mine[::-1]
    first = body["games"][0]
    assert first["mode"] == "vs_computer" and (first["height"], first["width"]) == (7, 9)
    assert first["level"] == "moderate" and first["seat"] == 1
    assert first["seats"] == [
        {"seat": 1, "name": EDA, "kind": "human", "player_url": "/players/Eda%20F%C4%B1rat"},
        {"seat": 2, "name": "Computer", "kind": "computer", "player_url": None}]
    assert first["status"] == "active" and first["result"] is None
    assert first["scores"] == [0, 0] and first["accuracy"] is None
    assert first["ranked"] is False and first["finished_at"] is None
    # pages: limit and offset, as the games list's
    pages = [get(any_client, EDA, f"limit=2&offset={offset}") for offset in (0, 2, 4)]
    assert [[g["game_id"] for g in p["games"]] for p in pages] == [
        mine[:0:-1], mine[:1], []]
    assert {p["total"] for p in pages} == {3}
    # a page has at most 100 games; offsets are numbers
    for query in ("limit=101", "limit=0", "offset=-1", "limit=x"):
        assert_error(any_client.get(path(EDA, query)), 400, "invalid_request")


def test_any_way_of_writing_the_name_finds_the_same_player(any_client: CheckedClient,
                                                            services: Services) -> None:
    game = new_game(services)
    for written in ("eda fırat", "EDA FIRAT", "  Eda   Fırat ", "Eda Firat", "Ｅｄａ Fırat"):
        body = get(any_client, written)
        assert body["name"] == EDA, written  # as the newest game writes it
        assert [g["game_id"] for g in body["games"]] == [game], written


def test_a_name_of_no_game_is_404_and_one_no_player_can_have_is_400(
        any_client: CheckedClient, services: Services) -> None:
    new_game(services)
    details = assert_error(any_client.get(path("Nobody")), 404, "player_not_found")
    assert details == {"name": "Nobody"}
    # a name in the high score table without a game (RULES E2's defaults) is nobody's
    assert_error(any_client.get(path("Tarık Yolcu")), 404, "player_not_found")
    # a name the computer has is no player's: its seats are not keyed
    assert_error(any_client.get(path("Computer")), 404, "player_not_found")
    for bad in ("\u200b", "x" * 33, "a\x07b", "---", "x" * 300):
        details = assert_error(any_client.get(path(bad)), 400, "invalid_request")
        assert list(details["fields"]["path"]) == ["name"], bad


def test_names_with_slashes_and_question_marks_have_their_own_page(
        any_client: CheckedClient, services: Services) -> None:
    odd = "a/../b?c#d 50%"
    game = new_game(services, odd)
    body = get(any_client, odd)
    assert body["name"] == odd and [g["game_id"] for g in body["games"]] == [game]
    assert body["url"] == "/players/a%2F..%2Fb%3Fc%23d%2050%25"
    assert any_client.get(body["url"]).status_code == 200
    assert any_client.get("/api" + body["url"]).status_code == 200
    assert_error(any_client.get(path("b?c#d 50%")), 404, "player_not_found")


def test_best_score_per_table_average_accuracy_and_online_record(
        any_client: CheckedClient, services: Services) -> None:
    solo = [ranked_game(services) for _ in range(2)]  # the main table on 7 x 9
    pair = ranked_game(services, "Bora", mode="two_players", second_name=EDA)  # seat 2
    online = [online_game(services, EDA, "Bora") for _ in range(2)]
    practice = new_game(services)  # unranked: in no table
    body = get(any_client, EDA)
    assert body["total"] == 6
    # her entries, as the tables list them
    tables = {mode: any_client.get(f"/api/highscores?mode={mode}&height=7&width=9&limit=1000")
              .get_json()["high_scores"] for mode in ("vs_computer", "two_players", "online")}
    mine = {mode: [e["score"] for e in rows if e["name"] == EDA]
            for mode, rows in tables.items()}
    assert len(mine["vs_computer"]) == 2 and len(mine["two_players"]) == 1
    assert len(mine["online"]) == 2
    assert body["best_scores"] == [
        {"mode": mode, "height": 7, "width": 9, "score": max(mine[mode]),
         "entries": len(mine[mode])}
        for mode in ("vs_computer", "two_players", "online")]
    # each entry of a game links to its player's page
    assert {e["player_url"] for e in tables["online"]} == {
        "/players/Eda%20F%C4%B1rat", "/players/Bora"}
    # her seat in each game, and its result
    games = {g["game_id"]: g for g in body["games"]}
    assert games[pair]["seat"] == 2 and games[solo[0]]["seat"] == 1
    for game_id in (*solo, pair, *online):
        game = games[game_id]
        assert game["status"] == "finished" and game["finished_at"]
        hers, theirs = game["scores"][game["seat"] - 1], game["scores"][2 - game["seat"]]
        want = "won" if hers > theirs else "lost" if hers < theirs else "drawn"
        assert game["result"] == want, game
    assert games[practice]["result"] is None
    # the online record: her finished online games, from her seat; Bora's mirrors it
    record = body["online"]
    assert sum(record.values()) == 2
    wins = sum(games[g]["result"] == "won" for g in online)
    assert record["wins"] == wins
    bora = get(any_client, "bora")["online"]
    assert (bora["wins"], bora["losses"], bora["draws"]) == (
        record["losses"], record["wins"], record["draws"])
    # no review yet: no accuracy
    assert body["accuracy"] is None and body["reviewed"] == 0
    assert all(g["accuracy"] is None for g in body["games"])

    review_all(services.store)
    body = get(any_client, EDA)
    accuracies = services.reviews.accuracies(games)
    seats = {g["game_id"]: g["seat"] for g in body["games"]}
    hers = {game_id: accuracies[game_id][seats[game_id] - 1] for game_id in accuracies}
    assert {g["game_id"]: g["accuracy"] for g in body["games"] if g["game_id"] in hers} == hers
    judged = [a for a in hers.values() if a is not None]
    assert judged and body["reviewed"] == len(judged)
    assert body["accuracy"] == round(sum(judged) / len(judged))


def test_the_player_page_shows_the_player_and_links_every_name(
        any_client: CheckedClient, services: Services) -> None:
    ranked = ranked_game(services)
    other = new_game(services, "Bo/ra?", mode="two_players", second_name="Ece")
    page = any_client.get(path(EDA).removeprefix("/api"))
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert '<h1 class="player-name">Eda Fırat</h1>' in html
    assert f'data-game-id="{ranked}"' in html and 'id="player-best"' in html
    # the high score table, the games list and the replay link the names
    eda = 'href="/players/Eda%20F%C4%B1rat"'
    highscores = any_client.get(f"/highscores?game={ranked}").get_data(as_text=True)
    assert f'<a class="name-text player-link" {eda} title="Eda Fırat">Eda Fırat</a>' in highscores
    assert "Tarık Yolcu</span>" in any_client.get("/highscores").get_data(as_text=True)
    games = any_client.get("/games").get_data(as_text=True)
    assert f'<a class="who-1 player-link" {eda}>Eda Fırat</a>' in games
    assert '<a class="who-1 player-link" href="/players/Bo%2Fra%3F">Bo/ra?</a>' in games
    assert '<span class="who-2">Computer</span>' in games
    replay = any_client.get(f"/games/{other}").get_data(as_text=True)
    assert 'href="/players/Ece"' in replay
    live = any_client.get("/live").get_data(as_text=True)
    assert 'href="/players/Bo%2Fra%3F"' in live and 'href="/players/Ece"' in live
    assert any_client.get(f"/watch/{other}").get_data(as_text=True).count(
        "player-link") == 2


def test_the_pages_answers_for_no_player_and_a_bad_name(any_client: CheckedClient,
                                                        services: Services) -> None:
    new_game(services)
    missing = any_client.get("/players/Nobody")
    assert missing.status_code == 404 and "No such player" in missing.get_data(as_text=True)
    assert any_client.get("/players/%E2%80%8B").status_code == 400
    assert any_client.get(path(EDA, "page=0").removeprefix("/api")).status_code == 400
    assert any_client.get(path(EDA, "page=2").removeprefix("/api")).status_code == 200
