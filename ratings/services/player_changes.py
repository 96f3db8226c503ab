"""Renaming a player, merging two records of one person, and marking two
players as different people.

- Rename: the name (and suffix) change, the record sheet gets the address of
  the new name and the old address redirects (:class:`FormerSlug`); the log
  keeps the old name.  Ratings are untouched (no recompute).
- Merge: the games and rank adjustments of the *duplicate* move to the
  *kept* player, the duplicate's record is removed (its address redirects to
  the kept player's), and the list is marked stale once, from the earliest
  moved game or adjustment: the recompute replays from there, so the stored
  history equals a full replay.  The kept player's "since" becomes the
  earlier of the two.  Decision: the kept player's starting rank stays.
  Nothing of the duplicate is lost: its lines of earlier rank syncs, its
  users' link requests, its late-game ripple notes and its account (when
  the kept player has none) move too.  Two records that each have an
  account are refused: one person has one account, so the committee
  unlinks one first.
- Un-merge: the log entry of a merge keeps the duplicate's record and the
  ids of what moved; un-merging puts the duplicate back (same id, name and
  address) with exactly those games, adjustments, rank-sync lines and link
  requests (and its account, unless it was linked elsewhere since), and
  marks the list stale from the same date.  Games entered for the kept
  player after the merge stay with them.  A merge can be undone once.
- Different people: the committee's answer to the duplicate finder
  (ratings/names/duplicates.py) for a pair that is two real people; kept
  (:class:`DifferentPeople`) and logged, ratings untouched.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.text import slugify

from ratings import services
from ratings.exchange.names import identity_key
from ratings.models import (
    DifferentPeople,
    EventEntry,
    FormerSlug,
    Game,
    LogEntry,
    Player,
    RankAdjustment,
    RankSyncLine,
    ResultChange,
)
from ratings.services import Actor

MERGED = "merged"
UNMERGED = "unmerged"

#: The duplicate's fields kept by the merge's log entry to put it back.
PLAYER_FIELDS = (
    "name", "suffix", "slug", "home_club_id", "user_id", "saga_id", "egd_pin", "ffg_licence", "aga_id", "country",
    "start_rank", "since", "rank", "rating", "games_count", "last_updated", "created_at",
)  # fmt: skip


class PlayerChangeError(ValueError):
    """A rename or merge that cannot be done, with a message a person can act on."""


def _free_slug(name: str, player: Player) -> str:
    """The address for ``player`` under ``name``: the plain slug, else one of
    the player's own former addresses for that name (renamed back: the old
    address is theirs again), else the slug numbered with the player's id."""
    base = slugify(name)[:100] or "player"
    own = set(player.former_slugs.values_list("slug", flat=True))
    candidates = [base, *sorted(s for s in own if s.startswith(f"{base}-")), f"{base}-{player.pk}"]
    for candidate in candidates:
        if candidate == player.slug:
            return candidate
        other_player = Player.objects.exclude(pk=player.pk).filter(slug=candidate).exists()
        other_former = FormerSlug.objects.exclude(player=player).filter(slug=candidate).exists()
        if not (other_player or other_former):
            return candidate
    return candidates[-1]


def rename_player(player: Player, *, name: str, suffix: str = "", actor: Actor = None) -> Player:
    name, suffix = " ".join(name.split()), " ".join(suffix.split())
    if not name:
        raise PlayerChangeError("give the new name")
    with transaction.atomic():
        current = Player.objects.select_for_update().get(pk=player.pk)
        old_name, old_slug = current.display_name, current.slug
        new_display = f"{name} ({suffix})" if suffix else name
        if new_display == old_name:
            return current
        clash = Player.objects.filter(rating_list=current.rating_list_id, name_key=identity_key(new_display))
        if clash.exclude(pk=current.pk).exists():
            raise PlayerChangeError(
                f"{new_display} is already a player of this list: merge the two instead, or add a suffix"
            )
        current.name, current.suffix = name, suffix
        new_slug = _free_slug(new_display, current)
        if new_slug != old_slug:
            FormerSlug.objects.filter(slug=new_slug).delete()  # the player's own earlier address
            FormerSlug.objects.create(player=current, slug=old_slug)
            current.slug = new_slug
        current.save(update_fields=["name", "suffix", "slug"])
        services.log_change(
            rating_list=current.rating_list_id,
            club=None,
            actor=actor,
            action=LogEntry.Action.EDIT,
            event_date=timezone.localdate(),
            summary=f"Renamed {old_name} to {current.display_name}",
            players=[current],
            changes={"name": [old_name, current.display_name]},
        )
    return current


