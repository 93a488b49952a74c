"""RULES, extended (issue 23, fair play): what a player name may be.

A name is normalised to NFKC and stripped, the 1..32 length rule counts the
normalised text, it needs a visible letter or digit, and it may not look like a
different name of the high score table (UTS #39 skeletons, `names.look_alike`; the
table itself is checked in tests/api/test_names.py).
"""

from __future__ import annotations

import pytest

from service.domain.commands import NewGame, RuleViolation
from service.domain.fold import fold
from service.domain.names import (
    MAX_MARKS,
    NAME_MAX,
    clean_name,
    is_default_ignorable,
    look_alike,
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


@pytest.mark.parametrize("name", ["7", "李", "\u0663", "Ali \u2800", "\u00e9"])
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
    import unicodedata

    assert clean_name(name) == unicodedata.normalize("NFKC", name)


@pytest.mark.parametrize("name", ["Ali\u200bVeli", "Ali\u202eVeli", "Ali\ue000", "Ali\x07"])
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
    ("Eda  Fırat", "Eda Fırat"),  # two spaces show as one on a page
    ("Eda Fırat\u3164", "Eda Fırat"),  # a trailing filler
    ("Sin\u0435m Okur", "Sinem Okur"),  # a Cyrillic е inside
    ("\u03a4ar\u0131k Yolcu", "Tarık Yolcu"),  # a Greek capital tau
])
def test_RULES_other_lookalikes_of_table_names_are_found(name: str, existing: str) -> None:
    assert look_alike(clean_name(name), TABLE) == existing


@pytest.mark.parametrize("name", [
    "Eda Fırat", "Deniz Vadi",  # the same name: a player plays on under it
    "\U0001d413ar\u0131k Yolcu",  # MATHEMATICAL BOLD T: NFKC makes it "Tarık Yolcu"
    "Eda", "eda fırat", "Ali Okyanus 2",  # visibly different
])
def test_RULES_the_same_name_or_a_different_looking_one_is_no_lookalike(name: str) -> None:
    assert look_alike(clean_name(name), TABLE) is None


def test_RULES_a_table_name_in_another_normal_form_is_the_same_name() -> None:
    # rows older than NFKC names may hold a compatibility form of the name
    assert look_alike("Ali", ["\uff21\uff4c\uff49"]) is None
    assert look_alike("Ali", ["A\u0406i"]) == "A\u0406i"  # a Ukrainian І: another name
