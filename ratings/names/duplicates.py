"""The committee's duplicate finder: likely pairs of records of one person
in a list, each with its evidence.

A pair is offered when it is *alike* and nothing says the two are two people:

- **alike**: their names are close as whole names (:mod:`ratings.names.scoring`:
  accents, case, word order, typos, transliterations), or they share a
  national id (SAGA id, EGD PIN, FFG licence, AGA id);
- **never met over the board**: one person does not play themself;
- **never both at one club night**: no club and date where both played (a
  person is at one club a night; the games of a tournament at a club count
  too, the same way);
- **not told apart already**: the committee has not marked them as
  different people (:class:`ratings.models.DifferentPeople`), and they are
  not one name told apart by a suffix ("Li Wei (Cape Town)" and "Li Wei
  (Pretoria)"), which someone added for that reason.

The pairs come closest first: a shared id, then the names' closeness, a
smaller gap between their ranks, and fewer games in all (a stray record has
few).  Each pair says which record to keep (more games, then the older) and
which to merge into it.

Cost: names are paired by :func:`ratings.names.scoring.close_pairs` (a
cheap pass in C over all pairs, then word by word for those that pass);
the games read are those of the candidates only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date

from django.db.models import Count, Max, Min, Q

from ratings.exchange.names import identity_key
from ratings.models import DifferentPeople, Game, Player, RatingList
from ratings.names.scoring import close_pairs

#: The national ids two records of one person share (field, label).
ID_FIELDS = (
    ("saga_id", "SAGA id"),
    ("egd_pin", "EGD PIN"),
    ("ffg_licence", "FFG licence"),
    ("aga_id", "AGA id"),
)


@dataclass(frozen=True, slots=True)
class Record:
    """One side of a pair: the player and what their games say."""

    player: Player
    games: int
    nights: int
    first_played: date | None
    last_played: date | None


@dataclass(frozen=True, slots=True)
class Pair:
    """Two records that are likely one person, and why."""

    kept: Record
    duplicate: Record
    #: 0..1; 0 when the names are not close (the pair shares an id).
    closeness: float
    #: "SAGA id 7001", one for each id they share.
    same_ids: tuple[str, ...]
    #: Stones between their current ranks.
    rank_gap: float

    @property
    def percent(self) -> int:
        return round(100 * self.closeness)

    @property
    def sort_key(self) -> tuple[object, ...]:
        return (
            -len(self.same_ids),
            -round(self.closeness, 3),
            self.rank_gap,
            self.kept.games + self.duplicate.games,
            self.kept.player.pk,
            self.duplicate.player.pk,
        )


def likely_pairs(rating_list: RatingList | int) -> list[Pair]:
    """The list's likely pairs of records of one person, closest first."""
    players = {p.pk: p for p in Player.objects.filter(rating_list=rating_list).select_related("home_club")}
    candidates: dict[tuple[int, int], float] = {}
    for (a, b), score in _close_names(players.values()):
        candidates[a, b] = score
    shared = _shared_ids(players.values())
    for key in shared:
        candidates.setdefault(key, 0.0)
    if not candidates:
        return []
    marked = set(DifferentPeople.objects.filter(rating_list=rating_list).values_list("first_id", "second_id"))
    told_apart = {key for key in candidates if _told_apart_by_suffix(players[key[0]], players[key[1]])}
    keys = [key for key in candidates if key not in marked and key not in told_apart]
    involved = {pk for key in keys for pk in key}
    met, nights = _games_of(rating_list, involved)
    records = _records(players, involved, nights)
    pairs = []
    for a, b in keys:
        if (a, b) in met or nights[a] & nights[b]:
            continue
        first, second = records[a], records[b]
        kept, duplicate = (first, second) if _keep_first(first, second) else (second, first)
        pairs.append(
            Pair(
                kept=kept,
                duplicate=duplicate,
                closeness=candidates[a, b],
                same_ids=tuple(shared.get((a, b), ())),
                rank_gap=abs(first.player.rank - second.player.rank),
            )
        )
    return sorted(pairs, key=lambda pair: pair.sort_key)


def _ordered(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _close_names(players: Iterable[Player]) -> Iterable[tuple[tuple[int, int], float]]:
    """(pair of ids, closeness) of the names close as whole names."""
    people = [(p.pk, p.search_key.split()) for p in players if p.search_key]
    for a, b, closeness in close_pairs(people):
        yield _ordered(a, b), closeness


def _shared_ids(players: Iterable[Player]) -> dict[tuple[int, int], list[str]]:
    """(pair of ids) -> the national ids they share ("SAGA id 7001")."""
    holders: dict[tuple[str, str], list[int]] = defaultdict(list)
    for player in players:
        for field, label in ID_FIELDS:
            value = getattr(player, field).strip().upper()
            if value:
                holders[label, value].append(player.pk)
    shared: dict[tuple[int, int], list[str]] = defaultdict(list)
    for (label, value), pks in sorted(holders.items()):
        for i, a in enumerate(pks):
            for b in pks[i + 1 :]:
                shared[_ordered(a, b)].append(f"{label} {value}")
    return shared


def _told_apart_by_suffix(a: Player, b: Player) -> bool:
    """One name, told apart by a suffix on at least one of them."""
    return bool(a.suffix or b.suffix) and identity_key(a.name) == identity_key(b.name)


def _games_of(
    rating_list: RatingList | int, involved: set[int]
) -> tuple[set[tuple[int, int]], dict[int, set[tuple[int, date]]]]:
    """The pairs of ``involved`` that met over the board, and each involved
    player's club nights (club, date) with a game."""
    met: set[tuple[int, int]] = set()
    nights: dict[int, set[tuple[int, date]]] = defaultdict(set)
    games = Game.objects.filter(rating_list=rating_list).filter(
        Q(white_id__in=involved) | Q(black_id__in=involved)
    )
    for white, black, club, day in games.values_list("white_id", "black_id", "club_id", "date").distinct():
        met.add(_ordered(white, black))
        for pk in (white, black):
            if pk in involved:
                nights[pk].add((club, day))
    return met, nights


def _records(
    players: dict[int, Player], involved: set[int], nights: dict[int, set[tuple[int, date]]]
) -> dict[int, Record]:
    spans: dict[int, tuple[int, date | None, date | None]] = {pk: (0, None, None) for pk in involved}
    for side in ("white", "black"):
        rows = (
            Game.objects.filter(**{f"{side}_id__in": involved})
            .values(side)
            .annotate(n=Count("id"), first=Min("date"), last=Max("date"))
            .values_list(side, "n", "first", "last")
        )
        for pk, n, first, last in rows:
            count, low, high = spans[pk]
            spans[pk] = (
                count + n,
                min(d for d in (low, first) if d is not None),
                max(d for d in (high, last) if d is not None),
            )
    return {
        pk: Record(players[pk], spans[pk][0], len(nights[pk]), spans[pk][1], spans[pk][2]) for pk in involved
    }


def _keep_first(a: Record, b: Record) -> bool:
    """Keep the record with more games, then the older one."""
    return (a.games, -a.player.pk) >= (b.games, -b.player.pk)