def merge_players(duplicate: Player, kept: Player, *, actor: Actor = None) -> LogEntry:
    """Move everything of ``duplicate`` to ``kept`` and remove ``duplicate``."""
    if duplicate.pk == kept.pk:
        raise PlayerChangeError("choose two different players")
    if duplicate.rating_list_id != kept.rating_list_id:
        raise PlayerChangeError("players of two different lists cannot be merged")
    with transaction.atomic():
        dup = Player.objects.select_for_update().get(pk=duplicate.pk)
        keep = Player.objects.select_for_update().get(pk=kept.pk)
        as_white = list(Game.objects.filter(white=dup).values_list("pk", flat=True))
        as_black = list(Game.objects.filter(black=dup).values_list("pk", flat=True))
        if (
            Game.objects.filter(white=dup, black=keep).exists()
            or Game.objects.filter(white=keep, black=dup).exists()
        ):
            raise PlayerChangeError(f"{dup} and {keep} played each other: they are two people, not one")
        if dup.user_id is not None and keep.user_id is not None:
            raise PlayerChangeError(
                f"{dup} and {keep} each have an account ({dup.user}, {keep.user}): "
                "one person has one account, so unlink one of them first"
            )
        adjustments = list(RankAdjustment.objects.filter(player=dup).values_list("pk", flat=True))
        dates = [
            *Game.objects.filter(pk__in=as_white + as_black).values_list("date", flat=True),
            *RankAdjustment.objects.filter(pk__in=adjustments).values_list("date", flat=True),
        ]
        record = {name: services.loggable(getattr(dup, name)) for name in PLAYER_FIELDS}
        log_entries = list(
            LogEntry.players.through.objects.filter(player=dup).values_list("logentry_id", flat=True)
        )
        former = list(dup.former_slugs.values_list("slug", flat=True))
        sync_lines = list(RankSyncLine.objects.filter(player=dup).values_list("pk", flat=True))
        link_requests = list(dup.link_requests.values_list("pk", flat=True))
        event_entries = list(EventEntry.objects.filter(player=dup).values_list("pk", flat=True))
        changes: dict[str, Any] = {
            MERGED: {
                "duplicate": dup.pk,
                "kept": keep.pk,
                "record": record,
                "white": as_white,
                "black": as_black,
                "adjustments": adjustments,
                "log_entries": log_entries,
                "former_slugs": former,
                "sync_lines": sync_lines,
                "link_requests": link_requests,
                "event_entries": event_entries,
                "kept_since": keep.since.isoformat(),
            }
        }
        Game.objects.filter(pk__in=as_white).update(white=keep)
        Game.objects.filter(pk__in=as_black).update(black=keep)
        RankAdjustment.objects.filter(pk__in=adjustments).update(player=keep)
        RankSyncLine.objects.filter(pk__in=sync_lines).update(player=keep)
        dup.link_requests.update(player=keep)
        ResultChange.objects.filter(player=dup).update(player=keep)
        EventEntry.objects.filter(pk__in=event_entries).update(player=keep)
        if dup.since < keep.since:
            keep.since = dup.since
            keep.save(update_fields=["since"])
        summary = (
            f"Merged {dup.display_name} into {keep.display_name} ({len(dates)} games and adjustments moved)"
        )
        entry = services.log_change(
            rating_list=keep.rating_list_id,
            club=None,
            actor=actor,
            action=LogEntry.Action.EDIT,
            event_date=min(dates, default=timezone.localdate()),
            summary=summary,
            players=[keep],
            changes=changes,
        )
        dup.former_slugs.all().delete()
        dup.delete()
        if record["user_id"] is not None:  # the kept player has none (checked above)
            Player.objects.filter(pk=keep.pk).update(user_id=record["user_id"])
        FormerSlug.objects.bulk_create(FormerSlug(player=keep, slug=s) for s in [record["slug"], *former])
        services.refresh_last_updated([keep])
        if dates:
            services.mark_dirty(keep.rating_list_id, min(dates))
    return entry


