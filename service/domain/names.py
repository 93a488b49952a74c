"""Player names: what a name may be, and when two names are the same name (RULES-named
tests in tests/unit/test_names.py; the rule in plain words: docs/rules.md, "Names that
match").

`clean_name` normalises a name to NFKC (full-width, ligature and other compatibility
forms become plain letters), makes every run of white space one ASCII space, strips
it, and refuses it unless it has 1 to `NAME_MAX` characters, none of them control,
format, private-use or unassigned (category C*) nor a `BLANK_LETTERS` character, at
least one visible letter or digit, and at most `MAX_MARKS` combining marks on one base
character (no "Zalgo" text that spills over the rows of a table).

`name_key` is the one canonical form that decides "the same name": two names with
equal keys are the same name to a reader, whatever their case, accents, spacing or
look-alike letters ("Eda Fırat", "EDA FIRAT", "Eda Fıraṭ" and "Еda Fırat" with a
Cyrillic Е). `skeleton` is one of its steps, the name's confusable skeleton (Unicode
UTS #39, computed by ICU's SpoofChecker from confusables.txt).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable

import icu

from .commands import RuleViolation
from .texts import english

NAME_MAX = 32
# Combining marks (category M*) in a row, after NFKC has composed what it can. Three,
# not fewer: a common Tibetan name, སྒྲོལ་མ (Drolma), stacks three on its first letter,
# and pointed Hebrew (shin dot, dagesh, vowel) does too.
MAX_MARKS = 3

# Letters and a symbol that are drawn as an empty, letter-wide space: the Hangul
# fillers (U+115F, U+1160, U+3164 and its half-width form U+FFA0; letters by category,
# default-ignorable by property) and the braille blank U+2800 (a symbol). They are the
# only default-ignorable characters outside categories C* and M* (ICU 72, Unicode 15),
# and "Eda\u3164Fırat" reads "Eda Fırat": a name may not hold them.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Most rounds of `name_key`'s folding a name needs (see `_fold_rounds`).
_MAX_FOLD_ROUNDS = 4

_DEFAULT_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
_WHITE_SPACE = icu.UProperty.WHITE_SPACE
# After `str.casefold`: the dotless ı and the l join i (see `_fold_case`).
_I_LIKE = str.maketrans({"\u0131": "i", "l": "i"})


def clean_name(name: object, field: str = "player_name") -> str:
    """A new name as it is stored (`display_form`), or `RuleViolation` ``invalid_name``
    naming the rule it breaks: the rules every stored name meets (`check_stored_name`)
    and, since names have keys (`name_key`), no blank letters."""
    if not isinstance(name, str):
        raise RuleViolation("invalid_name", english("a name must be text"), field=field)
    name = display_form(name)
    check_stored_name(name, field)
    if any(c in BLANK_LETTERS for c in name):
        raise RuleViolation(
            "invalid_name", english("a name cannot hold invisible or blank characters"),
            field=field
        )
    return name


def check_stored_name(name: str, field: str = "player_name") -> None:
    """`RuleViolation` ``invalid_name`` unless `name` meets the rules that every name
    stored in a game has met: 1 to `NAME_MAX` characters, none of them control, format,
    private-use or unassigned, a visible letter or digit, at most `MAX_MARKS` marks on
    one character, in NFKC without white space at its ends. A stored game is judged by these (`replay_check`): a rule added
    later (single spaces, no blank letters) shapes new names, not the games played
    before it."""
    if not 1 <= len(name) <= NAME_MAX:
        raise RuleViolation(
            "invalid_name", english("a name has 1 to {most} characters", most=NAME_MAX),
            field=field
        )
    if any(unicodedata.category(c).startswith("C") for c in name):
        raise RuleViolation(
            "invalid_name",
            english("a name cannot hold control, invisible or unassigned characters"),
            field=field,
        )
    if not any(_visible_letter_or_digit(c) for c in name):
        raise RuleViolation(
            "invalid_name", english("a name needs at least one visible letter or digit"),
            field=field
        )
    if most_marks(name) > MAX_MARKS:
        raise RuleViolation(
            "invalid_name",
            english("a name has at most {most} combining marks on one character",
                    most=MAX_MARKS),
            field=field,
        )
    if unicodedata.normalize("NFKC", name).strip() != name:
        raise RuleViolation(
            "invalid_name", english("a stored name is in NFKC, without space at its ends"),
            field=field,
        )


def display_form(name: str) -> str:
    """`name` as `clean_name` stores it, without its refusals: NFKC, every run of
    white space (Unicode's White_Space: spaces of every width, no-break spaces, tabs,
    line breaks) one ASCII space, stripped. A page shows "Eda  Fırat" and
    "Eda\u00a0Fırat" as "Eda Fırat", so they are stored as that."""
    return _single_spaces(unicodedata.normalize("NFKC", name), is_white_space)


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


def is_white_space(char: str) -> bool:
    """Unicode's White_Space (PropList.txt, from ICU): the spaces of category Zs,
    tabs and line breaks. Not Python's `str.isspace`, which adds the control
    characters U+001C..U+001F (which `clean_name` refuses as controls)."""
    return bool(icu.Char.hasBinaryProperty(char, _WHITE_SPACE))


def _visible_letter_or_digit(char: str) -> bool:
    return unicodedata.category(char)[0] in "LN" and not is_default_ignorable(char)


def _single_spaces(text: str, is_blank: Callable[[str], bool]) -> str:
    """`text` with every run of characters that `is_blank` one ASCII space, stripped."""
    spaced = "".join(" " if is_blank(c) else c for c in text)
    return " ".join(word for word in spaced.split(" ") if word)


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


def name_key(name: str) -> str:
    """The canonical form of `name`: two names are the same name when their keys are
    equal (the high score table's look-alike check; a claimed name later). Used as a
    database key (``high_scores.name_skeleton``), so it must stay deterministic: a
    change of these steps, or of ICU's confusables data, needs a migration that
    computes the stored keys again (as migration 0014 did).

    The steps, in order:

    1. NFKC: compatibility forms are the letters they show (full-width "Ａｌｉ" is
       "Ali"), as `clean_name` stores names.
    2. Default-ignorable characters (zero-width joiners, variation selectors...) are
       removed: they are drawn as nothing. The `BLANK_LETTERS` (Hangul fillers,
       braille blank; the fillers are default-ignorable too) are drawn as an empty
       space instead, so they become a space: a table row "Eda\u3164Fırat" (from
       before `clean_name` refused them) reads, and matches, "Eda Fırat".
    3. Every run of white space or blank becomes one ASCII space, stripped at the
       ends: a page shows "Eda  Fırat", "Eda\u00a0Fırat" and "Eda Fırat" alike.
    4. The UTS #39 skeleton of the name as written (`skeleton`): look-alikes are
       judged letter by letter *before* the case is folded, because capitals of other
       scripts look like Latin capitals while their small letters do not (a Greek
       or Cyrillic capital Т is a Latin T; τ and т are no t), and the digit 0 looks
       like a capital O, not like an o.
    5. The rounds of `_fold_rounds`: case folded, marks dropped and the skeleton taken
       again, until nothing changes (the small letters of a folded name have look-alikes
       of their own: "еda" with a Cyrillic е is "eda").

    Each step only merges names (it never tells apart two names an earlier step made
    equal), so the key errs on the side of calling two names the same: the safe side
    for a name someone holds, at the price of refusing a few names that a careful eye
    tells apart (the rule's examples: docs/rules.md, "Names that match").
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if c in BLANK_LETTERS or not is_default_ignorable(c))
    text = _single_spaces(text, lambda c: c in BLANK_LETTERS or is_white_space(c))
    return _fold_rounds(skeleton(text))


def _fold_rounds(text: str) -> str:
    """Case folded (`_fold_case`), combining marks dropped (`_without_marks`) and the
    skeleton taken again, until a round changes nothing (a second round is rare:
    a skeleton that holds a capital or a mark, as that of the digit 0 is "O"; no code
    point needs more than `_MAX_FOLD_ROUNDS`, checked by the RULES tests)."""
    for _ in range(_MAX_FOLD_ROUNDS):
        folded = skeleton(_without_marks(_fold_case(text)))
        if folded == text:
            break
        text = folded
    return text


def _fold_case(text: str) -> str:
    """`str.casefold`, with the five letters I, ı, İ, i and l folded to one letter, i.

    Turkish has two i's: I/ı (dotless) and İ/i (dotted), and a Turkish reader takes
    IRMAK for ırmak and İSTANBUL for istanbul; an English reader takes Irene for
    irene. Folding all four to i (casefold makes I and İ an i, the latter followed by
    a combining dot above that `_without_marks` drops; ı is mapped here) merges more
    than either language alone (ırmak = irmak), which only makes two names more
    likely to count as the same: the safe side for a name someone holds.

    And l: the skeleton (step 4 of `name_key`) takes a capital I for an l, as a reader
    does in most sans-serif fonts ("AIi Okyanus" reads "Ali Okyanus"). A capital I is
    thus both an i and an l, so with one key for equality the two must be one letter:
    "Ali" and "All" count as the same name, the price of refusing both impostors.
    """
    return text.casefold().translate(_I_LIKE)


def _without_marks(text: str) -> str:
    """`text` decomposed (NFD) without its non-spacing combining marks (category Mn):
    accents, dots and cedillas a reader skims over, so "Fıraṭ" (a t with a dot below,
    precomposed or not) is "Firat" and "Alî" is "Ali". In scripts that write vowels
    as such marks (Devanagari, Thai, pointed Hebrew and Arabic) two names that differ
    only by them count as the same too: one rule for every script, on the safe side."""
    return "".join(c for c in unicodedata.normalize("NFD", text)
                   if unicodedata.category(c) != "Mn")


def look_alike(name: str, others: Iterable[str]) -> str | None:
    """The first of `others` that is the same name as `name` (a name `clean_name`
    returned; equal `name_key`s) without being displayed as it: the same name again,
    as `clean_name` would store it (an older row may hold another normal form or
    spacing), is no look-alike."""
    key, shown = name_key(name), display_form(name)
    return next((other for other in others
                 if display_form(other) != shown and name_key(other) == key), None)


@functools.cache
def _spoof_checker() -> icu.SpoofChecker:
    # One checker for the process: getSkeleton only reads it (thread-safe in ICU).
    return icu.SpoofChecker()
