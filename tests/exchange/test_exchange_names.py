"""Name keys: accent-, case- and order-insensitive matching."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ratings.exchange import (
    NameIndex,
    name_key,
    split_comma_name,
    split_first_word_surname,
    split_upper_surname,
)


def test_spellings_of_one_name_have_one_key() -> None:
    # "DUPONT Jean" = "Jean Dupont" = "dupont, jean"; "Léa" = "Lea".
    assert name_key("DUPONT Jean") == name_key("Jean Dupont") == name_key("dupont, jean")
    assert name_key("Léa") == name_key("Lea")


def test_names_in_other_scripts_meet_their_romanised_spelling() -> None:
    # The transliterator is anyascii (ISC), not Unidecode (GPL); a Han or Hangul
    # character is one syllable, so one word, as the EGD writes romanised names.
    assert name_key("张三") == name_key("Zhang San") == "san zhang"
    assert name_key("Łódź Poznań") == "lodz poznan"
    assert name_key("Пётр") == "petr"


def test_different_people_have_different_keys() -> None:
    assert name_key("Jean Dupont") != name_key("Jean Dupond")
    assert name_key("Jean Dupont") != name_key("Jeanne Dupont")


def test_egd_underscores_and_hyphens_separate_words() -> None:
    assert name_key("Aarle Barbara_van") == name_key("Barbara van Aarle")
    assert name_key("ABILIO-BRANCO Eric") == name_key("Eric Abilio Branco")


@given(st.lists(st.text(alphabet="abcdefghéèëïüçABCDEÉ", min_size=1, max_size=8), min_size=1, max_size=4))
def test_word_order_and_case_never_change_the_key(words: list[str]) -> None:
    assert name_key(" ".join(words)) == name_key(" ".join(reversed(words)).upper())


def test_the_index_returns_every_player_with_the_name_so_ambiguity_shows() -> None:
    index = NameIndex([(1, "Jean Dupont"), (2, "Léa Martin"), (3, "DUPONT Jean")])
    assert index.lookup("dupont, jean") == [1, 3]
    assert index.lookup("LEA MARTIN") == [2]
    assert index.lookup("Nobody Here") == []


def test_surname_splits() -> None:
    assert split_upper_surname("ABILIO-BRANCO Eric") == ("ABILIO-BRANCO", "Eric")
    assert split_upper_surname("ANGLES_D'AURIAC Jean-Christian") == ("ANGLES D'AURIAC", "Jean-Christian")
    assert split_upper_surname("DE LA TOUR Jean") == ("DE LA TOUR", "Jean")
    assert split_upper_surname("Akiya Tatsushi") == ("Akiya", "Tatsushi")
    assert split_first_word_surname("Aarle Barbara_van") == ("Aarle", "Barbara van")
    assert split_comma_name("Guzmán Camacho, Gabriel") == ("Guzmán Camacho", "Gabriel")
    assert split_comma_name("Colima Go Center") == (None, None)
