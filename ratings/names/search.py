"""Finding players by a typed name in the database, ranked.

Every player carries a search key (``Player.search_key``, the name's
:func:`ratings.exchange.names.search_words`).  The typed name is reduced
the same way and each candidate is scored by
:func:`ratings.names.scoring.closeness_of_words`; the candidates are ranked
by closeness (to two decimals), then recent activity (the date of the
player's latest game, ``last_updated``: most recent first), then the club
the sheet is entered at (its members first), then name.

The candidates are read in stages, the first that finds anyone close
answering (at most :data:`NARROWED` a stage, the most recently active):

1. players whose key holds every typed word (a word of three letters or
   more anywhere, a shorter one at the start of a word): "zoe mul", "Riaan
   Wan", "nel francois";
2. then, for several words, those whose key holds any of them: "Riaan Wnag"
   (through "riaan"), "Ana Smith" (through "smith");
3. then, every typed word being mistyped: on PostgreSQL the players whose key
   is alike the typed words as trigrams (pg_trgm's ``%``, similarity from
   0.3), on other databases every player.

On PostgreSQL the trigram index of migration 0009 (GIN, ``gin_trgm_ops``
on ``search_key``) serves the LIKEs of stages 1 and 2 and the ``%`` of
stage 3, so a search among 100,000 players takes milliseconds
(bench/names.py).  SQLite reads the same stages without an index: the same
results, slower, save in stage 3, where SQLite scores everyone and may find
a name whose trigrams PostgreSQL's ``%`` leaves out ("Wnag" alone shares one
trigram with "wang").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from functools import reduce
from operator import or_
from typing import TypeVar

from django.db import connection
from django.db.models import BooleanField, Case, F, Func, IntegerField, Q, QuerySet, Value, When

from ratings.exchange.names import search_words
from ratings.models import Club, Player
from ratings.names.scoring import closeness_of_words

#: The most players a search returns.
MAX_RESULTS = 200
#: On PostgreSQL, the most candidates scored.
NARROWED = 1000


PlayersQS = TypeVar("PlayersQS", bound=QuerySet[Player])


@dataclass(frozen=True)
class Match:
    """A player a typed name may mean, and how close (0 to 1) the names are."""

    player: Player
    closeness: float


class _TrigramSimilar(Func):
    """``search_key % 'typed words'`` (pg_trgm): served by the GIN trigram index."""

    arg_joiner = " %% "
    template = "(%(expressions)s)"
    output_field = BooleanField()


def find(
    players: QuerySet[Player],
    text: str,
    *,
    whole: bool = False,
    club: Club | int | None = None,
    limit: int = MAX_RESULTS,
) -> list[Match]:
    """The players of ``players`` that ``text`` may mean, closest first.

    ``whole=False`` while a name is being typed (search, filters,
    type-ahead); ``whole=True`` for a name given in full (entry's check,
    imports, rank sync).  ``club``: the club where the sheet is entered, to
    rank its members first among equals."""
    words = search_words(text)
    if not words:
        return []
    club_id = club.pk if isinstance(club, Club) else club
    scored: list[tuple[float, int, str, date | None, int | None]] = []
    for rows in _candidates(players, words):
        for pk, key, last_updated, home_club_id in rows:
            score = closeness_of_words(words, key.split(), whole=whole)
            if score > 0:
                scored.append((score, pk, key, last_updated, home_club_id))
        if scored:
            break
    scored.sort(key=lambda s: _rank(s[0], s[3], s[4] == club_id if club_id else False, s[2], s[1]))
    top = scored[:limit]
    by_pk = Player.objects.select_related("home_club").in_bulk([s[1] for s in top])
    return [Match(by_pk[pk], round(score, 3)) for score, pk, *_ in top if pk in by_pk]


def _rank(score: float, last_updated: date | None, at_club: bool, key: str, pk: int) -> tuple[object, ...]:
    return (-round(score, 2), -(last_updated.toordinal() if last_updated else 0), not at_club, key, pk)


Row = tuple[int, str, date | None, int | None]


def _holds(word: str) -> Q:
    """The key holds ``word``: anywhere for three letters or more (the
    trigram index serves LIKE '%word%'), else at the start of a word."""
    if len(word) >= 3:
        return Q(search_key__contains=word)
    return Q(search_key__startswith=word) | Q(search_key__contains=f" {word}")


def _candidates(players: QuerySet[Player], words: list[str]) -> Iterator[list[Row]]:
    """The candidates, in the stages of the module's docstring; the caller
    stops at the first stage that finds someone."""
    columns = ("pk", "search_key", "last_updated", "home_club_id")
    recent = F("last_updated").desc(nulls_last=True)
    holds = [_holds(word) for word in words]
    yield list(players.filter(*holds).order_by(recent).values_list(*columns)[:NARROWED])
    if len(words) > 1:
        yield list(players.filter(reduce(or_, holds)).order_by(recent).values_list(*columns)[:NARROWED])
    if connection.vendor == "postgresql":
        alike = _TrigramSimilar(F("search_key"), Value(" ".join(words)))
        yield list(players.filter(alike).order_by(recent).values_list(*columns)[:NARROWED])
    else:
        yield list(players.order_by().values_list(*columns))


def ranked(players: PlayersQS, text: str, *, club: Club | int | None = None) -> PlayersQS:
    """``players`` narrowed to those ``text`` may mean (while typing), as a
    queryset ordered closest first (a table may sort it otherwise)."""
    ids = [m.player.pk for m in find(players, text, club=club)]
    order = Case(*(When(pk=pk, then=Value(n)) for n, pk in enumerate(ids)), output_field=IntegerField())
    return players.filter(pk__in=ids).order_by(order) if ids else players.none()
