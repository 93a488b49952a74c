"""An error's message in the answer's language (`service.http.language` chooses it):
the one place where the rules' and the services' English messages are translated,
on their way out (`service.api.errors.error_response`, the pages' error details).

The domain and the services write each message once, in English, with
`service.domain.texts.english` (its template and values); here the template is
looked up in the catalog (``service/translations``) and the translation filled with
the same values, so the English answer stays exactly the text the code wrote. A
constant message (a plain `str`, such as a code's meaning in
`service.protocol.statuses`) is looked up as it is. A message the catalog does not
hold (Werkzeug's descriptions, a library's text) falls back, in another language
than English, to its code's meaning, which the catalog has; failing that it stays
English.
"""

from __future__ import annotations

from flask import has_request_context
from flask_babel import get_locale, get_translations

from ..domain.texts import English
from .statuses import ALL_BY_CODE

SOURCE_LANGUAGE = "en"


def said(message: str, code: str | None = None) -> str:
    """`message` in the request's language (a plain `str`); outside a request, or in
    English, the message itself."""
    if not has_request_context():
        return str(message)
    locale = get_locale()
    if locale is None or locale.language == SOURCE_LANGUAGE:
        return str(message)
    catalog = get_translations()
    template = message.template if isinstance(message, English) else str(message)
    translated = catalog.gettext(template)
    if translated == template:  # not in the catalog
        kind = ALL_BY_CODE.get(code or "")
        if kind is not None and catalog.gettext(kind.meaning) != kind.meaning:
            return catalog.gettext(kind.meaning)
        return str(message)
    if isinstance(message, English) and message.values:
        return translated.format(**message.values)
    return translated
