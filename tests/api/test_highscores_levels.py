"""The high score tables say what they rank (docs/rules.md, "How each table ranks"):
the main table ranks each level of the computer apart, the hardest first, with the
entries without a level (RULES E2's, those added by hand) last; each row carries its
level; ``?difficulty=`` shows one level, ranked among itself; an unknown level is a
400. Over the API on both databases, and on the page."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask

from service.domain.ranking import DEFAULT_HIGH_SCORES
from service.domain.start import LEVELS
from service.services import Services
from tests.conftest import services_of
from tests.factories import GameFactory

from .helpers import CheckedClient, assert_error
from .test_error_pages import BROWSER, assert_error_page

SMALL = "height=7&width=9"
HARDEST_FIRST = ["expert", "hard", "moderate", "easy"]


def _fill(services: Services) -> dict[str, list[str]]:
    """The 7 x 9 main table: two finished games at each of easy and expert (played
    here, their rows from the games), and entries added by hand: an easy one scoring
    above every game, a hard one scoring below, one with no level. The game ids by
    level."""
    games: dict[str, list[str]] = {"easy": [], "expert": []}
    for level, seeds in (("easy", (11, 12)), ("expert", (13, 14))):
        for seed in seeds:
            game = GameFactory.create(services=services, finished=True, small=True,
                                      difficulty=level, seed=seed)
            games[level].append(game.game_id)
    services.admin.add_high_score("Kolay Rekor", 9999, "easy", height=7, width=9)
    services.admin.add_high_score("Zor Az", -5, "hard", height=7, width=9)
    services.admin.add_high_score("Elle", 5000, "manual", height=7, width=9)
    return games


def _table(client: CheckedClient, query: str) -> list[dict[str, Any]]:
    response = client.get(f"/api/highscores?{query}")
    assert response.status_code == 200, response.get_json()
    rows: list[dict[str, Any]] = response.get_json()["high_scores"]
    return rows


def _in_table_order(rows: list[dict[str, Any]]) -> None:
    """Levels hardest first, then the rows without one; within each, descending score
    and ranks 1, 2, …"""
    def group(row: dict[str, Any]) -> int:
        level = row["difficulty"]
        return HARDEST_FIRST.index(level) if level in HARDEST_FIRST else len(HARDEST_FIRST)

    groups = [group(row) for row in rows]
    assert groups == sorted(groups), [row["difficulty"] for row in rows]
    for each in set(groups):
        mine = [row for row in rows if group(row) == each]
        assert [row["rank"] for row in mine] == list(range(1, len(mine) + 1))
        assert [row["score"] for row in mine] == sorted((r["score"] for r in mine),
                                                         reverse=True)


def test_RULES_the_main_table_ranks_each_level_apart_the_hardest_first(
        any_app: Flask, any_client: CheckedClient) -> None:
    games = _fill(services_of(any_app))
    rows = _table(any_client, f"{SMALL}&limit=100")
    _in_table_order(rows)
    # every row carries its level: a game's is the computer's it was played against
    by_game = {row["game_id"]: row for row in rows if row["game_id"]}
    assert {g: by_game[g]["difficulty"] for gs in games.values() for g in gs} == {
        g: level for level, gs in games.items() for g in gs}
    levels = [row["difficulty"] for row in rows]
    assert levels == ["expert", "expert", "hard", "easy", "easy", "easy", "manual"]
    # the easy record scores above every expert game, yet ranks first among the easy
    # ones only, below them; the hand-made entry without a level comes last
    record = next(row for row in rows if row["name"] == "Kolay Rekor")
    assert record["score"] > max(row["score"] for row in rows if row["difficulty"] == "expert")
    assert (record["rank"], rows.index(record)) == (1, 3)
    assert (rows[-1]["name"], rows[-1]["rank"]) == ("Elle", 1)
    # a limit cuts the table in its order: the hardest levels' best first
    assert _table(any_client, f"{SMALL}&limit=3") == rows[:3]


def test_RULES_a_level_filter_shows_that_level_ranked_among_itself(
        any_app: Flask, any_client: CheckedClient) -> None:
    games = _fill(services_of(any_app))
    everything = _table(any_client, f"{SMALL}&limit=100")
    for level in LEVELS:
        rows = _table(any_client, f"{SMALL}&limit=100&difficulty={level}")
        assert {row["difficulty"] for row in rows} <= {level}
        assert rows == [row for row in everything if row["difficulty"] == level]
        assert [row["rank"] for row in rows] == list(range(1, len(rows) + 1))
    easy = _table(any_client, f"{SMALL}&difficulty=easy&limit=2")
    assert [row["name"] for row in easy][0] == "Kolay Rekor"
    assert len(easy) == 2 and easy[1]["game_id"] in games["easy"]
    assert _table(any_client, f"{SMALL}&difficulty=moderate") == []
    # the mode's default stays the main table; the level goes with it explicitly too
    assert _table(any_client, f"{SMALL}&mode=vs_computer&difficulty=easy&limit=100") == \
        _table(any_client, f"{SMALL}&difficulty=easy&limit=100")


def test_RULES_E2_the_original_entries_have_no_level_and_rank_after_the_levels(
        any_app: Flask, any_client: CheckedClient) -> None:
    services_of(any_app).admin.add_high_score("Usta", 1, "expert")  # the default field
    rows = _table(any_client, "limit=100")
    assert [(row["name"], row["difficulty"], row["rank"]) for row in rows[:1]] == [
        ("Usta", "expert", 1)]
    originals = rows[1:]
    assert [(row["name"], row["score"]) for row in originals] == sorted(
        DEFAULT_HIGH_SCORES, key=lambda entry: -entry[1])
    assert all(row["difficulty"] is None and row["source"] == "original" for row in originals)
    assert [row["rank"] for row in originals] == [1, 2, 3, 4, 5]
    assert _table(any_client, "difficulty=expert") == rows[:1]
    assert _table(any_client, "difficulty=hard") == []


def test_two_humans_tables_have_no_levels(app: Flask, client: CheckedClient) -> None:
    services = services_of(app)
    for seed in (21, 22):
        GameFactory.create(services=services, finished=True, small=True, seed=seed,
                           mode="two_players")
    rows = _table(client, f"{SMALL}&mode=two_players&limit=100")
    assert len(rows) == 4 and {row["difficulty"] for row in rows} == {"two_players"}
    assert [row["rank"] for row in rows] == [1, 2, 3, 4]
    assert [row["score"] for row in rows] == sorted((r["score"] for r in rows), reverse=True)
    details = assert_error(client.get(f"/api/highscores?{SMALL}&mode=two_players"
                                      "&difficulty=easy"), 400, "invalid_request")
    assert "difficulty" in details["fields"]["query"]


def test_an_unknown_level_is_a_400(client: CheckedClient) -> None:
    for bad in ("impossible", "EASY", "Easy", "", "default", "manual", "two_players",
                "easy,hard", "ｅａｓｙ"):
        response = client.get("/api/highscores", query_string={"difficulty": bad})
        details = assert_error(response, 400, "invalid_request")
        assert details["fields"]["query"]["difficulty"], bad
        page = client.get("/highscores", headers=BROWSER, query_string={"difficulty": bad})
        if bad:  # empty: every level, as the form's first choice sends it
            assert "difficulty" in assert_error_page(page, 400, "Bad request"), bad
        else:
            assert page.status_code == 200


def _page_rows(html: str) -> list[tuple[str, str, str]]:
    """Each entry row of the page's table: (its data-level, its # cell, its level cell)."""
    return re.findall(r'<tr [^>]*data-level="([^"]*)">\s*<td class="num" data-label="#">'
                      r'(\d+)</td>.*?<td class="level[^"]*" data-label="Difficulty">([^<]*)</td>',
                      html, flags=re.S)


