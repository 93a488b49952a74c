"""Player names: what a name may be, and when two names look alike (RULES-named tests
in tests/unit/test_names.py).

`clean_name` normalises a name to NFKC (full-width, ligature and other compatibility
forms become plain letters), strips it, and refuses it unless it has 1 to `NAME_MAX`
characters, none of them control, format, private-use or unassigned (category C*),
at least one visible letter or digit, and at most `MAX_MARKS` combining marks on one
base character (no "Zalgo" text that spills over the rows of a table).

`skeleton` is the name's confusable skeleton (Unicode UTS #39, computed by ICU's
SpoofChecker from confusables.txt): two names with the same skeleton look alike, as
"Eda Fırat" and "Еda Fırat" (a Cyrillic Е) do.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

import icu

from .commands import RuleViolation

NAME_MAX = 32
# Combining marks (category M*) in a row, after NFKC has composed what it can. Three,
# not fewer: a common Tibetan name, སྒྲོལ་མ (Drolma), stacks three on its first letter,
# and pointed Hebrew (shin dot, dagesh, vowel) does too.
MAX_MARKS = 3

_DEFAULT_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT


def clean_name(name: object, field: str = "player_name") -> str:
    if not isinstance(name, str):
        raise RuleViolation("invalid_name", "a name must be text", field=field)
    name = unicodedata.normalize("NFKC", name).strip()
    if not 1 <= len(name) <= NAME_MAX:
        raise RuleViolation(
            "invalid_name", f"a name has 1 to {NAME_MAX} characters", field=field
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise RuleViolation(
            "invalid_name",
            "a name cannot hold control, invisible or unassigned characters",
            field=field,
        )
    if not any(_visible_letter_or_digit(c) for c in name):
        raise RuleViolation(
            "invalid_name", "a name needs at least one visible letter or digit", field=field
        )
    if most_marks(name) > MAX_MARKS:
        raise RuleViolation(
            "invalid_name",
            f"a name has at most {MAX_MARKS} combining marks on one character",
            field=field,
        )
    return name


def most_marks(text: str) -> int:
    """The longest run of combining marks (category M*) in `text`: the marks stacked
    on one base character (or on none, at the start)."""
    run = most = 0
    for char in text:
        if unicodedata.category(char)[0] == "M":
            run += 1
            most = max(most, run)
        else:
            run = 0
    return most


def is_default_ignorable(char: str) -> bool:
    """Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, from ICU):
    drawn as nothing, such as the Hangul fillers U+3164 and U+115F (letters by
    category) and the variation selectors."""
    return bool(icu.Char.hasBinaryProperty(char, _DEFAULT_IGNORABLE))


def _visible_letter_or_digit(char: str) -> bool:
    return unicodedata.category(char)[0] in "LN" and not is_default_ignorable(char)


def skeleton(name: str) -> str:
    """The UTS #39 skeleton of `name` (NFKC first, as `clean_name` stores names):
    equal skeletons, names that look alike.

    Two steps beyond ICU's: default-ignorable characters are removed (UTS #39 does so
    since Unicode 15.1; the ICU here predates it), so "Ali" plus a Hangul filler is
    "Ali"; and runs of white space count as one space, because a page shows
    "Eda  Fırat" as "Eda Fırat"."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if not is_default_ignorable(c))
    text = " ".join(text.split())
    return str(_spoof_checker().getSkeleton(0, text))  # the type argument: unused


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that looks like `name` (a name `clean_name` returned)
    without being it: the same name again, in any normal form, is no look-alike."""
    key = skeleton(name)
    return next((other for other in others
                 if unicodedata.normalize("NFKC", other) != name and skeleton(other) == key),
                None)


@functools.cache
def _spoof_checker() -> icu.SpoofChecker:
    # One checker for the process: getSkeleton only reads it (thread-safe in ICU).
    return icu.SpoofChecker()
