"""Issue 34's "done when", through the API and the pages on the default field: a game
played from the hints, a self-fed two-player game and a forged import never appear in
the default (main) table; an unassisted game against the computer does, with its field
size; the table is one per size, over the API and on the page (RULES E1, E2, M2)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask

from service.domain.commands import NewGame
from service.domain.export_format import to_jsonl
from squares_testing.greedy import Greedy
from squares_testing.play import flask_send, own_move, play_out
from tests.apps import app_for_tests
from tests.conftest import close_app, services_of

from .helpers import CheckedClient, create_game, play_to_end, play_unassisted

DEFAULT = {"height": 19, "width": 33}


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory, sqlite_template: Any) -> Iterator[Flask]:
    """One app for the module, its limits off: whole default-field games, one of them
    with a hint before every move, take more requests than a minute allows."""
    from tests.databases import copy_sqlite

    url = copy_sqlite(sqlite_template, tmp_path_factory.mktemp("trusted") / "squares.db")
    app = app_for_tests({"DATABASE_URL": url, "SQUARES_RATELIMIT_ENABLED": "0"})
    app.test_client_class = CheckedClient
    yield app
    close_app(app)


@pytest.fixture(scope="module")
def played(app: Flask) -> dict[str, str]:
    """The four games of the issue, each on the default field, ended."""
    client = app.test_client()
    ids: dict[str, str] = {}
    honest = create_game(client, player_name="Dürüst", difficulty="easy", seed=None, **DEFAULT)
    play_unassisted(client, honest["game_id"], honest["token"])
    ids["unassisted"] = honest["game_id"]
    hinted = create_game(client, player_name="İpucu", difficulty="easy", seed=None, **DEFAULT)
    play_to_end(client, hinted["game_id"], hinted["token"])  # a hint before every move
    ids["hinted"] = hinted["game_id"]
    pair = create_game(client, mode="two_players", player_name="Tek", second_name="Kişi",
                       seed=None, **DEFAULT)
    state = pair["state"]
    while not state["over"]:  # seat 2 feeds seat 1: it ends its stages 1 at once
        state = own_move(flask_send(client), pair["game_id"], pair["token"], state)["state"]
    ids["self_fed"] = pair["game_id"]
    forged = play_out(NewGame(seed="the attacker's", player_name="Sahte", difficulty="hard",
                              ranked=True, **DEFAULT), Greedy())[0]
    ids["forged"] = services_of(app).admin.import_game(to_jsonl(forged))  # unsigned
    return ids


def _main(client: CheckedClient, query: str = "") -> list[dict[str, Any]]:
    response = client.get(f"/api/highscores?limit=1000{query}")
    assert response.status_code == 200
    table: list[dict[str, Any]] = response.get_json()["high_scores"]
    return table


def test_rule_E1_M2_only_the_unassisted_game_against_the_computer_is_in_the_main_table(
        app: Flask, played: dict[str, str]) -> None:
    client = app.test_client()
    table = _main(client)  # the default field's main table, by default
    assert table == _main(client, "&height=19&width=33&mode=vs_computer")
    ours = {e["game_id"]: e for e in table if e["game_id"] in played.values()}
    assert set(ours) == {played["unassisted"]}
    entry = ours[played["unassisted"]]
    assert (entry["name"], entry["height"], entry["width"], entry["source"],
            entry["hints_recorded"]) == ("Dürüst", 19, 33, "game", True)
    # the self-fed pair in its own table, both seats; the others in none
    pairs = _main(client, "&mode=two_players")
    assert sorted(e["name"] for e in pairs if e["game_id"] == played["self_fed"]) == [
        "Kişi", "Tek"]
    for mode in ("vs_computer", "two_players", "online"):
        rows = _main(client, f"&mode={mode}")
        assert not {e["game_id"] for e in rows} & {played["hinted"], played["forged"]}


def test_rule_E1_the_games_list_says_why_a_game_is_in_no_table(
        app: Flask, played: dict[str, str]) -> None:
    client = app.test_client()
    listed = {g["game_id"]: g for g in client.get("/api/games?limit=100").get_json()["games"]}
    assert (listed[played["hinted"]]["assisted"], listed[played["hinted"]]["origin"]) == (
        True, "here")
    assert (listed[played["forged"]]["assisted"], listed[played["forged"]]["origin"]) == (
        False, "archive")
    assert (listed[played["unassisted"]]["assisted"],
            listed[played["unassisted"]]["origin"]) == (False, "here")
    html = client.get("/games", headers={"Accept": "text/html"}).get_data(as_text=True)
    for key, tag in (("hinted", "assisted"), ("forged", "archive")):
        row = re.search(rf'<tr data-game-id="{played[key]}".*?</tr>', html, re.S)
        assert row and f'class="tag tag-{tag}"' in row.group(0), key
    row = re.search(rf'<tr data-game-id="{played["unassisted"]}".*?</tr>', html, re.S)
    assert row and "tag-assisted" not in row.group(0) and "tag-archive" not in row.group(0)


def test_rule_E1_E2_the_page_shows_one_table_per_size_the_defaults_from_the_original_game(
        app: Flask, played: dict[str, str]) -> None:
    client = app.test_client()
    html = client.get("/highscores").get_data(as_text=True)
    assert "<h1>High scores on 19 × 33</h1>" in html
    originals = re.findall(r'<tr[^>]*data-source="original".*?</tr>', html, re.S)
    assert len(originals) == 5
    assert all("from the original game" in row and "replay-link" not in row
               for row in originals)
    assert f'href="/games/{played["unassisted"]}"' in html
    assert played["hinted"] not in html and played["forged"] not in html
    small = client.get("/highscores?size=7x9").get_data(as_text=True)
    assert "<h1>High scores on 7 × 9</h1>" in small and "from the original game" not in small
    pairs = client.get(f"/highscores?game={played['self_fed']}").get_data(as_text=True)
    assert "<h1>Two-player results on 19 × 33</h1>" in pairs
    assert len(re.findall(r'<tr class="mine"', pairs)) == 2
    for bad in ("size=19", "size=6x9", "size=19x999", "mode=computer_vs_computer"):
        assert client.get(f"/highscores?{bad}",
                          headers={"Accept": "text/html"}).status_code == 400, bad


def test_the_openapi_document_describes_tables_hints_and_origins(app: Flask) -> None:
    spec = app.test_client().get("/api/openapi.json").get_json()
    params = {p["name"]: p for p in spec["paths"]["/api/highscores"]["get"]["parameters"]}
    assert {"height", "width", "mode", "limit"} <= set(params)
    assert params["mode"]["schema"]["enum"] == ["vs_computer", "two_players", "online"]
    schemas = spec["components"]["schemas"]
    assert {"version", "assisted"} <= set(schemas["Hint"]["required"])
    assert {"assisted", "table"} <= set(schemas["State"]["required"])
    assert schemas["Summary"]["properties"]["origin"]["enum"] == ["here", "signed", "archive"]
    assert {"mode", "source", "hints_recorded"} <= set(schemas["HighScore"]["required"])
    hint = spec["paths"]["/api/games/{game_id}/hint"]["get"]
    assert hint["security"] == [{"bearerAuth": []}] and "401" in hint["responses"]
