"""The words of the pages' scripts in the page's language: the compiled ``js`` catalog
(``service/translations/<lang>/LC_MESSAGES/js.mo``, English msgids) as one JSON data
block in ``base.html`` (``<script type="application/json" id="squares-strings">``,
which the CSP allows: it is data, never run), read by ``static/common/i18n.js``.

The scripts' strings are a catalog of their own (domain ``js``, apart from the
templates' ``messages``) so that a page carries only what its scripts say. English
is the msgids themselves: its block is empty and the scripts fall back to them."""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import read_mo
from flask_babel import get_locale

from .blueprint import bp

TRANSLATIONS_DIR = Path(__file__).resolve().parent.parent / "translations"
DOMAIN = "js"
NONE: dict[str, Any] = {"strings": {}, "plural": ""}


@cache
def catalog_strings(language: str) -> dict[str, Any]:
    """The ``js`` catalog of `language` as the scripts read it: ``strings`` maps each
    msgid to its msgstr (a plural entry's singular msgid to the list of its forms),
    ``plural`` is the catalog's plural expression, e.g. ``(n != 1)`` (i18n.js knows
    the rules of the languages the service has). Untranslated entries are left out:
    the script says the English. Cached: a catalog changes only with a release."""
    found = gettext.find(DOMAIN, str(TRANSLATIONS_DIR), [language])
    if found is None:
        return NONE
    with open(found, "rb") as mo:
        catalog = read_mo(mo)
    strings: dict[str, Any] = {}
    for message in catalog:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, (list, tuple)):  # a plural: (singular, plural)
            forms = list(message.string)
            if all(forms):
                strings[message.id[0]] = forms
        else:
            strings[message.id] = message.string
    return {"strings": strings, "plural": catalog.plural_expr}


@bp.app_template_global()
def script_strings() -> dict[str, Any]:
    """The page's language's script strings (`catalog_strings`); English's are none."""
    locale = get_locale()
    if locale is None or locale.language == "en":
        return NONE
    return catalog_strings(locale.language)
