"""The OpenAPI document and the /api/docs page built from it (no CDN)."""

from __future__ import annotations

import re
from typing import Any

from .helpers import CheckedClient

PATHS = {
    "/api/games/{game_id}/live": {"get"},
    "/healthz": {"get"},
    "/readyz": {"get"},
    "/api/games": {"get", "post"},
    "/api/games/{game_id}": {"get"},
    "/api/games/{game_id}/lines": {"post"},
    "/api/games/{game_id}/advance": {"post"},
    "/api/games/{game_id}/computer-turn": {"post"},
    "/api/games/{game_id}/resign": {"post"},
    "/api/games/{game_id}/abort": {"post"},
    "/api/games/{game_id}/claim": {"post"},
    "/api/games/{game_id}/invite-check": {"post"},
    "/api/games/{game_id}/rematch": {"get", "post"},
    "/api/games/{game_id}/events": {"get"},
    "/api/games/{game_id}/replay/{step}": {"get"},
    "/api/games/{game_id}/hint": {"get"},
    "/api/games/{game_id}/analysis": {"get"},
    "/api/games/{game_id}/board.txt": {"get"},
    "/api/highscores": {"get"},
    "/api/players/{name}": {"get"},
    "/api/ratings": {"get"},
    "/api/daily": {"get"},
    "/api/daily/{day}": {"get"},
    "/api/account": {"get"},
    "/api/account/claim/options": {"post"},
    "/api/account/claim": {"post"},
    "/api/account/sign-in/options": {"post"},
    "/api/account/sign-in": {"post"},
    "/api/account/sign-out": {"post"},
    "/api/account/sign-out-everywhere": {"post"},
    "/api/account/passkeys": {"get", "post"},
    "/api/account/passkeys/options": {"post"},
    "/api/account/passkeys/{credential_id}": {"delete"},
    "/api/account/recovery": {"post"},
    "/api/account/forget": {"post"},
}
METHODS = {"get", "post", "put", "patch", "delete", "head", "options"}


def _spec(client: CheckedClient) -> dict[str, Any]:
    response = client.get("/api/openapi.json")
    assert response.status_code == 200
    assert response.mimetype == "application/json"
    spec: dict[str, Any] = response.get_json()
    return spec


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        found = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
        return found + [r for value in node.values() for r in _refs(value)]
    if isinstance(node, list):
        return [r for value in node for r in _refs(value)]
    return []


def test_openapi_document_is_openapi_3_with_every_path(client: CheckedClient) -> None:
    spec = _spec(client)
    assert re.fullmatch(r"3\.\d+\.\d+", spec["openapi"])
    assert spec["info"]["title"] == "Squares" and spec["info"]["version"]
    paths = spec["paths"]
    assert set(paths) == set(PATHS)
    for path, methods in PATHS.items():
        assert set(paths[path]) & METHODS == methods, path
        for method in methods:
            operation = paths[path][method]
            assert operation["responses"], (path, method)
            assert any(code.startswith("2") for code in operation["responses"]), (path, method)
            assert operation.get("summary"), (path, method)
    assert spec["components"]["securitySchemes"]["bearerAuth"] == {
        "type": "http", "scheme": "bearer"}


def test_openapi_refs_resolve(client: CheckedClient) -> None:
    spec = _spec(client)
    refs = _refs(spec)
    assert refs
    for ref in refs:
        assert ref.startswith("#/"), ref
        node: Any = spec
        for part in ref[2:].split("/"):
            assert part in node, ref
            node = node[part]


def test_openapi_moves_need_the_bearer_token(client: CheckedClient) -> None:
    paths = _spec(client)["paths"]
    for path in ("/api/games/{game_id}/lines", "/api/games/{game_id}/advance",
                 "/api/games/{game_id}/computer-turn"):
        operation = paths[path]["post"]
        assert operation["security"] == [{"bearerAuth": []}]
        assert {"401", "403", "404", "409"} <= set(operation["responses"])
    assert "security" not in paths["/api/games/{game_id}"]["get"]


def test_openapi_documents_the_error_statuses(client: CheckedClient) -> None:
    spec = _spec(client)
    paths = spec["paths"]
    assert {"201", "400", "422"} <= set(paths["/api/games"]["post"]["responses"])
    assert {"200", "400", "401", "403", "404", "409", "422"} <= set(
        paths["/api/games/{game_id}/lines"]["post"]["responses"])
    assert "404" in paths["/api/games/{game_id}/replay/{step}"]["get"]["responses"]
    # schema errors are 400 here: no endpoint documents webargs' 422 for them
    for path in ("/api/games", "/api/games/{game_id}/events", "/api/highscores"):
        assert "422" not in paths[path]["get"]["responses"], path
    error = spec["components"]["schemas"]["Error"]
    assert error["required"] == ["error"]
    assert set(spec["components"]["schemas"]["ErrorBody"]["required"]) == {
        "code", "message", "details"}


def test_openapi_new_game_documents_the_rules_limits(client: CheckedClient) -> None:
    props = _spec(client)["components"]["schemas"]["NewGame"]["properties"]
    assert props["difficulty"]["enum"] == ["easy", "moderate", "hard", "expert"]
    assert props["mode"]["enum"] == ["vs_computer", "two_players", "online",
                                     "computer_vs_computer"]
    assert (props["height"]["minimum"], props["height"]["maximum"]) == (7, 41)
    assert (props["width"]["minimum"], props["width"]["maximum"]) == (7, 81)


def test_api_docs_page_lists_every_path_without_external_urls(client: CheckedClient) -> None:
    response = client.get("/api/docs")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    for path in PATHS:
        assert f"<code>{path}</code>" in html, path
    assert "/api/openapi.json" in html
    # nothing loaded from the network: no external scripts, styles, images or fonts
    assert not re.search(r"""<script[^>]*\bsrc\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert not re.search(r"""<link[^>]*\bhref\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert not re.search(r"""\b(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert not re.search(r"""@import|url\(\s*["']?\s*(https?:)?//""", html, re.I)


def test_api_docs_page_shows_code_spans_as_code_not_backticks(client: CheckedClient) -> None:
    """The docstrings' ``double`` and `single` backticks (CommonMark code spans in the
    OpenAPI document, kept there) are <code> elements on the page (issue 35, item 9)."""
    spec = _spec(client)
    assert "``too_many_games``" in spec["paths"]["/api/games"]["post"]["summary"]
    html = client.get("/api/docs").get_data(as_text=True)
    assert "`" not in html
    assert "<code>too_many_games</code>" in html
    assert "<code>Authorization: Bearer &lt;token&gt;</code>" in html