def unmerge(entry: LogEntry, *, actor: Actor = None) -> Player:
    """Undo the merge ``entry`` records; returns the duplicate, back."""
    with transaction.atomic():
        current = LogEntry.objects.select_for_update().get(pk=entry.pk)
        data = current.changes.get(MERGED)
        if data is None:
            raise PlayerChangeError("this log entry is not a merge")
        if UNMERGED in current.changes:
            raise PlayerChangeError("this merge was undone already")
        keep = Player.objects.select_for_update().get(pk=data["kept"])
        record = dict(data["record"])
        for name in ("since", "last_updated"):
            if record[name] is not None:
                record[name] = date.fromisoformat(record[name])
        if Player.objects.filter(slug=record["slug"]).exists():
            raise PlayerChangeError(f"the address {record['slug']} is taken by another player now")
        FormerSlug.objects.filter(slug__in=[record["slug"], *data["former_slugs"]], player=keep).delete()
        account = record["user_id"]
        if account is not None:
            if keep.user_id == account:  # moved to the kept player by the merge: back to the duplicate
                keep.user = None
                keep.save(update_fields=["user"])
            elif Player.objects.filter(user_id=account, rating_list_id=keep.rating_list_id).exists():
                # linked to another player of the list since
                record["user_id"] = None
        dup = Player(pk=data["duplicate"], rating_list_id=keep.rating_list_id, **record)
        dup.save(force_insert=True)
        FormerSlug.objects.bulk_create(FormerSlug(player=dup, slug=s) for s in data["former_slugs"])
        Game.objects.filter(pk__in=data["white"]).update(white=dup)
        Game.objects.filter(pk__in=data["black"]).update(black=dup)
        RankAdjustment.objects.filter(pk__in=data["adjustments"]).update(player=dup)
        # Merges logged before these moved had no such lists (their lines were deleted).
        RankSyncLine.objects.filter(pk__in=data.get("sync_lines", [])).update(player=dup)
        keep.link_requests.filter(pk__in=data.get("link_requests", [])).update(player=dup)
        EventEntry.objects.filter(pk__in=data.get("event_entries", [])).update(player=dup)
        ResultChange.objects.filter(player=keep).filter(
            Q(game__in=data["white"] + data["black"]) | Q(adjustment__in=data["adjustments"])
        ).update(player=dup)
        LogEntry.players.through.objects.bulk_create(
            LogEntry.players.through(logentry_id=pk, player_id=dup.pk)
            for pk in LogEntry.objects.filter(pk__in=data["log_entries"]).values_list("pk", flat=True)
        )
        keep.since = date.fromisoformat(data["kept_since"])
        keep.save(update_fields=["since"])
        current.changes = {**current.changes, UNMERGED: True}
        current.save(update_fields=["changes"])
        services.log_change(
            rating_list=keep.rating_list_id,
            club=None,
            actor=actor,
            action=LogEntry.Action.EDIT,
            event_date=current.event_date,
            summary=f"Undid the merge of {dup.display_name} into {keep.display_name}",
            players=[keep, dup],
        )
        services.refresh_last_updated([keep, dup])
        services.mark_dirty(keep.rating_list_id, current.event_date)
    return dup


#: The key of a "different people" log entry's ``changes``: the two players' names
#: (the entry's players are the two records).
DIFFERENT_PEOPLE = "different_people"


def mark_different_people(first: Player, second: Player, *, actor: Actor = None) -> DifferentPeople:
    """Record that two players of a list are two real people (the duplicate
    finder then hides the pair); logged.  Marking a pair twice keeps the
    first mark."""
    if first.rating_list_id != second.rating_list_id:
        raise PlayerChangeError(f"{first} and {second} are not players of one list")
    if first.pk == second.pk:
        raise PlayerChangeError(f"{first} is one player")
    low, high = sorted([first, second], key=lambda p: p.pk)
    with transaction.atomic():
        mark, created = DifferentPeople.objects.get_or_create(
            first=low,
            second=high,
            defaults={"rating_list_id": low.rating_list_id, "marked_by": services.acting_user(actor)},
        )
        if created:
            services.log_change(
                rating_list=low.rating_list_id,
                club=None,
                actor=actor,
                action=LogEntry.Action.EDIT,
                event_date=timezone.localdate(),
                summary=f"Marked {low} and {high} as different people (not one person's two records)",
                players=[low, high],
                changes={DIFFERENT_PEOPLE: [low.display_name, high.display_name]},
            )
    return mark
