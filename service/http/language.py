"""The language of an answer: English or Turkish, for the pages and the API's error
messages alike (Flask-Babel's locale selector, installed by `init_app`).

The player's own choice wins: the cookie ``lang`` that the switcher in every page's
header sets (``POST /language``, `choose`); without one, the best match of the
browser's ``Accept-Language``; without a match, English. The catalogs are
``service/translations/<lang>/LC_MESSAGES/messages.po`` (compiled to ``.mo`` when
the package is installed or built: setup.py, ``./dev``).

An answer whose text was translated (the selector ran) says so to caches with
``Vary: Accept-Language, Cookie`` (`add_vary`), so that a shared cache never hands a
Turkish page to an English reader.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, Response, g, redirect, request
from flask_babel import Babel, get_locale
from werkzeug.wrappers import Response as BaseResponse

SUPPORTED = ("en", "tr")
DEFAULT = "en"
COOKIE = "lang"
COOKIE_MAX_AGE_S = 365 * 24 * 3600  # a choice lasts a year
TRANSLATIONS = Path(__file__).resolve().parent.parent / "translations"
VARY = ("Accept-Language", "Cookie")
_USED = "squares_language_used"  # set on `g` once the selector ran for a request


def select() -> str:
    """The request's language: the cookie, else ``Accept-Language``, else English."""
    g.setdefault(_USED, True)
    chosen = request.cookies.get(COOKIE)
    if chosen in SUPPORTED:
        return chosen
    return asked_for() or DEFAULT


def asked_for() -> str | None:
    """The browser's most wanted language that the site speaks, by its primary tag
    ("tr-TR" is Turkish): "en-GB, tr;q=0.9" is English, as its reader prefers (where
    Werkzeug's `best_match` would take the exact "tr" over the regional "en-GB")."""
    for value, quality in request.accept_languages:  # the most wanted first
        primary = value.replace("_", "-").split("-")[0].lower()
        if primary in SUPPORTED and quality > 0:  # q=0: "not this one"
            return primary
    return None


def current() -> str:
    """The language of the answer being made (for ``<html lang>`` and the switcher)."""
    locale = get_locale()
    return DEFAULT if locale is None else str(locale.language)


def local_path(target: str | None) -> str:
    """`target` if it is a path on this site ("/games?page=2"), else "/": the
    switcher's return address can never send a browser to another site (an open
    redirect): no scheme, no host, no "//" or "/\\" (which browsers read as a
    host), no control characters."""
    if not target or not target.startswith("/") or target.startswith(("//", "/\\")):
        return "/"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in target) or "\\" in target:
        return "/"
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return "/"
    return target


def choose() -> BaseResponse:
    """``POST /language`` (the switcher, a form): ``lang`` (en or tr) and ``next`` (the
    page to return to, a local path) set the cookie and go back with a 303. An unknown
    language keeps the cookie as it was."""
    response = redirect(local_path(request.form.get("next")), code=303)
    wanted = request.form.get("lang", "")
    if wanted in SUPPORTED:
        response.set_cookie(COOKIE, wanted, max_age=COOKIE_MAX_AGE_S, path="/",
                            samesite="Lax", secure=request.is_secure, httponly=True)
    return response


def add_vary(response: Response) -> None:
    """``Vary: Accept-Language, Cookie`` on an answer whose words depend on them (the
    selector ran while it was made), beside whatever ``Vary`` it had."""
    if g.get(_USED):
        for header in VARY:
            response.vary.add(header)


def init_app(app: Flask) -> None:
    app.config.setdefault("BABEL_DEFAULT_LOCALE", DEFAULT)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select)
    # `{% trans %}` blocks as one line each, as `pybabel extract` (babel.cfg) reads them
    app.jinja_env.policies["ext.i18n.trimmed"] = True
    app.add_url_rule("/language", "language", choose, methods=["POST"])

    @app.context_processor
    def language() -> dict[str, object]:
        """``page_lang``: the page's language (``<html lang>``, the switcher's button)."""
        return {"page_lang": current()}
