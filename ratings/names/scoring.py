"""How close a typed name is to a player's name: one score from 0 to 1,
from a similarity scored per name part.  Pure Python (no Django), so rank
sync, imports and tests can score names without a database.

Both names are reduced to their search words
(:func:`ratings.exchange.names.search_words`: accents, case, spacing and
punctuation gone, "ß" -> "ss", "ö"/"oe" alike).  Each word of the typed
name is paired with one word of the player's name, best pairs first, so
word order does not count ("Wang Riaan" is "Riaan Wang").  A pair scores:

- 1 when the words are equal;
- :data:`PREFIX_SCORE` when the player's word starts with the typed one and
  the name is still being typed (search, type-ahead: "zoe mul" finds Zoë
  Müller);
- otherwise the Jaro-Winkler similarity of the two words (rapidfuzz),
  made for short strings such as names: a swapped pair of letters or a
  letter left out or added still scores about 0.9 ("Wnag" and "Wang" 0.92,
  "Wan" and "Wang" 0.94), two different names rarely more than 0.85.

Two ways of comparing:

- *typing* (``whole=False``): the typed words must each be found
  (:data:`WORD_THRESHOLD`) in the player's name; the player's other words
  do not count against it ("zoe" finds Zoë Müller).  The closeness is the
  pairs' mean, each weighted by its length.
- *whole names* (``whole=True``, a name given in full at entry, in an
  import or a rank sync): every word of both names counts, weighted by its
  length, a word without a partner (or only one below
  :data:`WORD_THRESHOLD`) scoring 0 ("Riaan" alone is not close to "Riaan Wang"); the
  names are close from :data:`NAME_THRESHOLD`.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import TypeVar

from rapidfuzz import fuzz, process
from rapidfuzz.distance import JaroWinkler

from ratings.exchange.names import search_words

#: Whatever identifies a candidate (a primary key, a line number).
K = TypeVar("K", bound=Hashable)

#: A typed word that starts a word of the name, while typing.
PREFIX_SCORE = 0.97
#: Below this, two words are not taken for one another.
WORD_THRESHOLD = 0.84
#: Whole names at least this close are offered as "did you mean".
NAME_THRESHOLD = 0.88
#: The cheap first pass of :func:`close_pairs` over all pairs of names
#: (0..100, rapidfuzz's ratio of the words sorted): below it, names are not
#: compared word by word.  Names :func:`closeness_of_words` takes for one
#: another score well above it ("riaan wang"/"riaan wnag" 90, "wei li"/"li
#: wei" 100).
PREFILTER = 70.0


def word_similarity(typed: str, word: str, *, typing: bool) -> float:
    """How alike two search words are, 0 to 1 (see the module's docstring)."""
    if typed == word:
        return 1.0
    if typing and word.startswith(typed):
        return PREFIX_SCORE
    return float(JaroWinkler.normalized_similarity(typed, word))


def _pairs(typed: Sequence[str], words: Sequence[str], *, typing: bool) -> list[tuple[float, int, int]]:
    """The best one-to-one pairing of typed words with the name's words:
    (similarity, typed index, word index), best pairs taken first."""
    scored = sorted(
        (
            (word_similarity(t, w, typing=typing), i, j)
            for i, t in enumerate(typed)
            for j, w in enumerate(words)
        ),
        reverse=True,
    )
    used_typed: set[int] = set()
    used_words: set[int] = set()
    pairs = []
    for score, i, j in scored:
        if i not in used_typed and j not in used_words:
            used_typed.add(i)
            used_words.add(j)
            pairs.append((score, i, j))
    return pairs


def closeness_of_words(typed: Sequence[str], words: Sequence[str], *, whole: bool) -> float:
    """The closeness of two names given as search words; 0 when they are
    not taken for one another (a typed word not found, or whole names below
    :data:`NAME_THRESHOLD`)."""
    if not typed or not words:
        return 0.0
    pairs = _pairs(typed, words, typing=not whole)
    if not whole:
        if len(pairs) < len(typed) or any(score < WORD_THRESHOLD for score, _, _ in pairs):
            return 0.0
        return sum(score * len(typed[i]) for score, i, _ in pairs) / sum(len(t) for t in typed)
    # Whole names: a pair below the word threshold counts as two words
    # without a partner.
    weight = sum(len(t) for t in typed) + sum(len(w) for w in words)
    found = sum(score * (len(typed[i]) + len(words[j])) for score, i, j in pairs if score >= WORD_THRESHOLD)
    return found / weight if found / weight >= NAME_THRESHOLD else 0.0


def closeness(typed: str, name: str, *, whole: bool = True) -> float:
    """:func:`closeness_of_words` of two names as written.

    >>> round(closeness("Riaan Wnag", "Riaan Wang"), 2), closeness("Riaan", "Riaan Wang")
    (0.97, 0.0)
    >>> closeness("DUPONT François", "Francois Dupont"), closeness("zoe", "Zoë Müller", whole=False)
    (1.0, 1.0)
    """
    return closeness_of_words(search_words(typed), search_words(name), whole=whole)


def closest(candidates: Iterable[tuple[K, str]], name: str) -> list[K]:
    """The candidates whose names are closest to ``name`` as whole names
    (ties all returned, in the order given; none when none is close): for a
    rank sync or an import matching a national list's names to players.

    >>> closest([(1, "Riaan Wang"), (2, "Riaan Wong"), (3, "Andre Marais")], "WANG Riaan")
    [1]
    >>> closest([(1, "Zoë Müller"), (2, "Zoe Mueller")], "Zoe Muller"), closest([(1, "Andre Marais")], "Nobody")
    ([1, 2], [])
    """
    return closest_words(((key, search_words(other)) for key, other in candidates), search_words(name))


def closest_words(candidates: Iterable[tuple[K, Sequence[str]]], typed: Sequence[str]) -> list[K]:
    """:func:`closest` of names already reduced to their search words (a
    rank sync scores one national list's ~50,000 names against every
    player: it reduces each name once)."""
    best: list[K] = []
    top = 0.0
    for key, words in candidates:
        score = round(closeness_of_words(typed, words, whole=True), 3)
        if score > top:
            best, top = [key], score
        elif score == top and score > 0:
            best.append(key)
    return best


def close_pairs(names: Sequence[tuple[K, Sequence[str]]]) -> Iterator[tuple[K, K, float]]:
    """Every pair of the named things whose names (reduced to search words)
    are close as whole names, once each, with their closeness: the
    duplicate finder's pairs of players, an import's pairs of new names.

    Quadratic, but cheap: each name is compared in C to the later ones with
    the ratio of their sorted words (:data:`PREFILTER`, a sort done once, not
    at each of the n²/2 comparisons) and only the pairs that pass are scored
    word by word.

    >>> list(close_pairs([(1, ["riaan", "wang"]), (2, ["andre", "marais"]), (3, ["wang", "riaan"])]))
    [(1, 3, 1.0)]
    """
    keys = [" ".join(sorted(words)) for _, words in names]
    for i, (key, words) in enumerate(names):
        later = keys[i + 1 :]
        for _, _score, j in process.extract(
            keys[i], later, scorer=fuzz.ratio, score_cutoff=PREFILTER, limit=None
        ):
            other, other_words = names[i + 1 + j]
            closeness = closeness_of_words(words, other_words, whole=True)
            if closeness > 0:
                yield key, other, closeness
