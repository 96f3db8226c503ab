"""The demo's players: names, ranks, home clubs, and a hidden strength.

Results follow the hidden playing strength, which drifts (kyu players
improve), so ranks move; handicaps follow the ranks people know.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta

from django.utils.text import slugify

from ratings.models import Club, Player

DAYS = 730  # two years

FIRST_SA = (
    "Thabo Anna Pieter Lerato Sipho Johan Naledi Willem Zanele Kobus Ayanda Marike Themba Elsa Bongani "
    "Riaan Nomsa Hennie Palesa Gert Lindiwe Andre Karabo Sanet Mpho Francois Refilwe Jaco Nandi Louis "
    "Precious Deon Busisiwe Stefan Ntombi Werner Kagiso Ilse Tumelo Chen"
)
LAST_SA = (
    "Mokoena Botha Nkosi van der Merwe Dlamini Pretorius Khumalo Venter Ndlovu Joubert Mahlangu du Plessis "
    "Zulu Steyn Sithole Coetzee Mthembu Fourie Ngcobo Nel Radebe Kruger Molefe Smit Tshabalala Marais Shabalala "
    "Viljoen Mkhize Swanepoel Cele le Roux Maseko Olivier Zwane Erasmus Mabuza Hattingh Baloyi Wang"
)
FIRST_UK = "Oliver Amelia Harry Isla George Ava Jack Mia Charlie Grace Alfie Freya Tom Ruth"
LAST_UK = "Hughes Patel Walker Clarke Turner Baker Wright Ellis Morgan Price Reid Shaw Lloyd Fox"


@dataclass
class DemoPlayer:
    model: Player
    strength: float  # hidden playing strength on the rank scale at the start
    growth: float  # rank units gained over the two years

    def known(self, years: float) -> float:
        """The rank people know at ``years`` into the demo (what they gained, a little late)."""
        return self.model.start_rank + round(self.growth * years * 0.8)

    def playing(self, years: float) -> float:
        return self.strength + self.growth * years


def words(text: str) -> list[str]:
    """Names in a text, keeping the two- and three-word Afrikaans ones together."""
    parts, names = text.split(), []
    i = 0
    while i < len(parts):
        span = {"van": 3, "du": 2, "le": 2}.get(parts[i], 1)
        names.append(" ".join(parts[i : i + span]))
        i += span
    return names


def names(rng: random.Random, first: str, last: str, count: int) -> list[str]:
    """``count`` different full names, from first names and surnames."""
    firsts, lasts = words(first), words(last)
    made: list[str] = []
    while len(made) < count:
        name = f"{rng.choice(firsts)} {rng.choice(lasts)}"
        if name not in made:
            made.append(name)
    return made


def club_ranks(rng: random.Random, count: int, low: int, high: int) -> list[int]:
    """Ranks from ``low`` to ``high``, more kyu than dan players, as at a club."""
    ranks = [round(low + (high - low) * (i / (count - 1)) ** 1.3) for i in range(count)]
    rng.shuffle(ranks)
    return ranks


def make_players(
    rng: random.Random,
    club: Club,
    people: list[str],
    ranks: list[int],
    start: date,
    founders: int,
    id_base: int | None,
    suffixes: dict[str, str] | None = None,
) -> list[DemoPlayer]:
    """Unsaved players of ``club`` (their home club, in its list): the first
    ``founders`` play from the start, the others join during the two years.
    With ``id_base``, some have SAGA ids (from it, distinct) and EGD PINs."""
    made = []
    for i, (name, rank) in enumerate(zip(people, ranks, strict=True)):
        suffix = (suffixes or {}).get(name, "")
        since = start if i < founders else start + timedelta(days=rng.randrange(60, DAYS - 60))
        model = Player(
            rating_list=club.rating_list,
            home_club=club,
            name=name,
            suffix=suffix,
            slug=slugify(f"{name} {suffix}"),
            start_rank=rank,
            rank=rank,
            since=since,
            saga_id=str(id_base + i * 7) if id_base is not None and rng.random() < 0.6 else "",
            egd_pin=str(rng.randrange(10_000_000, 29_999_999)) if id_base is not None and rank >= -10 and rng.random() < 0.5 else "",
        )  # fmt: skip
        # Weak players improve fastest; a few are over- or under-ranked.
        growth = max(0.0, rng.gauss(-rank / 6, 1.0)) if rank < 0 else rng.gauss(0.2, 0.3)
        made.append(DemoPlayer(model, rank + rng.gauss(0, 0.8), growth))
    return made
