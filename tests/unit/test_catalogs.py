"""The Turkish catalog against the code: every text `pybabel extract` finds in the
package (babel.cfg: the templates, the pages' Python, the rules' and the services'
error messages marked `english`) has a Turkish translation, none is a left-over of
a text the code no longer has, and each translation keeps its message's
placeholders (a missing ``{name}`` or ``%(num)d`` would drop a value, an unknown one
would fail at run time).

How a string is added: docs/design.md, "Languages".
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "service/translations/tr/LC_MESSAGES/messages.po"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)(?:![rs])?\}")

Key = tuple[str | None, str]  # (context, msgid)


def extracted() -> dict[Key, str]:
    """What the code marks for translation, as `pybabel extract -F babel.cfg .` finds
    it: (context, msgid) -> where."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    found: dict[Key, str] = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
            ROOT, method_map, options_map):
        msgid = message[0] if isinstance(message, tuple) else message
        found.setdefault((context, msgid), f"{filename}:{lineno}")
    return found


def translations() -> dict[Key, list[str]]:
    with CATALOG.open("rb") as f:
        catalog = read_po(f)
    assert catalog.locale is not None and str(catalog.locale) == "tr"
    found = {}
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        strings = list(message.string) if isinstance(message.string, tuple) else [message.string]
        assert not message.fuzzy, f"{msgid!r} is marked fuzzy: a guess, not a translation"
        found[(message.context, msgid)] = strings
    return found


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_every_extracted_text_has_its_turkish() -> None:
    turkish = translations()
    missing = {key: where for key, where in extracted().items()
               if not all(turkish.get(key) or [""])}
    assert missing == {}, "texts without Turkish (run pybabel extract/update, docs/design.md)"


def test_the_catalog_holds_no_text_the_code_has_lost() -> None:
    assert sorted(set(translations()) - set(extracted()), key=str) == []


def test_each_translation_keeps_its_placeholders() -> None:
    for (_context, msgid), strings in translations().items():
        for string in strings:
            assert placeholders(string) == placeholders(msgid), (msgid, string)


def test_the_extraction_reaches_every_kind_of_text() -> None:
    """A template's text, a `{% trans %}` block, a plural, a page's Python text, a
    domain's error message and a code's meaning: babel.cfg misses none of them."""
    found = extracted()
    assert found.keys() >= {
        (None, "How to play"),
        (None, "A turn has three stages"),
        (None, "%(num)d game"),
        (None, "(open seat)"),
        (None, "Two-player results"),
        (None, "({x}, {y}) is outside the {width} x {height} field"),
        (None, "no such game"),
        ("boxes", "Squares"),
    }
    assert {where.split(":")[0] for where in found.values()} >= {
        "service/web/templates/how_to_play.html", "service/web/rows.py",
        "service/domain/rules.py", "service/protocol/statuses.py",
    }
