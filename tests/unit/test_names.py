"""RULES, extended (issue 23, fair play): what a player name may be, and when two
names are the same name (docs/rules.md, "Names that match").

A name is normalised to NFKC, its runs of white space become one ASCII space and it is
stripped; the 1..32 length rule counts the normalised text, it needs a visible letter
or digit, holds no blank letter (Hangul fillers, braille blank), and it may not be the
same name as a different name of the high score table (equal `names.name_key`s,
`names.look_alike`; the table itself is checked in tests/api/test_names.py).
"""

from __future__ import annotations

import unicodedata

import pytest

from service.domain.commands import NewGame, RuleViolation
from service.domain.fold import fold
from service.domain.names import (
    MAX_MARKS,
    NAME_MAX,
    clean_name,
    is_default_ignorable,
    look_alike,
    name_key,
    skeleton,
)
from service.domain.ranking import DEFAULT_HIGH_SCORES
from service.domain.start import start_game

TABLE = [name for name, _ in DEFAULT_HIGH_SCORES]  # "Eda Fırat" among them
CYRILLIC_EDA = "\u0415da F\u0131rat"  # a Cyrillic Е, then "da Fırat"


def _refused(name: str) -> RuleViolation:
    with pytest.raises(RuleViolation) as refused:
        clean_name(name)
    assert refused.value.code == "invalid_name"
    return refused.value


@pytest.mark.parametrize(("given", "stored"), [
    ("\uff21\uff4c\uff49", "Ali"),  # full-width letters
    ("\ufb01rat", "firat"),  # the ligature ﬁ
    ("Ays\u0327e", "Ay\u015fe"),  # s + combining cedilla composes to ş
    ("\u3000Eda Fırat\u3000", "Eda Fırat"),  # ideographic spaces, stripped
    ("\u2460\u2461", "12"),  # circled digits
])
def test_RULES_names_are_nfkc_normalised(given: str, stored: str) -> None:
    assert clean_name(given) == stored


def test_RULES_names_are_nfkc_normalised_in_the_game_itself() -> None:
    state = fold(start_game(NewGame(seed=1, player_name="\uff21\uff4c\uff49",
                                    mode="two_players", second_name="\ufb01rat")))
    assert [seat.name for seat in state.seats] == ["Ali", "firat"]


def test_RULES_name_length_counts_the_normalised_text() -> None:
    composed = "e\u0301" * NAME_MAX  # 64 code points given, 32 once composed
    assert clean_name(composed) == "\u00e9" * NAME_MAX
    _refused("e\u0301" * (NAME_MAX + 1))
    _refused("\ufb00" * 17)  # 17 given, 34 once ﬀ is "ff"
    _refused("\ufdfa" * 2)  # a ligature of 18 letters, twice


@pytest.mark.parametrize("name", [
    "\u3164",  # HANGUL FILLER: a letter by category, drawn as nothing
    "\u3164" * 5,
    "\u2800",  # BRAILLE PATTERN BLANK: a symbol
    "\ufdfd" * NAME_MAX,  # a wide symbol, no letter
    "\u115f\u1160",  # the Hangul choseong and jungseong fillers
    "\uffa0",  # HALFWIDTH HANGUL FILLER (NFKC: U+3164)
    "\u2800\u3164 \u2800",
    "-_-",
])
def test_RULES_blank_looking_names_are_refused(name: str) -> None:
    refused = _refused(name)
    assert refused.message == "a name needs at least one visible letter or digit"
    assert refused.details == {"field": "player_name"}


@pytest.mark.parametrize("name", ["7", "李", "\u0663", "\u00e9"])
def test_RULES_one_visible_letter_or_digit_is_enough(name: str) -> None:
    assert clean_name(name) == name


@pytest.mark.parametrize("name", [
    "a" + "\u0301" * 31,  # one letter under 31 combining marks (NFKC composes one)
    "Ali" + "\u035b" * (MAX_MARKS + 1),  # one more than the most
    "\u0301" * 4 + "Ali",  # marks on no letter at all
    "Z\u0351\u0352\u0353\u0354algo",
])
def test_RULES_names_have_at_most_three_combining_marks_on_a_character(name: str) -> None:
    assert MAX_MARKS == 3
    refused = _refused(name)
    assert refused.message == "a name has at most 3 combining marks on one character"


