"""One access helper per kind of object (as healthchecks'
``_get_check_for_user`` does): every view that changes something fetches its
object here, so a check cannot be forgotten in one view.

Each helper raises Http404 for an object that does not exist and
PermissionDenied (403) for one the user may not change; views are wrapped in
``login_required`` so anonymous visitors are sent to log in first.  The
querysets (:func:`lists_managed_by`, :func:`clubs_for_entry`) limit the
choices of forms to the places where the user holds a role.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from accounts.roles import is_committee_of, may_enter_at, places_of
from ratings.models import Club, Game, ImportPreview, LogEntry, Player, RankSync, RatingList, RecordSheet
from ratings.notices import mail


def lists_managed_by(user: Any) -> QuerySet[RatingList]:
    places = places_of(user)
    if places.admin:
        return RatingList.objects.all()
    return RatingList.objects.filter(pk__in=places.committee_lists)


def clubs_for_entry(user: Any) -> QuerySet[Club]:
    """The clubs where the user may enter record sheets."""
    places = places_of(user)
    clubs = Club.objects.select_related("rating_list").order_by("rating_list__name", "name")
    if places.admin:
        return clubs
    return clubs.filter(Q(pk__in=places.volunteer_clubs) | Q(rating_list_id__in=places.committee_lists))


def rating_list_for_committee(user: Any, slug: str) -> RatingList:
    rating_list = get_object_or_404(RatingList, slug=slug)
    if not is_committee_of(user, rating_list.pk):
        raise PermissionDenied(f"only the committee of {rating_list} may do this")
    return rating_list


def club_for_entry(user: Any, club: Club) -> Club:
    if not may_enter_at(user, club.pk, club.rating_list_id):
        raise PermissionDenied(f"you do not enter sheets at {club}")
    return club


def sheet_for_editing(user: Any, pk: int) -> RecordSheet:
    sheet = get_object_or_404(RecordSheet.objects.select_related("club"), pk=pk)
    club_for_entry(user, sheet.club)
    return sheet


def deleted_sheet_for_restoring(user: Any, pk: int) -> LogEntry:
    """The log entry of a deleted record sheet, for whoever may enter sheets at its club."""
    entry = get_object_or_404(
        LogEntry.objects.select_related("club"), pk=pk, club__isnull=False, changes__has_key="deleted_sheet"
    )
    assert entry.club is not None
    club_for_entry(user, entry.club)
    return entry


def game_for_editing(user: Any, pk: int) -> Game:
    """A game may be corrected or deleted by a volunteer of the club where its
    sheet was entered, or by the committee of its list."""
    game = get_object_or_404(Game.objects.select_related("club", "white", "black", "sheet"), pk=pk)
    club_for_entry(user, game.club)
    return game


def player_of_user(user: Any, slug: str) -> Player:
    """A player whose own settings (the e-mails about late changes) only
    the user linked to them may change."""
    player = get_object_or_404(Player.objects.select_related("rating_list"), slug=slug)
    if user.pk is None or player.user_id != user.pk:
        raise PermissionDenied(f"only {player}'s own account may change this")
    return player


def player_of_notice_token(token: str) -> Player:
    """The player an e-mail's unsubscribe link names (its signed token is
    the permission: no login); 404 for a token that is not ours."""
    pk = mail.player_of_token(token)
    if pk is None:
        raise Http404("this unsubscribe link is not valid")
    return get_object_or_404(Player, pk=pk)


def player_for_committee(user: Any, slug: str) -> Player:
    player = get_object_or_404(Player.objects.select_related("rating_list"), slug=slug)
    if not is_committee_of(user, player.rating_list_id):
        raise PermissionDenied(f"only the committee of {player.rating_list} may do this")
    return player


def pair_for_committee(user: Any, slug: str, first: object, second: object) -> tuple[Player, Player]:
    """Two players of the list ``slug`` (ids as posted), for its committee
    (to mark them as different people)."""
    rating_list = rating_list_for_committee(user, slug)
    ids = [str(raw) for raw in (first, second)]
    if not all(raw.isdigit() for raw in ids):
        raise Http404("no such players")
    players = Player.objects.filter(rating_list=rating_list).select_related("rating_list")
    return get_object_or_404(players, pk=ids[0]), get_object_or_404(players, pk=ids[1])


def merge_for_committee(user: Any, pk: int) -> LogEntry:
    """The log entry of a merge of two players, for the committee of their list (to undo it)."""
    entry = get_object_or_404(LogEntry, pk=pk, changes__has_key="merged")
    if not is_committee_of(user, entry.rating_list_id):
        raise PermissionDenied("only the committee of the list may undo a merge")
    return entry


def rank_sync_for_committee(user: Any, pk: int) -> RankSync:
    sync = get_object_or_404(
        RankSync.objects.select_related("rating_list", "created_by", "applied_by"), pk=pk
    )
    if not is_committee_of(user, sync.rating_list_id):
        raise PermissionDenied(f"only the committee of {sync.rating_list} may do this")
    return sync


def import_preview_for_committee(user: Any, pk: int) -> ImportPreview:
    """A previewed tournament upload: for the committee of its club's list."""
    preview = get_object_or_404(
        ImportPreview.objects.select_related("club__rating_list", "created_by"), pk=pk
    )
    if not is_committee_of(user, preview.club.rating_list_id):
        raise PermissionDenied(f"only the committee of {preview.club.rating_list} may do this")
    return preview


def refuse_choice_outside(allowed: QuerySet[Any], raw: object) -> None:
    """A form's choice (by id) of a place or player that exists but is not
    among the user's: 403, like every other helper here, rather than the
    form's "not a valid choice"."""
    text = str(raw or "")
    model = allowed.model
    if text.isdigit() and not allowed.filter(pk=text).exists() and model.objects.filter(pk=text).exists():
        raise PermissionDenied(f"that {model._meta.verbose_name} is not one of yours")
