"""The pages' scripts' strings and their Turkish catalog (domain ``js``).

Every string a script shows goes through ``t()`` / ``nt()`` (common/i18n.js); babel's
JavaScript extractor, with the mapping of ``babel-js.cfg``, finds them. The catalog
``service/translations/tr/LC_MESSAGES/js.po`` must hold exactly those msgids, each with
a Turkish msgstr that names no placeholder its English lacks (a misspelt ``{nmae}``
would be shown as it is); and the compiled catalog the pages carry
(`script_strings.catalog_strings`) must be the .po as it stands.
"""

from __future__ import annotations

import re
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po

from service.web.script_strings import catalog_strings

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "service" / "web" / "static"
PO = ROOT / "service" / "translations" / "tr" / "LC_MESSAGES" / "js.po"
KEYWORDS = {"t": None, "nt": (1, 2)}  # as babel-js.cfg's pybabel command line says
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# A t("...") or nt("...") call's first string, as written in a script.
CALL = re.compile(r"\bn?t\(\s*\"((?:[^\"\\]|\\.)*)\"")

Key = str | tuple[str, ...]


def key_of(msgid: str | tuple[str, ...] | list[str]) -> Key:
    """A msgid as a key: a string, or a plural's (singular, plural)."""
    return msgid if isinstance(msgid, str) else tuple(msgid)


def ids(m: Message) -> list[str]:
    """A message's msgid, or a plural's singular and plural."""
    return [m.id] if isinstance(m.id, str) else list(m.id)


def strings(m: Message) -> list[str]:
    """A message's msgstr, or a plural's forms ("" when untranslated)."""
    if m.string is None:
        return [""]
    return [m.string] if isinstance(m.string, str) else list(m.string)


def extracted() -> dict[Key, list[str]]:
    """Every msgid of the scripts (a plural's as (singular, plural)) -> its files."""
    with (ROOT / "babel-js.cfg").open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: dict[Key, list[str]] = {}
    for filename, _line, msgid, _comments, _context in extract_from_dir(
            str(STATIC), method_map, options_map, keywords=KEYWORDS, comment_tags=()):
        found.setdefault(key_of(msgid), []).append(filename)
    return found


def catalog() -> Catalog:
    with PO.open("rb") as f:
        return read_po(f)


def test_the_extractor_sees_every_call_a_script_makes() -> None:
    # babel's JavaScript lexer skips a t() inside a template literal (`${t("...")}`)
    # and, in some nestings, a second call inside another's arguments: such a string
    # would never be translated. Each t("...") / nt("...") written must be extracted.
    singulars = {k if isinstance(k, str) else k[0] for k in extracted()}
    missed = []
    for path in sorted(STATIC.rglob("*.js")):
        for match in CALL.finditer(path.read_text("utf-8")):
            text = match.group(1).replace('\\"', '"').replace("\\'", "'")
            if text not in singulars:
                missed.append(f"{path.relative_to(STATIC)}: {text!r}")
    assert missed == []


def test_every_script_string_has_a_turkish_translation_and_none_is_stale() -> None:
    found = extracted()
    assert len(found) > 200  # the extraction ran over the scripts
    po = catalog()
    assert po.locale is not None and po.locale.language == "tr"
    entries = {key_of(m.id): m for m in po if m.id}
    untranslated = sorted(str(k) for k, m in entries.items()
                          if k in found and (m.fuzzy or not all(strings(m))))
    missing = sorted(str(k) for k in found if k not in entries)
    stale = sorted(str(k) for k in entries if k not in found)
    assert (missing, untranslated, stale) == ([], [], [])


def test_no_translation_names_a_placeholder_its_english_lacks() -> None:
    wrong = []
    for m in catalog():
        if not m.id:
            continue
        english = " ".join(ids(m))
        allowed = set(PLACEHOLDER.findall(english)) | ({"n"} if m.pluralizable else set())
        for form in strings(m):
            extra = set(PLACEHOLDER.findall(form)) - allowed
            if extra:
                wrong.append(f"{english!r}: {sorted(extra)}")
    assert wrong == []


def test_the_pages_carry_the_compiled_catalog_as_the_po_stands() -> None:
    # The .mo is compiled from the .po by ./dev and by a build (setup.py): a stale one
    # would give the pages yesterday's words.
    carried = catalog_strings("tr")
    assert carried["plural"] == "(n != 1)"  # a rule common/i18n.js knows
    want: dict[str, object] = {}
    for m in catalog():
        if m.id and not m.fuzzy:
            want[ids(m)[0]] = strings(m) if m.pluralizable else strings(m)[0]
    assert carried["strings"] == want
    assert catalog_strings("en") == {"strings": {}, "plural": ""}  # English: the msgids
