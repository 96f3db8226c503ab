"""Rank synchronisation with a national rank list (docs/committee.md).

:func:`preview_rank_sync` reads a national rank list (ratings.exchange), matches
every player of the list to it (ratings.committee.rank_matching: national id
first, then name among the entries of a country or clubs) and stores the
proposal as a :class:`RankSync` with one :class:`RankSyncLine` per player; an
ambiguous match (with its reason) or a missing one is shown, never guessed.  :func:`apply_rank_sync` turns the lines the committee chose into dated
rank adjustments and remembers confirmed matches, all or nothing."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.utils import timezone

from ratings import exchange
from ratings.committee.common import (
    ID_FIELD,
    CommitteeError,
    grade,
    national_id_field,
    national_id_max_length,
)
from ratings.committee.rank_matching import EntrySelection, match_players
from ratings.models import Player, RankSync, RankSyncLine, RatingList
from ratings.services import SheetError, acting_user, add_adjustment

#: Matches the committee may apply as they stand; an ambiguous line needs a
#: candidate chosen first (it then becomes "confirmed").
APPLICABLE = ("id", "name", "confirmed")


def proposes_change(line: RankSyncLine) -> bool:
    """Does the national rank differ from the club rank's grade?

    Decision: national lists give whole grades; a club whose system keeps
    fractional ranks (West Surrey's 1.3d, the West Surrey ladder page) is *in line* with a
    national 1d.  Setting it back to 1.0 would only wipe the club's own
    progress within the grade, so only a different grade is a change.
    """
    return (
        line.match in APPLICABLE
        and line.national_rank is not None
        and (grade(line.list_rank) != grade(line.national_rank))
    )


def list_label(sync: RankSync) -> str:
    """'FFG ladder', 'AGA TD list', 'EGD rating list', 'CSV rank list'."""
    label = str(sync.get_format_display())
    return label if label.endswith(("list", "ladder")) else f"{label} rank list"


def selection_of(sync: RankSync) -> EntrySelection:
    """The country and clubs a sync matched names among."""
    return EntrySelection(sync.country, sync.clubs)


def _entry_json(entry: exchange.RankEntry) -> dict[str, Any]:
    return {
        "line": entry.line,
        "name": entry.name,
        "national_id": entry.national_id or "",
        "rank": entry.rank,
        "rating": entry.rating,
    }


def _rejected_json(rejected: exchange.Rejected) -> dict[str, Any]:
    return {
        "line": rejected.line,
        "reason": rejected.reason,
        "text": rejected.text,
        "column": rejected.column,
    }


def preview_rank_sync(
    rating_list: RatingList,
    data: bytes,
    *,
    filename: str = "",
    format: str | None = None,
    user: Any = None,
    selection: EntrySelection | None = None,
) -> RankSync:
    """Read a national list and store the proposal; nothing is applied yet.

    ``selection`` (a country, clubs) limits the entries names are matched
    against; a stored national id is looked up in the whole list.

    Raises :class:`exchange.ExchangeError` (naming the line) on a list broken
    as a whole; nothing is written then.  The lines of the list that do not
    read are not imported; they are stored on the sync (``rejected``: line,
    reason, text and column of each, shown in the preview) and also come back
    as ``rejected_lines`` (the tuple of :class:`exchange.Rejected`).
    """
    chosen = exchange.rank_format(format) if format else None
    ranks = exchange.read_rank_list(data, format=chosen, filename=filename or None)
    id_field = ID_FIELD[ranks.format]
    too_long = next(
        (e for e in ranks.entries if len(e.national_id or "") > national_id_max_length(id_field)), None
    )
    if too_long is not None:
        raise CommitteeError(
            f"line {too_long.line}: national id {too_long.national_id!r} is longer than the "
            f"{national_id_max_length(id_field)} characters of a {national_id_field(id_field).verbose_name}"
        )
    players = list(Player.objects.filter(rating_list=rating_list).order_by("name", "suffix"))
    selection = selection or EntrySelection()
    matches = match_players(players, ranks.entries, id_field, selection)
    with transaction.atomic():
        sync = RankSync.objects.create(
            rating_list=rating_list,
            created_by=acting_user(user),
            filename=filename[:200],
            format=ranks.format,
            encoding=ranks.encoding[:20],
            as_of=ranks.as_of,
            read=len(ranks.entries),
            rejected=[_rejected_json(r) for r in ranks.rejected],
            country=selection.country.strip().upper()[:8],
            clubs=", ".join(selection.clubs_as_written)[:200],
            selected=sum(1 for e in ranks.entries if selection.keeps(e)),
        )
        lines = []
        for match in matches:
            player, how, found = match.player, match.how, match.entries
            entry = found[0] if how in ("id", "name") else None
            lines.append(
                RankSyncLine(
                    sync=sync,
                    player=player,
                    match=how,
                    reason=match.reason[:300],
                    line=entry.line if entry else None,
                    national_name=entry.name[:200] if entry else "",
                    national_id=(entry.national_id or "") if entry else "",
                    national_rank=entry.rank if entry else None,
                    list_rank=player.rank,
                    list_rating=player.rating,
                    candidates=[_entry_json(e) for e in found] if how == "ambiguous" else [],
                )
            )
        RankSyncLine.objects.bulk_create(lines)
        sync.matched = sum(1 for line in lines if line.match in APPLICABLE)
        sync.ambiguous = sum(1 for line in lines if line.match == "ambiguous")
        sync.unmatched = sum(1 for line in lines if line.match == "missing")
        sync.changes = sum(1 for line in lines if proposes_change(line))
        sync.save(update_fields=["matched", "ambiguous", "unmatched", "changes"])
    sync.rejected_lines = ranks.rejected
    return sync


@dataclass(frozen=True)
class Choice:
    """The committee's decision on one sync line: apply it, and for an
    ambiguous line which candidate (by its list line number) is the player."""

    line_id: int
    candidate_line: int | None = None


def default_choices(sync: RankSync) -> list[Choice]:
    """What the preview ticks by default: id and name matches that change the
    rank, except a player's two lines (two records merged since the sync was
    read): the committee picks one of those itself."""
    lines = list(sync.lines.all())
    per_player = Counter(line.player_id for line in lines)
    return [
        Choice(line.pk)
        for line in lines
        if line.match in ("id", "name") and proposes_change(line) and per_player[line.player_id] == 1
    ]


def apply_rank_sync(
    sync: RankSync, choices: Iterable[Choice], *, effective: date, user: Any = None
) -> list[Any]:
    """Apply the chosen lines as adjustments dated ``effective``; all or nothing.

    Matches chosen here are remembered: the national id is stored on the
    player, so the next sync matches them by id.  A chosen line whose rank
    is already the club's grade (or an unrated entry) only remembers the id.
    Raises CommitteeError naming the player; nothing is written then.
    """
    id_field = ID_FIELD[sync.format]
    max_id = national_id_max_length(id_field)
    wanted: dict[int, Choice] = {}
    for choice in choices:
        wanted.setdefault(choice.line_id, choice)  # the same line twice is one choice
    adjustments = []
    with transaction.atomic():
        # Locked and re-read: two committee members pressing "apply" at once
        # must not both apply it.
        current = RankSync.objects.select_for_update().get(pk=sync.pk)
        if current.applied_at is not None:
            raise CommitteeError(
                f"this synchronisation was already applied on {timezone.localtime(current.applied_at):%Y-%m-%d %H:%M}"
            )
        lines = {line.id: line for line in current.lines.select_related("player")}
        claimed: dict[str, str] = {}
        players: set[int] = set()
        for choice in wanted.values():
            line = lines.get(choice.line_id)
            if line is None:
                raise CommitteeError(f"line {choice.line_id} is not part of this synchronisation")
            player = Player.objects.get(pk=line.player_id)
            if player.pk in players:  # two records of one person, merged since the sync was read
                raise CommitteeError(
                    f"{player.display_name} has two lines chosen in this synchronisation; choose one"
                )
            players.add(player.pk)
            if line.match == "ambiguous":
                picked = [c for c in line.candidates if c["line"] == choice.candidate_line]
                if not picked:
                    raise CommitteeError(
                        f"{player.display_name}: choose which of the {len(line.candidates)} entries is theirs"
                    )
                line.line = picked[0]["line"]
                line.national_name = picked[0]["name"][:200]
                line.national_id = picked[0]["national_id"]
                line.national_rank = picked[0]["rank"]
                line.match = "confirmed"
            if line.match not in APPLICABLE:
                raise CommitteeError(
                    f"{player.display_name} is not in the list: there is no national rank to apply"
                )
            if line.national_id:
                if len(line.national_id) > max_id:
                    raise CommitteeError(
                        f"{player.display_name}: national id {line.national_id!r} is longer than {max_id} characters"
                    )
                if line.national_id in claimed:
                    raise CommitteeError(
                        f"{player.display_name} and {claimed[line.national_id]} cannot both be entry "
                        f"{line.national_id} of the list; choose one"
                    )
                claimed[line.national_id] = player.display_name
                holder = (
                    Player.objects.filter(
                        rating_list_id=player.rating_list_id, **{id_field: line.national_id}
                    )
                    .exclude(pk=player.pk)
                    .first()
                )
                if holder is not None:
                    raise CommitteeError(
                        f"{player.display_name}: national id {line.national_id} is already {holder.display_name}'s"
                    )
                line.previous_id = getattr(player, id_field)
                if line.previous_id == line.national_id:
                    line.id_outcome = "kept"
                else:
                    line.id_outcome = "replaced" if line.previous_id else "stored"
                    setattr(player, id_field, line.national_id)
                    player.save(update_fields=[id_field])
            else:
                line.id_outcome = "none"
            if line.national_rank is not None and grade(player.rank) != grade(line.national_rank):
                try:
                    adjustment = add_adjustment(
                        player=player,
                        date=effective,
                        rank=line.national_rank,
                        reason=f"National rank ({list_label(current)}, sync #{current.pk})",
                        actor=user,
                    )
                except SheetError as error:
                    problems = "; ".join(m for fields in error.problems.values() for m in fields.values())
                    raise CommitteeError(f"{player.display_name}: {problems}") from error
                line.adjustment = adjustment
                adjustments.append(adjustment)
            line.applied = True
            line.save()
        current.applied_at = timezone.now()
        current.applied_by = acting_user(user)
        current.effective = effective
        current.applied = len(adjustments)
        current.save(update_fields=["applied_at", "applied_by", "effective", "applied"])
    sync.refresh_from_db()
    return adjustments
