"""Messages that can be said in another language: `english` makes the English text
of an error (what the API answers by default, byte for byte) and keeps the template
and the values it was made of, so that the HTTP layer can say the same in the
player's language (`service.http.messages`) while the rules stay plain Python.

``english(...)`` is also the keyword `pybabel extract` looks for (babel.cfg): each
template is a msgid of the server's catalog.
"""

from __future__ import annotations

from typing import Any


class English(str):
    """The English text of a message (a `str`, equal to it), with its `template` and
    `values` (``template.format(**values)`` is the text)."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, values: dict[str, Any]) -> English:
        said = super().__new__(cls, template.format(**values) if values else template)
        said.template = template
        said.values = values
        return said

    def __reduce__(self) -> tuple[type[English], tuple[str, dict[str, Any]]]:
        """Pickled and copied whole: with its template and values (`str`'s own
        reduction would call `__new__` with the text alone)."""
        return English, (self.template, self.values)


def english(template: str, /, **values: Any) -> str:
    """The message `template` says with `values` (``str.format`` fields, e.g.
    ``"no game {game_id!r}"``): an `English` when it has values, else the template
    itself (a plain `str`, which the catalog finds as it is)."""
    return English(template, values) if values else template
