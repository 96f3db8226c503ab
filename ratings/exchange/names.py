"""Player names: comparing them across lists, and splitting surname/given name.

Issue 5: match "by name (accent-, case- and order-insensitive: 'DUPONT Jean'
= 'Jean Dupont')".  :func:`name_key` reduces a name to a key that is equal
for all those spellings: transliterated to ASCII (anyascii, ISC licence:
"Léa" -> "Lea", "Müller" -> "Muller", "Łódź" -> "Lodz"), case-folded, punctuation and the underscores the EGD
uses inside name parts ("Barbara_van") turned into spaces, and the words
sorted.  Sorting the words makes "Jean Pierre Dupont" equal "Dupont Pierre
Jean" too; that can only make two different people look alike, and an
ambiguous match is shown to the committee, never applied (issue 5), so it
errs on the safe side.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Hashable, Iterable

from anyascii import anyascii

_SEPARATORS = re.compile(r"[^a-z0-9]+")
# Han ideographs, kana and Hangul syllables: one character is one syllable.
# anyascii runs syllables together ('张三' -> 'ZhangSan'); each is made a word
# of its own, so that '张三' has the key of 'Zhang San' as the EGD writes it.
_SYLLABLES = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])")


def to_ascii(name: str) -> str:
    """'Léa' -> 'Lea', '张三' -> 'Zhang San ' (spaces around each syllable)."""
    return anyascii(_SYLLABLES.sub(r" \1 ", name))


def name_words(name: str) -> list[str]:
    """The lower-case ASCII words of a name, in their written order."""
    return [word for word in _SEPARATORS.split(to_ascii(name).casefold()) if word]


def name_key(name: str) -> str:
    """'DUPONT Jean', 'Jean Dupont', 'dupont, jean', 'Dupont  Jean' -> 'dupont jean'."""
    return " ".join(sorted(name_words(name)))


def _is_upper_word(word: str) -> bool:
    # str.isupper: at least one cased letter and no lower-case one ("D'AURIAC", "Z1000").
    return word.isupper()


def split_upper_surname(name: str) -> tuple[str | None, str | None]:
    """'ABILIO-BRANCO Eric' -> ('ABILIO-BRANCO', 'Eric'): the FFG writes surnames in capitals.

    The surname is the leading run of words written in capitals; when the
    name does not follow that convention (foreign players: 'Akiya
    Tatsushi'), the first word is taken as the surname, as in the rest of
    the list.  Underscores (FFG and EGD spaces inside a name part) become
    spaces.
    """
    words = name.split()
    if not words:
        return None, None
    count = 0
    while count < len(words) - 1 and _is_upper_word(words[count]):
        count += 1
    count = max(count, 1)
    surname = " ".join(words[:count]).replace("_", " ")
    given = " ".join(words[count:]).replace("_", " ") or None
    return surname, given


def split_first_word_surname(name: str) -> tuple[str | None, str | None]:
    """'Aarle Barbara_van' -> ('Aarle', 'Barbara van'): EGD and h9 order, parts joined by '_'."""
    words = name.split()
    if not words:
        return None, None
    surname = words[0].replace("_", " ")
    given = " ".join(words[1:]).replace("_", " ") or None
    return surname, given


def split_comma_name(name: str) -> tuple[str | None, str | None]:
    """'Guzmán Camacho, Gabriel' -> ('Guzmán Camacho', 'Gabriel'); no comma -> (None, None)."""
    if "," not in name:
        return None, None
    surname, _, given = name.partition(",")
    return surname.strip() or None, given.strip() or None


class NameIndex:
    """Club players by :func:`name_key`, to look names up in a national list.

    >>> index = NameIndex([(1, "Jean Dupont"), (2, "Léa Martin")])
    >>> index.lookup("DUPONT Jean"), index.lookup("martin, lea"), index.lookup("Nobody")
    ([1], [2], [])

    Several players with the same key all come back: the caller shows an
    ambiguous match, it never picks one.
    """

    def __init__(self, players: Iterable[tuple[Hashable, str]] = ()) -> None:
        self._by_key: dict[str, list[Hashable]] = defaultdict(list)
        for player, name in players:
            self.add(player, name)

    def add(self, player: Hashable, name: str) -> None:
        key = name_key(name)
        if key and player not in self._by_key[key]:
            self._by_key[key].append(player)

    def lookup(self, name: str) -> list[Hashable]:
        return list(self._by_key.get(name_key(name), ()))


_SPACES = re.compile(r"\s+")


def identity_key(name: str) -> str:
    """The key under which a list knows a player: Unicode NFC, case-folded,
    spacing collapsed ('  Jean   DUPONT ' and 'jean dupont' are one player).

    Unlike :func:`name_key` it keeps accents and word order: 'Lea' and 'Léa',
    or 'Li Wei' and 'Wei Li', may be two people, and the database must not
    refuse the second; entry offers the first as a "did you mean" instead."""
    folded = unicodedata.normalize("NFC", unicodedata.normalize("NFC", name).casefold())
    return _SPACES.sub(" ", folded).strip()