def test_the_page_shows_the_level_of_each_row_and_filters_by_level(
        app: Flask, client: CheckedClient) -> None:
    _fill(services_of(app))
    html = client.get("/highscores?size=7x9", headers=BROWSER).get_data(as_text=True)
    rows = _page_rows(html)
    assert [level for level, _, _ in rows] == [
        "expert", "expert", "hard", "easy", "easy", "easy", ""]
    assert [int(rank) for _, rank, _ in rows] == [1, 2, 1, 1, 2, 3, 1]
    assert [shown for _, _, shown in rows][-1] == "manual"  # as the operator wrote it
    heads = re.findall(r'<tr class="level-head"><th colspan="8" scope="rowgroup">([^<]*)</th>',
                       html)
    assert heads == ["expert", "hard", "easy", "without a level"]
    # the filter: a select in the form that keeps the size and the table
    assert re.search(r'<select name="difficulty" id="level-filter">', html)
    response = client.get("/highscores?size=7x9&mode=vs_computer&difficulty=easy",
                          headers=BROWSER)
    html = response.get_data(as_text=True)
    assert _page_rows(html) == [
        ("easy", "1", "easy"), ("easy", "2", "easy"), ("easy", "3", "easy")]
    assert "level-head" not in html
    assert '<option value="easy" selected>easy</option>' in html
    assert '<option value="7x9" selected>' in html
    assert "High scores on 7 × 9, easy level</h1>" in html
    # the originals of the default field: no level, "—"
    html = client.get("/highscores", headers=BROWSER).get_data(as_text=True)
    assert {(level, shown) for level, _, shown in _page_rows(html)} == {("", "—")}


def test_the_page_drops_a_level_for_a_table_without_levels(
        app: Flask, client: CheckedClient) -> None:
    """The filter form carries the level when the table changes: two humans' table
    has none, so it is shown whole, without the level filter."""
    GameFactory.create(services=services_of(app), finished=True, small=True, seed=31,
                       mode="two_players")
    response = client.get("/highscores?size=7x9&mode=two_players&difficulty=hard",
                          headers=BROWSER)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.count("data-entry-id=") == 2
    assert 'id="level-filter"' not in html and "level-head" not in html