@pytest.mark.parametrize("name", [
    "\u0f66\u0f92\u0fb2\u0f7c\u0f63\u0f0b\u0f58",  # སྒྲོལ་མ, Drolma: three on its first letter
    "\u05e9\u05bc\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd",  # pointed Hebrew: three on shin
    "\u0e01\u0e35\u0e48",  # Thai: a vowel and a tone mark
    "Nguy\u1ec5n", "Nguye\u0302\u0303n",  # composed by NFKC: no mark left
    "1\ufe0f\u20e3",  # a keycap: two marks
])
def test_RULES_names_of_real_scripts_keep_their_marks(name: str) -> None:
    assert clean_name(name) == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize("name", ["Ali\u200bVeli", "Ali\u202eVeli", "Ali\ue000", "Ali\x07",
                                  "Ali\x1cVeli"])  # white space to str.split, not to Unicode
def test_RULES_names_still_refuse_control_format_and_private_use(name: str) -> None:
    assert "control, invisible or unassigned" in _refused(name).message


def test_RULES_the_fillers_are_default_ignorable_and_letters_are_not() -> None:
    assert all(is_default_ignorable(c) for c in "\u3164\u115f\u1160\u034f\ufe0f")
    assert not any(is_default_ignorable(c) for c in "Aa1\u2800\ufdfd")


def test_RULES_cyrillic_lookalike_of_a_table_name_is_refused() -> None:
    assert CYRILLIC_EDA != "Eda Fırat"
    assert clean_name(CYRILLIC_EDA) == CYRILLIC_EDA  # a well-formed name by itself
    assert skeleton(CYRILLIC_EDA) == skeleton("Eda Fırat")
    assert look_alike(CYRILLIC_EDA, TABLE) == "Eda Fırat"


@pytest.mark.parametrize(("name", "existing"), [
    ("AIi Okyanus", "Ali Okyanus"),  # a capital I for the l
    ("eda fırat", "Eda Fırat"),  # the same name in small letters
    ("Sin\u0435m Okur", "Sinem Okur"),  # a Cyrillic е inside
    ("\u03a4ar\u0131k Yolcu", "Tarık Yolcu"),  # a Greek capital tau
])
def test_RULES_other_lookalikes_of_table_names_are_found(name: str, existing: str) -> None:
    assert look_alike(clean_name(name), TABLE) == existing


@pytest.mark.parametrize("name", [
    "Eda Fırat", "Deniz Vadi",  # the same name: a player plays on under it
    "\U0001d413ar\u0131k Yolcu",  # MATHEMATICAL BOLD T: NFKC makes it "Tarık Yolcu"
    "Eda  Fırat", "Eda\u00a0Fırat",  # stored as "Eda Fırat": the same name again
    "Eda", "Eda Fırtına", "Ali Okyanus 2",  # different names
])
def test_RULES_the_same_name_or_a_different_looking_one_is_no_lookalike(name: str) -> None:
    assert look_alike(clean_name(name), TABLE) is None


def test_RULES_a_table_name_in_another_normal_form_is_the_same_name() -> None:
    # rows older than NFKC names may hold a compatibility form of the name
    assert look_alike("Ali", ["\uff21\uff4c\uff49"]) is None
    assert look_alike("Ali", ["A\u0406i"]) == "A\u0406i"  # a Ukrainian І: another name


# --- Names that match (docs/rules.md): one key, `name_key`, decides "the same name" --

EDA = "Eda F\u0131rat"
FILLED = ["Eda\u2800F\u0131rat", "Eda\u3164F\u0131rat", "Eda\uffa0F\u0131rat",
          "Eda\u115fF\u0131rat", "Eda\u1160F\u0131rat"]  # a blank letter for the space


@pytest.mark.parametrize("name", [*FILLED, "Ali \u2800", "\u2800Ali", "Eda F\u0131rat\u3164"])
def test_RULES_names_holding_a_blank_letter_are_refused(name: str) -> None:
    refused = _refused(name)
    assert refused.message == "a name cannot hold invisible or blank characters"
    assert refused.details == {"field": "player_name"}


@pytest.mark.parametrize("name", [
    "Eda  F\u0131rat",  # two spaces
    "Eda\u00a0F\u0131rat",  # a no-break space
    "Eda\tF\u0131rat", "Eda\r\nF\u0131rat",  # a tab, a line break
    "Eda \u3000\u2003 F\u0131rat",  # an ideographic and an em space among spaces
    "\u2002Eda\u202fF\u0131rat\u205f",  # an en, a narrow no-break and a math space
])
def test_RULES_every_run_of_white_space_is_stored_as_one_ascii_space(name: str) -> None:
    assert clean_name(name) == EDA


