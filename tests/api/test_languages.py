"""English and Turkish (service/http/language.py): the pages and the API's error
messages in the language the player chose with the header's switcher (the cookie
``lang``), else the one their browser asks for (``Accept-Language``), else English.

Every page is rendered in Turkish, and no English text of the catalog may be left on
it: a string the templates show without ``_()`` (or a msgid whose Turkish was never
written) fails here, by name. The catalog's completeness against what
``pybabel extract`` finds is tests/unit/test_catalogs.py.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from .helpers import CheckedClient, bearer, create_game

PO = Path(__file__).resolve().parents[2] / "service/translations/tr/LC_MESSAGES/messages.po"
TR = {"Accept-Language": "tr"}
SHOWN_ATTRIBUTES = ("title", "aria-label", "placeholder", "data-label", "aria-roledescription",
                    "alt")


class Words(HTMLParser):
    """A page's visible words: its text (no script, no style) and the attributes a
    reader meets (titles, labels, placeholders)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.attributes: list[str] = []
        self._hidden = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._hidden += 1
        self.attributes += [v.strip() for k, v in attrs if k in SHOWN_ATTRIBUTES and v]

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._hidden -= 1

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.texts.append(" ".join(data.split()))


def words_of(html: str) -> Words:
    words = Words()
    words.feed(html)
    return words


def english_left(html: str) -> list[str]:
    """The catalog's English texts (those whose Turkish differs) that `html` still
    shows: a whole text or attribute equal to a msgid, or, for a msgid of three words
    or more, anywhere in the page's text (markup and placeholders taken out)."""
    words = words_of(html)
    pieces = set(words.texts) | set(words.attributes)
    text = " ".join(words.texts + words.attributes)
    left = []
    for msgid in untranslated_english():
        visible = " ".join(re.sub(r"<[^>]+>", "", msgid).replace("&nbsp;", "\u00a0").split())
        if visible in pieces or (len(visible.split()) >= 3 and visible in text):
            left.append(msgid)
    return left


_ENGLISH: list[str] = []


def untranslated_english() -> list[str]:
    """Each msgid (singular, without a context, with no placeholder) whose Turkish
    is another text: what a Turkish page must not show."""
    if not _ENGLISH:
        with PO.open("rb") as f:
            catalog = read_po(f)
        for message in catalog:
            if not message.id or message.context or isinstance(message.id, tuple):
                continue
            if "%(" in message.id or "{" in message.id or message.string == message.id:
                continue
            _ENGLISH.append(message.id)
    return _ENGLISH


@pytest.fixture
def games(client: CheckedClient) -> dict[str, str]:
    """The games the pages show: one against the computer (active), one resigned
    (its replay has the review), one online waiting for the friend; one of each
    listed on /live and /games."""
    active = create_game(client)["game_id"]
    ended = create_game(client, player_name="Bora")
    response = client.post(f"/api/games/{ended['game_id']}/resign",
                           headers=bearer(ended["token"]))
    assert response.status_code == 200, response.get_json()
    online = create_game(client, mode="online", player_name="Cem")["game_id"]
    return {"active": active, "ended": ended["game_id"], "online": online}


def pages(games: dict[str, str]) -> Iterator[tuple[str, int]]:
    """Every page the site serves (and its error pages), with its status."""
    yield "/", 200
    yield f"/play/{games['active']}", 200
    yield f"/join/{games['online']}", 200
    yield f"/join/{games['active']}", 200  # not an online game
    yield "/how-to-play", 200
    yield "/games", 200
    yield "/games?player=Bora", 200
    yield f"/games/{games['active']}", 200
    yield f"/games/{games['ended']}", 200  # with the review
    yield f"/watch/{games['active']}", 200
    yield "/live", 200
    yield "/highscores", 200
    yield "/highscores?difficulty=easy", 200
    yield "/highscores?mode=two_players", 200
    yield "/ratings", 200
    yield "/players/Ayşe", 200
    yield "/players/Nobody", 404
    yield "/no/such/page", 404
    yield "/games/0123456789abcdef0123456789abcdef", 404
    yield "/games?page=0", 400
    yield "/highscores?mode=nope", 400


def test_accept_language_tr_makes_every_page_turkish(client: FlaskClient,
                                                     games: dict[str, str]) -> None:
    for path, status in pages(games):
        response = client.get(path, headers=TR)
        assert response.status_code == status, path
        html = response.get_data(as_text=True)
        assert '<html lang="tr">' in html, path
        assert english_left(html) == [], path


