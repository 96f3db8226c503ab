"""Which entry of a national rank list is each player of a list (docs/committee.md).

A national list may hold a whole continent (the EGD's: 45,085 players of
every country).  :class:`EntrySelection` keeps the entries of one country and/or
of some clubs (the codes the list writes: EGD "Cape", FFG "94MJ");
:func:`match_players` then matches every player of the list:

1. by the national id stored on the player, looked up in the *whole* list (a
   member who moved abroad is still theirs);
2. else by name, among the selected entries only, compared as
   :class:`ratings.exchange.NameIndex` compares names (accents, case,
   spacing, word order).

A match is never guessed: it is *ambiguous*, with its reason, when several
entries carry the name, when the player already has another national id
stored, or when two players of the list point at the one entry.  An entry
whose id is stored on another player is that player's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ratings import exchange
from ratings.committee.common import CommitteeError
from ratings.models import Player


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
    selected = (selection or EntrySelection()).select(entries)
    names = exchange.NameIndex((i, e.name) for i, e in enumerate(selected))
    taken = {getattr(p, id_field) for p in players if getattr(p, id_field)}
    found_for: dict[int, Match] = {}
    for player in players:
        stored = getattr(player, id_field)
        if stored and stored in by_id:
            found_for[player.pk] = Match(player, "id", [by_id[stored]])
            continue
        found = [selected[i] for i in names.lookup(player.name)]
        found = [e for e in found if not e.national_id or e.national_id not in taken]
        if not found:
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
