"""A player's name as one segment of a path (``/players/<name:name>``), whatever it
holds: names are free text, and "a/b", "a?b", "50%" and "Eda Fırat" are names.

werkzeug's default converter leaves ``/`` as it is when it builds a URL, so the
name "a/../b" would give ``/players/a/../b``, which a browser shortens to
``/players/b`` before it asks. `NameConverter` writes every character but the
unreserved ones percent-encoded (``a%2F..%2Fb``) and, since a WSGI server hands the
app the path decoded (``%2F`` is then a ``/``), takes the rest of the path as the
name, slashes and all. The rules for what a name may be are `domain.names`; a name
longer than `NAME_MAX_IN_PATH` is refused before anything normalises it.
"""

from __future__ import annotations

from urllib.parse import quote

from werkzeug.routing import BaseConverter

from ..domain.names import NAME_MAX

# Characters of a name in a path, at most: a name is at most `NAME_MAX` characters
# after NFKC, which can shorten it (a letter and its combining mark become one).
NAME_MAX_IN_PATH = 8 * NAME_MAX
CONVERTER = "name"  # its name in the rules: ``<name:name>``


class NameConverter(BaseConverter):
    """The rest of the path, slashes included, as one name; built percent-encoded.
    Register it as `CONVERTER` on the app's URL map, and give its rules
    ``merge_slashes=False`` so that a name with ``//`` is not redirected."""

    regex = ".+"
    part_isolating = False  # it matches across "/"

    def to_url(self, value: str) -> str:
        return quote(value, safe="")
