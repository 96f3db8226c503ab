"""Which entry of a national rank list is each player of a list (docs/committee.md).

A national list may hold a whole continent (the EGD's: 45,085 players of
every country).  :class:`EntrySelection` keeps the entries of one country and/or
of some clubs (the codes the list writes: EGD "Cape", FFG "94MJ");
:func:`match_players` then matches every player of the list:

1. by the national id stored on the player, looked up in the *whole* list (a
   member who moved abroad is still theirs);
2. else by name, among the selected entries only, through the site's one
   name matching (:func:`ratings.names.closest`, :func:`ratings.names.closeness`:
   accents, case, spacing, word order and common transliterations ignored,
   typos tolerated).  An entry whose name is the player's as that matching
   sees it (closeness 1) is a *name* match.

A match is never guessed: it is *ambiguous*, with its reason, when several
entries carry the name, when the player already has another national id
stored, when two players of the list point at the one entry, or when no
entry has the name but some are close ("Riaan Wnag" and "WANG Riaan": a
typo, or another person; the closest are offered).  An entry whose id is
stored on another player is that player's.

Speed: a national list holds up to ~50,000 names; each player's name is
scored only against the entries that share the first two letters of one
of its words (a typo there is not looked for: such names are rarely
taken for one another anyway).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ratings import exchange
from ratings.committee.common import CommitteeError
from ratings.models import Player
from ratings.names import closeness, closest_words


def _codes(text: str) -> tuple[str, ...]:
    return tuple(
        dict.fromkeys(code.strip().casefold() for code in text.replace(";", ",").split(",") if code.strip())
    )


@dataclass(frozen=True)
class EntrySelection:
    """The entries a sync matches names against: a country code ("ZA") and/or
    club codes ("Cape, Joh"), compared without case.  Empty: every entry."""

    country: str = ""
    clubs: str = ""

    @property
    def club_codes(self) -> tuple[str, ...]:
        return _codes(self.clubs)

    def __bool__(self) -> bool:
        return bool(self.country.strip() or self.club_codes)

    def keeps(self, entry: exchange.RankEntry) -> bool:
        country = self.country.strip().casefold()
        if country and (entry.country or "").casefold() != country:
            return False
        codes = self.club_codes
        return not codes or (entry.club or "").casefold() in codes

    def select(self, entries: Sequence[exchange.RankEntry]) -> list[exchange.RankEntry]:
        """The entries kept; refused (naming the filter) when the list cannot
        be filtered so, or keeps none of its entries."""
        if not self:
            return list(entries)
        if self.country.strip() and not any(e.country for e in entries):
            raise CommitteeError("country: this list gives no country for its players; leave it blank")
        if self.club_codes and not any(e.club for e in entries):
            raise CommitteeError("clubs: this list gives no club for its players; leave it blank")
        kept = [e for e in entries if self.keeps(e)]
        if not kept:
            raise CommitteeError(f"no player of the list is of {self.describe()}")
        return kept

    def describe(self) -> str:
        """'country ZA, clubs Cape or Joh'."""
        parts = []
        if self.country.strip():
            parts.append(f"country {self.country.strip().upper()}")
        if self.club_codes:
            parts.append(
                f"club{'s' if len(self.club_codes) > 1 else ''} {' or '.join(self.clubs_as_written)}"
            )
        return ", ".join(parts)

    @property
    def clubs_as_written(self) -> list[str]:
        return list(dict.fromkeys(c.strip() for c in self.clubs.replace(";", ",").split(",") if c.strip()))


@dataclass(frozen=True)
class Match:
    """How one player matched: ``how`` is "id", "name", "ambiguous" (the
    candidate ``entries`` and the ``reason``) or "missing"."""

    player: Player
    how: str
    entries: list[exchange.RankEntry]
    reason: str = ""


class _NameBlocks:
    """The selected entries by the first two letters of each word of their
    names, to score a player's name against the few that may be theirs."""

    def __init__(self, entries: Sequence[exchange.RankEntry]) -> None:
        self.entries = entries
        self.words = [exchange.search_words(entry.name) for entry in entries]
        self.blocks: dict[str, set[int]] = defaultdict(set)
        # Names whose words are the same, in any order, are as close as names
        # get (closeness 1): found at once, without scoring the others.
        self.exact: dict[tuple[str, ...], list[int]] = defaultdict(list)
        for index, words in enumerate(self.words):
            self.exact[tuple(sorted(words))].append(index)
            for word in words:
                self.blocks[word[:2]].add(index)

    def closest(self, name: str) -> list[exchange.RankEntry]:
        """The entries closest to ``name`` (ratings.names.closest_words), in list order."""
        typed = exchange.search_words(name)
        same = self.exact.get(tuple(sorted(typed)))
        if same:
            return [self.entries[i] for i in same]
        near = sorted(set().union(*(self.blocks.get(w[:2], set()) for w in typed)))
        return [self.entries[i] for i in closest_words(((i, self.words[i]) for i in near), typed)]


def _entry_label(entry: exchange.RankEntry) -> str:
    return f"{entry.name} (line {entry.line})"


def match_players(
    players: Sequence[Player],
    entries: Sequence[exchange.RankEntry],
    id_field: str,
    selection: EntrySelection | None = None,
) -> list[Match]:
    """A :class:`Match` for each player, in the order given (see the module's docstring)."""
    by_id = {e.national_id: e for e in entries if e.national_id}
    taken = {getattr(p, id_field) for p in players if getattr(p, id_field)}
    # An entry whose id is another player's is theirs: never a candidate.
    selected = [
        e
        for e in (selection or EntrySelection()).select(entries)
        if not e.national_id or e.national_id not in taken
    ]
    names = _NameBlocks(selected)
    found_for: dict[int, Match] = {}
    for player in players:
        stored = getattr(player, id_field)
        if stored and stored in by_id:
            found_for[player.pk] = Match(player, "id", [by_id[stored]])
            continue
        found = names.closest(player.name)
        if found and closeness(player.name, found[0].name) < 1:
            shown = "; ".join(_entry_label(e) for e in found)
            found_for[player.pk] = Match(
                player, "ambiguous", found, f"no entry has this name exactly; the closest: {shown}"
            )
        elif not found:
            found_for[player.pk] = Match(player, "missing", [])
        elif len(found) > 1:
            found_for[player.pk] = Match(
                player, "ambiguous", found, f"{len(found)} entries of the list carry this name"
            )
        elif stored and found[0].national_id and found[0].national_id != stored:
            found_for[player.pk] = Match(
                player,
                "ambiguous",
                found,
                f"the entry's id {found[0].national_id} is not the id {stored} stored on the player "
                "(the same name, maybe another person)",
            )
        else:
            found_for[player.pk] = Match(player, "name", found)
    claimants: dict[int, list[Player]] = {}
    for match in found_for.values():
        if match.how == "name":
            claimants.setdefault(match.entries[0].line, []).append(match.player)
    matches = []
    for player in players:
        match = found_for[player.pk]
        if match.how == "name" and len(claimants[match.entries[0].line]) > 1:
            others = ", ".join(p.display_name for p in claimants[match.entries[0].line] if p.pk != player.pk)
            match = Match(
                player,
                "ambiguous",
                match.entries,
                f"{others} also has this name: {_entry_label(match.entries[0])} may be either",
            )
        matches.append(match)
    return matches
