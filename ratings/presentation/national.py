"""Links to a player's pages at the national and European bodies whose ids
the site stores (docs/sources.md names the sites)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from ratings.models import Player

#: Player field, the body's name, its player page with the id in it.
PAGES: tuple[tuple[str, str, str], ...] = (
    ("egd_pin", "EGD", "https://www.europeangodatabase.eu/EGD/Player_Card.php?&key={}"),
    ("ffg_licence", "FFG", "https://ffg.jeudego.org/php/affichePersonne.php?id={}"),
    ("aga_id", "AGA", "https://agagd.usgo.org/player/{}/"),
)


@dataclass(frozen=True, slots=True)
class NationalLink:
    body: str
    ident: str
    url: str


def national_links(player: Player) -> list[NationalLink]:
    """One link a known id, in PAGES' order; none for an id not stored."""
    links = []
    for field, body, page in PAGES:
        ident = getattr(player, field).strip()
        if ident:
            links.append(NationalLink(body, ident, page.format(quote(ident, safe=""))))
    return links
