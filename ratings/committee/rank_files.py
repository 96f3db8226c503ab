"""A list's own ranks published for pairing programs: the FFG ladder, EGD
list and AGA TD list layouts (ratings/exchange/rank_writers.py), at
/lists/<slug>/ranks/<file> and through ``manage.py export_ranks``.  Read back
by ``import_ranks``, a published file gives the same ranks (docs/formats.md,
"Publishing a list's ranks")."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone

from ratings import exchange
from ratings.committee.common import ID_FIELD, CommitteeError
from ratings.engine import get_system
from ratings.models import Player, RatingList

#: The unit of each layout's rating column; a list whose primary system
#: rates in it has its own figure written, any other the middle of the grade.
NATIVE_UNIT = {"ffg": "level", "egd": "GoR", "aga": None}


@dataclass(frozen=True)
class PublishedRanks:
    """One published file: its name, bytes and media type, and how many of
    the list's players it holds (the EGD and AGA lists only those with their id)."""

    name: str
    data: bytes
    media_type: str
    written: int
    players: int


def rank_entry(player: Player, rating_list: RatingList, format: str, native: bool) -> exchange.RankEntry:
    """The player as a national list writes them (their id for ``format``,
    country, home club's EGD code, rank and, when ``native``, rating)."""
    club = player.home_club
    return exchange.RankEntry(
        line=0,
        name=player.name,
        surname=None,
        given_name=None,
        national_id=getattr(player, ID_FIELD[format]) or None,
        rank=player.rank,
        rating=player.rating if native else None,
        country=player.country or rating_list.country or None,
        club=(club.egd_code if club is not None else "") or None,
    )


def publish_ranks(rating_list: RatingList, name: str) -> PublishedRanks:
    """The file ``name`` (ech_ffg_V3.txt, egf_db.txt, tdlista.txt) of the list's ranks now."""
    layout = exchange.RANK_FILES.get(name)
    if layout is None:
        raise CommitteeError(f"no published list {name!r}; the files are {', '.join(exchange.RANK_FILES)}")
    native = NATIVE_UNIT[layout.format] == get_system(rating_list.primary_system).unit
    players = rating_list.players.select_related("home_club")
    # Alphabetical by surname, as the national lists are.
    entries = sorted(
        (rank_entry(p, rating_list, layout.format, native) for p in players),
        key=lambda e: (exchange.name_key(exchange.split_given_surname(e.name)[0]), exchange.name_key(e.name)),
    )
    title = f"{rating_list.name}: the list's own ranks ({rating_list.primary_system})"
    data = exchange.write_rank_file(name, entries, timezone.localtime(), title)
    written = sum(1 for e in entries if layout.writes(e))
    media_type = f"text/plain; charset={layout.encoding}"
    return PublishedRanks(name, data, media_type, written, len(entries))
