"""Which players of a list a name typed at entry may mean, and which players
the entry autocomplete offers.

- *Did you mean*: a name the list does not know exactly (its identity key,
  :func:`ratings.exchange.names.identity_key`) is compared as a whole name
  with the list's players (:func:`ratings.names.search.find`, ``whole=True``),
  which ignores accents, case, spacing, punctuation and word order and
  tolerates typos and transliterations ("Francois dupont", "DUPONT François"
  and "François Dupont" are alike; so are "Li Wei" and "Wei Li", "Riaan Wnag"
  and "Riaan Wang", "Mueller" and "Müller").  The near misses are offered
  before a new player is made; the volunteer picks one or confirms that the
  name is a different person.
- *Inactive players* leave the entry autocomplete (nothing else: their
  history, record sheets, the players list and typing their exact name are
  untouched).  Rule, our decision: a player is inactive when they have
  played in the list, but neither played nor had a rank adjustment in the
  last :data:`INACTIVE_AFTER_DAYS` days (two years), and joined before that.
  A player who never played stays offered: they were added (by a rank list
  import, say) to be entered.  Two years: SAGC clubs meet weekly and a member
  back from a year abroad should still be offered; someone gone two years is
  rare enough to type in full.
"""

from __future__ import annotations

from datetime import date, timedelta

from django.db.models import QuerySet

from ratings.exchange.names import identity_key
from ratings.models import Club, Game, Player, RankAdjustment, RatingList
from ratings.names.search import find

INACTIVE_AFTER_DAYS = 730


def alike(
    rating_list: RatingList | int, name: str, limit: int = 3, club: Club | int | None = None
) -> list[Player]:
    """The list's players a new name ``name`` may mean (the near misses
    offered as "did you mean"), closest first; ``club``: where the sheet is
    entered (its members first among equals).  The player whose name is
    exactly ``name`` (the list's identity rule) is not a near miss."""
    players = Player.objects.filter(rating_list=rating_list).exclude(name_key=identity_key(name))
    return [m.player for m in find(players, name, whole=True, club=club, limit=limit)]


def describe(player: Player) -> str:
    """'François Dupont, 5k, Cape Town Go Club' (the home club when known)."""
    club = f", {player.home_club}" if player.home_club_id else ""
    return f"{player.display_name}, {player.rank_label}{club}"


def active_for_entry(club: Club, today: date | None = None) -> list[Player]:
    """The players of the club's list the entry autocomplete offers: all but
    the inactive ones (see the module's docstring)."""
    cutoff = (today or date.today()) - timedelta(days=INACTIVE_AFTER_DAYS)
    games = Game.objects.filter(rating_list=club.rating_list_id)
    recent = games.filter(date__gte=cutoff)
    have_played = _both(games)
    lately = _both(recent) | set(
        RankAdjustment.objects.filter(rating_list=club.rating_list_id, date__gte=cutoff).values_list(
            "player_id", flat=True
        )
    )
    players = Player.objects.filter(rating_list=club.rating_list_id).only("name", "suffix", "rank", "since")
    return [
        p
        for p in players.order_by("name", "suffix")
        if p.pk not in have_played or p.pk in lately or p.since >= cutoff
    ]


def _both(games: QuerySet[Game]) -> set[int]:
    """The ids of the players of ``games``, White or Black."""
    return set(games.values_list("white_id", flat=True).distinct()) | set(
        games.values_list("black_id", flat=True).distinct()
    )