def test_the_pages_stay_english_by_default(client: FlaskClient,
                                           games: dict[str, str]) -> None:
    for path, status in pages(games):
        response = client.get(path)
        assert response.status_code == status, path
        html = response.get_data(as_text=True)
        assert '<html lang="en">' in html, path
        assert "Oyna" not in words_of(html).texts, path


def test_a_turkish_page_reads_as_turkish(client: FlaskClient, games: dict[str, str]) -> None:
    """A few of its texts, as a reader sees them: the header, a table's words, a plural,
    the computer's name and level, a page's own sentence."""
    texts = words_of(client.get("/games", headers=TR).get_data(as_text=True)).texts
    assert {"Oyna", "Oyun kayıtları", "Canlı", "En yüksek puanlar", "Nasıl oynanır",
            "Oyuncular", "İsabet", "Bilgisayar", "orta", "sürüyor", "bitti",
            "3 oyun"} <= set(texts)
    assert "1 adım · 1 tur" in texts
    how = words_of(client.get("/how-to-play", headers=TR).get_data(as_text=True)).texts
    assert "Squares nasıl oynanır" in how and "Bir sıranın üç aşaması var" in how
    error = client.get("/no/such/page", headers=TR).get_data(as_text=True)
    assert '<h1 id="error-title">Sayfa bulunamadı</h1>' in error
    assert "<title>Squares — sayfa bulunamadı</title>" in error
    # small letters as Turkish writes them: İ is i (not i with a combining dot)
    table = client.get("/highscores?mode=two_players", headers=TR).get_data(as_text=True)
    assert "<title>Squares — iki oyunculu sonuçlar</title>" in table
    assert "<h1>İki oyunculu sonuçlar: 19 × 33</h1>" in table


@pytest.mark.parametrize(("asked", "lang"), [
    ("tr", "tr"), ("tr-TR,tr;q=0.9,en;q=0.8", "tr"), ("de, tr;q=0.5", "tr"),
    ("en-GB,tr;q=0.9", "en"), ("de", "en"), ("", "en"), ("tr;q=0, de", "en"),
])
def test_accept_language_picks_the_best_supported(client: FlaskClient, asked: str,
                                                  lang: str) -> None:
    html = client.get("/", headers={"Accept-Language": asked}).get_data(as_text=True)
    assert f'<html lang="{lang}">' in html


def test_the_switcher_is_on_every_page_and_returns_to_it(client: FlaskClient) -> None:
    html = client.get("/games?page=1").get_data(as_text=True)
    form = re.search(r'<form class="lang-switch" method="post" action="/language">(.*?)</form>',
                     html, re.S)
    assert form is not None
    assert '<input type="hidden" name="next" value="/games?page=1">' in form.group(1)
    assert '<button type="submit" name="lang" value="tr" lang="tr"' in form.group(1)
    turkish = client.get("/games", headers=TR).get_data(as_text=True)
    assert '<button type="submit" name="lang" value="en" lang="en"' in turkish


def test_the_switcher_sets_and_keeps_the_choice(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "tr", "next": "/games?page=1"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/games?page=1"
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("lang=tr;")
    assert {"Max-Age=31536000", "Path=/", "SameSite=Lax", "HttpOnly"} <= {
        part.strip() for part in cookie.split(";")}
    # the choice wins over the browser's language, on every page after
    for path in ("/", "/games", "/how-to-play"):
        html = client.get(path, headers={"Accept-Language": "en"}).get_data(as_text=True)
        assert '<html lang="tr">' in html, path
    response = client.post("/language", data={"lang": "en", "next": "/"})
    assert response.headers["Set-Cookie"].startswith("lang=en;")
    html = client.get("/", headers=TR).get_data(as_text=True)
    assert '<html lang="en">' in html


@pytest.mark.parametrize("target", [
    "https://elsewhere.example/", "//elsewhere.example/", "/\\elsewhere.example",
    "\\\\elsewhere.example", "javascript:alert(1)", "games", "", "/\t/elsewhere.example",
    "http:/elsewhere.example",
])
def test_the_switcher_never_sends_anyone_to_another_site(client: FlaskClient,
                                                         target: str) -> None:
    response = client.post("/language", data={"lang": "tr", "next": target})
    assert response.status_code == 303
    assert response.headers["Location"] == "/"


def test_an_unknown_language_keeps_the_choice_as_it_was(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "xx", "next": "/live"})
    assert response.status_code == 303 and response.headers["Location"] == "/live"
    assert "Set-Cookie" not in response.headers
    client.set_cookie("lang", "xx")  # a cookie no switcher set: the browser's language
    assert '<html lang="tr">' in client.get("/", headers=TR).get_data(as_text=True)