@pytest.mark.parametrize("name", [
    *FILLED,  # refused as new names, yet rows of before hold them: they still match
    "eda f\u0131rat", "EDA FIRAT", "eda firat", "Eda Firat",
    "Eda F\u0131ra\u1e6d",  # ṭ precomposed (U+1E6D)
    "Eda F\u0131rat\u0323",  # t + COMBINING DOT BELOW
    "Eda  F\u0131rat", "Eda\u00a0F\u0131rat", " Eda F\u0131rat ",
    CYRILLIC_EDA,  # a Cyrillic Е
    "\uff25\uff44\uff41 F\u0131rat",  # full-width Eda
    "Ed\u200ba F\u0131rat",  # a zero-width space: drawn as nothing, counts as nothing
])
def test_RULES_these_names_are_the_same_name_as_eda_firat(name: str) -> None:
    assert name_key(name) == name_key(EDA) == "eda firat"


def test_RULES_ta_with_a_dot_below_is_one_letter_in_either_encoding() -> None:
    assert "Eda F\u0131ra\u1e6d" != "Eda F\u0131rat\u0323"
    assert name_key("Eda F\u0131ra\u1e6d") == name_key("Eda F\u0131rat\u0323") == name_key(EDA)


@pytest.mark.parametrize(("one", "other"), [
    ("\u0130STANBUL", "istanbul"),  # Turkish: dotted capital İ, dotted i
    ("\u0130STANBUL", "i\u0307stanbul"),  # what str.casefold makes of İ
    ("IRMAK", "\u0131rmak"),  # Turkish: dotless capital I, dotless ı
    ("Irene", "irene"),  # English: I is i
    ("\u0131rmak", "irmak"),  # merged beyond either language: the safe side
    ("AIi Okyanus", "Ali Okyanus"),  # a capital I reads as l: so i and l are one letter
    ("Ali", "All"),  # ... the price of it
    ("\u03a4ar\u0131k", "Tar\u0131k"),  # a Greek capital Τ is a T (its small τ is no t)
    ("\u0422ar\u0131k", "tar\u0131k"),  # so is a Cyrillic capital Т
    ("0scar", "oscar"),  # the digit 0 looks like a capital O, and O is o
    ("Mia", "mia"),  # case folded before the skeleton's m = rn, too
    ("Al\u00ee", "Ali"),  # marks are dropped: Alî is Ali
    ("G\u00fcl\u015fen", "Gulsen"),  # ... and Gülşen is Gulsen
])
def test_RULES_names_that_match_whatever_their_case_and_marks(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [
    (EDA, "Eda F\u0131rt\u0131na"),
    (EDA, "Eda"),
    (EDA, "EdaF\u0131rat"),  # a space is a difference
    ("Ali", "Ali 2"),
    ("Ali", "Veli"),
])
def test_RULES_different_names_do_not_match(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


@pytest.mark.parametrize("name", [EDA, " EDA\u00a0 FIRAT", "\u0130STANBUL", "Ays\u0327e",
                                  "\uff21\uff4c\uff49", "1\ufe0f\u20e3",
                                  "\u05e9\u05bc\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd"])
def test_RULES_clean_name_keeps_the_key_of_what_it_accepts(name: str) -> None:
    assert name_key(clean_name(name)) == name_key(name)


def test_RULES_every_variant_of_a_table_name_is_found_and_the_name_itself_is_not() -> None:
    variants = ["eda f\u0131rat", "EDA FIRAT", "Eda F\u0131ra\u1e6d", "Eda F\u0131rat\u0323",
                CYRILLIC_EDA]
    assert all(look_alike(clean_name(v), TABLE) == EDA for v in variants)
    assert all(look_alike(clean_name(v), TABLE) is None
               for v in (EDA, "Eda  F\u0131rat", "Eda\u00a0F\u0131rat"))
    # a row of before that holds a filler is a different name, displayed differently
    assert look_alike(EDA, ["Eda\u3164F\u0131rat"]) == "Eda\u3164F\u0131rat"
    assert look_alike(EDA, ["Eda  F\u0131rat"]) is None  # but not a wider space


def test_RULES_the_key_of_a_key_is_itself_for_every_character() -> None:
    # name_key folds until nothing changes, within a bound: the bound is enough for
    # every code point (a name's key is then a fixed point, as a database key must be)
    for code in range(0x110000):
        char = chr(code)
        if unicodedata.category(char) in ("Cs", "Co", "Cn"):
            continue
        key = name_key(char)
        assert name_key(key) == key, hex(code)
