"""Player names: cleaning what people type, comparing names across lists,
and splitting surname/given name.

:func:`clean_name` is the one gate every new name passes (record-sheet
forms, tournament imports): Unicode NFC, invisible characters removed,
whitespace collapsed, and refused (ValueError with a message) when it
could not be written to an h9 file or would only look like another name
(docs/formats.md, "Player names").

Players are matched by name, whatever the accents, case and word order:
'DUPONT Jean' = 'Jean Dupont'.  :func:`name_key` reduces a name to a key that is equal
for all those spellings: transliterated to ASCII (anyascii, ISC licence:
"Léa" -> "Lea", "Müller" -> "Muller", "Łódź" -> "Lodz"), case-folded, punctuation and the underscores the EGD
uses inside name parts ("Barbara_van") turned into spaces, and the words
sorted.  Sorting the words makes "Jean Pierre Dupont" equal "Dupont Pierre
Jean" too; that can only make two different people look alike, and an
ambiguous match is shown to the committee, never applied, so it
errs on the safe side.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

from anyascii import anyascii
from confusable_homoglyphs import confusables

#: Whatever identifies a player in a NameIndex (a primary key, a line number).
K = TypeVar("K", bound=Hashable)

_SEPARATORS = re.compile(r"[^a-z0-9]+")
# Han ideographs, kana and Hangul syllables: one character is one syllable.
# anyascii runs syllables together ('张三' -> 'ZhangSan'); each is made a word
# of its own, so that '张三' has the key of 'Zhang San' as the EGD writes it.
_SYLLABLES = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff])")


def to_ascii(name: str) -> str:
    """'Léa' -> 'Lea', '张三' -> 'Zhang San ' (spaces around each syllable)."""
    return anyascii(_SYLLABLES.sub(r" \1 ", name))


#: The longest name the site stores (Player.name).
MAX_NAME_LENGTH = 100

#: Characters a name can never hold: '|' starts the EGD PIN column of an h9
#: player line (docs/formats.md), so a name with one cannot be written back.
FORBIDDEN_IN_NAMES = "|"


def _is_invisible(char: str) -> bool:
    """Zero-width and bidirectional controls, soft hyphen, BOM: Unicode
    category Cf ("format").  They change how a name looks or sorts without
    being seen, so two names could look equal and differ."""
    return unicodedata.category(char) == "Cf"


def clean_name(text: str) -> str:
    """A player's name as the site stores it, or ValueError saying what is wrong.

    >>> clean_name("  Jean\u200b  Dupont\u202e ")
    'Jean Dupont'

    1. Unicode NFC, so "é" typed as e + combining accent equals "é".
    2. Invisible format characters (zero-width spaces and joiners, bidi
       controls, soft hyphens, byte-order marks) are removed.
    3. Every run of white space (tabs, line breaks, no-break spaces) becomes
       one space; leading and trailing space go.
    4. Refused: other control characters (NUL and the like), '|' (it breaks
       the h9 export), an empty name, more than 100 characters, and a word
       that mixes alphabets with lookalike letters ("J\u0435an" with a Cyrillic
       "\u0435"): such a name only looks like another player's.  Refused rather
       than folded to Latin: folding guesses which alphabet was meant, and
       a whole Cyrillic or Greek name is fine as it is.
    """
    text = unicodedata.normalize("NFC", text)
    text = "".join(char for char in text if not _is_invisible(char))
    text = " ".join(text.split())
    controls = sorted({f"U+{ord(c):04X}" for c in text if unicodedata.category(c) == "Cc"})
    if controls:
        raise ValueError(f"the name contains control characters ({', '.join(controls)})")
    if not text:
        raise ValueError("the name is empty")
    if len(text) > MAX_NAME_LENGTH:
        raise ValueError(f"the name is {len(text)} characters long; at most {MAX_NAME_LENGTH}")
    for char in FORBIDDEN_IN_NAMES:
        if char in text:
            raise ValueError(f"a name cannot contain {char!r}")
    for word in text.split(" "):
        if confusables.is_dangerous(word):
            mixed = ", ".join(
                sorted({unicodedata.name(c, "?").split(" ")[0].title() for c in word if c.isalpha()})
            )
            raise ValueError(
                f"{word!r} mixes letters of different alphabets ({mixed}) that look alike; "
                "type the name in one alphabet"
            )
    return text


def name_words(name: str) -> list[str]:
    """The lower-case ASCII words of a name, in their written order."""
    return [word for word in _SEPARATORS.split(to_ascii(name).casefold()) if word]


def name_key(name: str) -> str:
    """'DUPONT Jean', 'Jean Dupont', 'dupont, jean', 'Dupont  Jean' -> 'dupont jean'."""
    return " ".join(sorted(name_words(name)))


# German umlauts written out (ö -> oe, ü -> ue, ä -> ae) fold onto the bare
# vowel anyascii makes of the letter itself ("Müller" -> "muller"), so that
# "Mueller" and "Müller" fold alike.  It also folds "Michael" to "michal"
# and "Joel" to "jol": harmless, since both sides of a comparison are folded.
_UMLAUTS_WRITTEN_OUT = re.compile(r"([aou])e")


def search_words(name: str) -> list[str]:
    """The words a name is searched by, in their written order: ASCII,
    case-folded, punctuation gone (:func:`name_words`; "ß" -> "ss", "é" -> "e"),
    and "ae", "oe", "ue" folded to "a", "o", "u".

    >>> search_words("Zoë MÜLLER"), search_words("Zoe Mueller"), search_words("Strauß")
    (['zo', 'muller'], ['zo', 'muller'], ['strauss'])

    The folded words are not meant to be read ("Zoë" becomes "zo"): both
    sides of a comparison are folded alike, which is what counts.
    """
    return [_UMLAUTS_WRITTEN_OUT.sub(r"\1", word) for word in name_words(name)]


def search_key(name: str) -> str:
    """The stored key a player's name is searched by (Player.search_key):
    :func:`search_words` joined by single spaces."""
    return " ".join(search_words(name))


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


class NameIndex(Generic[K]):
    """Club players by :func:`name_key`, to look names up in a national list.

    >>> index = NameIndex([(1, "Jean Dupont"), (2, "Léa Martin")])
    >>> index.lookup("DUPONT Jean"), index.lookup("martin, lea"), index.lookup("Nobody")
    ([1], [2], [])

    Several players with the same key all come back: the caller shows an
    ambiguous match, it never picks one.
    """

    def __init__(self, players: Iterable[tuple[K, str]] = ()) -> None:
        self._by_key: dict[str, list[K]] = defaultdict(list)
        for player, name in players:
            self.add(player, name)

    def add(self, player: K, name: str) -> None:
        key = name_key(name)
        if key and player not in self._by_key[key]:
            self._by_key[key].append(player)

    def lookup(self, name: str) -> list[K]:
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
