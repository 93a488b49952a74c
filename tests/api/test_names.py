"""Player names through the API and the CLI (issue 23, fair play): NFKC names, no
blank-looking names, and no look-alike of a different name in the high score table
(409 ``name_confusable``, in the one error shape, naming the existing name). Every
refusal writes nothing."""

from __future__ import annotations

from typing import Any

from service.services import Services
from tests.conftest import SquaresRunner

from .helpers import CheckedClient, assert_error, create_game, snapshot, state_of

CYRILLIC_EDA = "\u0415da F\u0131rat"  # a Cyrillic Е beside the table's "Eda Fırat"


def _post_game(client: CheckedClient, **body: Any) -> Any:
    return client.post("/api/games", json={"height": 7, "width": 9, "seed": 7, **body})


def _game_count(client: CheckedClient) -> int:
    response = client.get("/api/games")
    assert response.status_code == 200
    total: int = response.get_json()["total"]
    return total


def test_a_cyrillic_lookalike_of_a_table_name_is_refused_and_the_name_itself_accepted(
        client: CheckedClient) -> None:
    response = _post_game(client, player_name=CYRILLIC_EDA)
    details = assert_error(response, 409, "name_confusable")
    assert details == {"field": "player_name", "existing": "Eda Fırat"}
    assert "Eda Fırat" in response.get_json()["error"]["message"]
    assert _game_count(client) == 0

    created = create_game(client, player_name="Eda Fırat")  # a player plays on under it
    assert created["state"]["seats"][0]["name"] == "Eda Fırat"
    assert _game_count(client) == 1


def test_the_second_player_of_two_is_checked_too(client: CheckedClient) -> None:
    response = _post_game(client, player_name="Cem", mode="two_players",
                          second_name="AIi Okyanus")  # a capital I for the l
    details = assert_error(response, 409, "name_confusable")
    assert details == {"field": "second_name", "existing": "Ali Okyanus"}
    assert _game_count(client) == 0


def test_a_name_entered_in_the_table_later_is_guarded_as_well(
        client: CheckedClient, services: Services) -> None:
    assert create_game(client, player_name="Zeynep")  # nobody like her in the table yet
    services.admin.add_high_score("Zeynep", 120)
    assert_error(_post_game(client, player_name="Z\u0435ynep"), 409, "name_confusable")
    assert create_game(client, player_name="Zeynep")


def test_names_are_stored_normalised(client: CheckedClient) -> None:
    created = create_game(client, player_name=" \uff21\uff4c\uff49 ")  # full-width "Ali"
    assert state_of(client, created["game_id"])["seats"][0]["name"] == "Ali"


def test_blank_looking_names_are_refused(client: CheckedClient) -> None:
    for name in ("\u3164", "\u2800", "\ufdfd" * 32):
        details = assert_error(_post_game(client, player_name=name), 422, "invalid_name")
        assert details == {"field": "player_name"}
    assert _game_count(client) == 0


def test_a_claim_with_a_lookalike_name_is_refused_and_writes_nothing(
        client: CheckedClient) -> None:
    created = create_game(client, mode="online", player_name="Ann")
    game_id, code = created["game_id"], created["invite"]["code"]
    before = snapshot(client, game_id)

    refused = client.post(f"/api/games/{game_id}/claim",
                          json={"code": code, "name": CYRILLIC_EDA})
    details = assert_error(refused, 409, "name_confusable")
    assert details == {"field": "name", "existing": "Eda Fırat"}
    assert snapshot(client, game_id) == before
    assert state_of(client, game_id)["open_seat"] == 2

    claimed = client.post(f"/api/games/{game_id}/claim", json={"code": code, "name": "Eda Fırat"})
    assert claimed.status_code == 201, claimed.get_json()  # the invitation is still good


def test_the_cli_reports_a_lookalike_as_a_clear_error(runner: SquaresRunner,
                                                      services: Services) -> None:
    result = runner("highscores", "add", CYRILLIC_EDA, "10")
    assert result.exit_code == 1
    assert "looks like 'Eda Fırat'" in result.stderr and "(name_confusable)" in result.stderr
    assert "Traceback" not in result.stderr
    assert CYRILLIC_EDA not in {h.name for h in services.queries.high_scores(100)}


def test_RULES_a_name_under_a_heap_of_combining_marks_is_422_invalid_name(
        client: CheckedClient) -> None:
    zalgo = "a" + "\u0301" * 31  # one letter, 31 marks: 30 once NFKC composes á
    details = assert_error(_post_game(client, player_name=zalgo), 422, "invalid_name")
    assert details == {"field": "player_name"}
    response = _post_game(client, player_name="Cem", mode="two_players",
                          second_name="Veli" + "\u0353" * 4)
    assert assert_error(response, 422, "invalid_name") == {"field": "second_name"}
    assert _game_count(client) == 0
    assert create_game(client, player_name="Veli" + "\u0353" * 3)  # three are allowed


def test_RULES_every_variant_of_a_table_name_is_refused_and_the_name_itself_accepted(
        client: CheckedClient, services: Services) -> None:
    # "Eda Fırat" is in the default table, and enters it once more by hand
    services.admin.add_high_score("Eda F\u0131rat", 10)
    for blank in ("\u2800", "\u3164", "\uffa0"):  # a blank letter for the space
        response = _post_game(client, player_name=f"Eda{blank}F\u0131rat")
        assert assert_error(response, 422, "invalid_name") == {"field": "player_name"}
        assert "invisible or blank" in response.get_json()["error"]["message"]
    for variant in ("eda f\u0131rat", "EDA FIRAT", "Eda F\u0131ra\u1e6d", "Eda F\u0131rat\u0323",
                    CYRILLIC_EDA):
        details = assert_error(_post_game(client, player_name=variant), 409, "name_confusable")
        assert details == {"field": "player_name", "existing": "Eda F\u0131rat"}
    assert _game_count(client) == 0

    for same in ("Eda F\u0131rat", "Eda  F\u0131rat", "Eda\u00a0F\u0131rat"):  # shown alike
        created = create_game(client, player_name=same)
        assert created["state"]["seats"][0]["name"] == "Eda F\u0131rat"
    assert _game_count(client) == 3
