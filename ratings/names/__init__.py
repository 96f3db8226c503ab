"""Players' names as people type them: finding the player a volunteer,
a committee member or a searcher means.  One matching for the whole site:
it ignores accents, case, spacing, punctuation and word order, tolerates
typos (a similarity scored per name part, rapidfuzz's Jaro-Winkler) and
common transliterations ("ö"/"oe", "ü"/"ue", "ä"/"ae", "ß"/"ss", "é"/"e",
family name first or last).

- ``scoring``: how close two names are (pure Python, no database).
- ``search``: players found by a typed name in the database, ranked by
  closeness, then recent activity, then the club of the sheet (on
  PostgreSQL served by a trigram index).
- ``matching``: entry's near misses ("did you mean …") and the players the
  entry autocomplete offers.
- ``duplicates``: the committee's duplicate finder, likely pairs of records
  of one person in a list, with their evidence.

How others call it::

    from ratings.names import find, ranked, alike, closest, closeness

    find(Player.objects.filter(rating_list=lst), "zoe mul")     # typing: [Match(player, closeness)]
    find(players, "Riaan Wnag", whole=True, club=club)          # a name given in full
    ranked(Player.objects.all(), "andre")                       # a queryset, closest first (tables)
    alike(lst, "Riaan Wnag", club=club)                         # entry's "did you mean", import previews: [Player]
    describe(player)                                            # "Riaan Wang, 3k, Stellenbosch Go Club"
    closest([(line, name), ...], "WANG Riaan")                  # rank sync, imports: the best keys
    closest_words([(line, search_words(name)), ...], search_words("WANG Riaan"))  # the same, names reduced once
    closeness("Riaan Wnag", "Riaan Wang")                       # 0..1 (0: not taken for one another)
    close_pairs([(key, search_words(name)), ...])               # every close pair among names: (a, b, closeness)

May import: ratings.exchange, ratings.models.
"""

from ratings.names.matching import alike, describe
from ratings.names.scoring import close_pairs, closeness, closest, closest_words
from ratings.names.search import Match, find, ranked

__all__ = [
    "Match",
    "alike",
    "close_pairs",
    "closeness",
    "closest",
    "closest_words",
    "describe",
    "find",
    "ranked",
]