def test_what_depends_on_the_language_varies_with_it(app: Flask,
                                                     games: dict[str, str]) -> None:
    # a plain client: /live.json is a page's data, outside the API's schemas
    client = FlaskClient(app, app.response_class)
    for path in ("/", "/live", "/live.json", "/api/games/0123456789abcdef0123456789abcdef"):
        response = client.get(path)
        assert {"Accept-Language", "Cookie"} <= set(response.vary), path
    # the live list's poll keeps its cache rules: revalidated every time, an ETag per
    # language (a Turkish answer is never a 304 for an English copy)
    english, turkish = client.get("/live.json"), client.get("/live.json", headers=TR)
    assert english.headers["Cache-Control"] == turkish.headers["Cache-Control"] == "no-cache"
    assert english.headers["ETag"] != turkish.headers["ETag"]
    again = client.get("/live.json", headers={**TR, "If-None-Match": english.headers["ETag"]})
    assert again.status_code == 200
    assert "dakikada" in again.get_json()["caption"]
    # what is the same in every language does not vary
    for path in ("/assets/common/style.css", "/healthz", f"/api/games/{games['active']}"):
        response = client.get(path, headers=TR)
        assert response.status_code == 200, path
        assert "Accept-Language" not in response.vary, path


def _line_outside(client: FlaskClient, headers: dict[str, str]) -> dict[str, Any]:
    created = create_game(client)
    response = client.post(f"/api/games/{created['game_id']}/lines",
                           headers={**bearer(created["token"]), **headers},
                           json={"x": 99, "y": 98})
    assert response.status_code == 422
    error: dict[str, Any] = response.get_json()["error"]
    return error


def test_an_api_error_is_english_by_default(client: CheckedClient) -> None:
    error = _line_outside(client, {})
    assert error == {"code": "out_of_field", "message": "(99, 98) is outside the 9 x 7 field",
                     "details": {"x": 99, "y": 98}}
    response = client.get("/api/games/0123456789abcdef0123456789abcdef")
    assert response.get_json()["error"]["message"] == (
        "no game '0123456789abcdef0123456789abcdef'")


def test_an_api_error_is_turkish_when_asked_and_keeps_its_code(client: CheckedClient) -> None:
    error = _line_outside(client, TR)
    assert error == {"code": "out_of_field",
                     "message": "(99, 98), 9 x 7 oyun alanının dışında",
                     "details": {"x": 99, "y": 98}}
    game_id = "0123456789abcdef0123456789abcdef"
    response = client.get(f"/api/games/{game_id}", headers=TR)
    assert response.status_code == 404
    assert response.get_json()["error"] == {
        "code": "game_not_found", "message": f"'{game_id}' diye bir oyun yok",
        "details": {"game_id": game_id}}
    # the API's own refusals: a code's meaning, and Werkzeug's text by its code's
    response = client.post("/api/games", data="{", headers={**TR, "Content-Type":
                                                            "application/json"})
    assert response.status_code == 400
    assert response.get_json()["error"]["code"] == "malformed_json"
    assert response.get_json()["error"]["message"] == "istek gövdesi geçerli JSON değil"
    response = client.get("/api/no/such/route", headers=TR)
    assert response.get_json()["error"] == {"code": "not_found",
                                            "message": "böyle bir yol yok", "details": {}}


def test_the_players_choice_sets_the_api_errors_language_too(client: CheckedClient) -> None:
    client.post("/language", data={"lang": "tr", "next": "/"})
    created = create_game(client)
    response = client.post(f"/api/games/{created['game_id']}/lines",
                           headers={**bearer(created["token"]), "Accept-Language": "en"},
                           json={"x": 1, "y": 0})
    assert response.status_code == 409
    assert response.get_json()["error"]["code"] == "slot_taken"
    assert response.get_json()["error"]["message"] == "(1, 0) konumundaki çizgi zaten çizilmiş"
