"""Links to a player's pages at the national and European bodies whose ids
the site stores (docs/sources.md names the sites).

The FFG's player page (``affichePersonne.php?id=``) is addressed by the
FFG's own person number, a short integer, not by the seven-character
licence number the ladder and tournament files carry (``0116000``), which
is the id we store: a link built from the licence would open another
person's page or none, so the licence is shown without a link."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

from ratings.models import Player

#: Player field, the body's name and id, its player page with the id in it
#: ("": no page addressed by that id).
PAGES: tuple[tuple[str, str, str], ...] = (
    ("egd_pin", "EGD", "https://www.europeangodatabase.eu/EGD/Player_Card.php?&key={}"),
    ("ffg_licence", "FFG licence", ""),
    ("aga_id", "AGA", "https://agagd.usgo.org/player/{}/"),
)


@dataclass(frozen=True, slots=True)
class NationalLink:
    body: str
    ident: str
    #: The player's page there; "" when the id addresses none (shown as text).
    url: str


def national_links(player: Player) -> list[NationalLink]:
    """One a known id, in PAGES' order; none for an id not stored."""
    links = []
    for field, body, page in PAGES:
        ident = getattr(player, field).strip()
        if ident:
            links.append(NationalLink(body, ident, page.format(quote(ident, safe="")) if page else ""))
    return links
