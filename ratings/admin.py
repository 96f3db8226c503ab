"""Django admin for everything, with search, filters and the joins each list
needs (the committee's back door; day-to-day work uses the site's pages)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from ratings.engine.ranks import format_rank
from ratings.forms.sheets import SYSTEM_CHOICES
from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    LogEntry,
    Player,
    RankAdjustment,
    RatingList,
    RecomputeRun,
    RecordSheet,
)


class RatingListAdminForm(forms.ModelForm[RatingList]):
    """The compared systems as ticks, not a JSON list typed by hand."""

    compared_systems = forms.MultipleChoiceField(
        choices=SYSTEM_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Also computed on the same games.",
    )

    class Meta:
        model = RatingList
        fields = ["name", "slug", "country", "primary_system", "compared_systems"]
        help_texts = {
            "primary_system": "To change the systems, prefer the site's list settings page: "
            "it recomputes the list's history, saving here does not.",
        }


class ClubInline(admin.TabularInline[Club, RatingList]):
    model = Club
    extra = 0
    fields = ["name", "slug", "egd_code"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(RatingList)
class RatingListAdmin(admin.ModelAdmin[RatingList]):
    form = RatingListAdminForm
    list_display = ["name", "slug", "primary_system", "compared_systems", "dirty_from"]
    list_filter = ["primary_system"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["dirty_from", "dirty_generation", "clean_generation"]
    inlines = [ClubInline]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin[Club]):
    list_display = ["name", "slug", "egd_code", "rating_list"]
    list_filter = ["rating_list"]
    list_select_related = ["rating_list"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


class RankListFilter(admin.SimpleListFilter):
    """Kyu and dan bands, as a club thinks of its players."""

    title = "rank"
    parameter_name = "band"
    BANDS = {  # strongest first
        "dan": ("dan", 0, 8),
        "sdk": ("10k-1k", -10, -1),
        "ddk": ("20k-11k", -20, -11),
        "beginner": ("30k-21k", -30, -21),
    }

    def lookups(self, request: HttpRequest, model_admin: admin.ModelAdmin[Any]) -> list[tuple[str, str]]:
        return [(key, label) for key, (label, _, _) in self.BANDS.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Player]) -> QuerySet[Player]:
        band = self.value()
        if band is None or band not in self.BANDS:
            return queryset
        _, low, high = self.BANDS[band]
        return queryset.filter(rank__gte=low, rank__lt=high + 1)


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = [
        "name",
        "suffix",
        "rating_list",
        "home_club",
        "rank_label",
        "rating",
        "games_count",
        "user",
    ]
    list_filter = ["rating_list", "home_club", RankListFilter, "since"]
    list_select_related = ["rating_list", "home_club", "user"]
    search_fields = ["name", "slug", "saga_id", "egd_pin", "ffg_licence", "aga_id", "user__username"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["user"]
    readonly_fields = ["rank", "rating", "games_count", "last_updated", "created_at"]
    fieldsets = [
        (
            None,
            {"fields": ["rating_list", "name", "suffix", "slug", "home_club", "user", "start_rank", "since"]},
        ),
        ("National ids", {"fields": ["country", "saga_id", "egd_pin", "ffg_licence", "aga_id"]}),
        ("Computed (by the recompute)", {"fields": tuple(readonly_fields)}),
    ]

    @admin.display(description="rank", ordering="rank")
    def rank_label(self, obj: Player) -> str:
        return obj.rank_label


class GameInline(admin.TabularInline[Game, RecordSheet]):
    model = Game
    extra = 0
    raw_id_fields = ["white", "black", "entered_by"]
    fields = ["date", "white", "black", "handicap", "komi", "winner", "kind", "board", "forfeit", "comments"]


@admin.register(RecordSheet)
class RecordSheetAdmin(admin.ModelAdmin[RecordSheet]):
    list_display = ["date", "club", "event", "kind", "entered_by", "entered_at"]
    list_filter = ["club", "kind", "entered_by"]
    list_select_related = ["club", "entered_by"]
    search_fields = ["event", "comments", "games__white__name", "games__black__name"]
    date_hierarchy = "date"
    raw_id_fields = ["entered_by"]
    inlines = [GameInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ["date", "club", "white", "black", "handicap", "komi", "winner", "kind", "entered_at"]
    list_filter = ["club", "kind", "winner", "board", "forfeit", "handicap"]
    list_select_related = ["club", "white", "black"]
    search_fields = ["white__name", "black__name", "sheet__event", "comments"]
    date_hierarchy = "date"
    raw_id_fields = ["white", "black", "sheet", "entered_by"]


@admin.register(RankAdjustment)
class RankAdjustmentAdmin(admin.ModelAdmin[RankAdjustment]):
    list_display = ["date", "rating_list", "player", "new_rank", "rating", "reason", "entered_by"]
    list_filter = ["rating_list"]
    list_select_related = ["rating_list", "player", "entered_by"]
    search_fields = ["player__name", "reason"]
    date_hierarchy = "date"
    raw_id_fields = ["player", "entered_by"]

    @admin.display(description="rank", ordering="rank")
    def new_rank(self, obj: RankAdjustment) -> str:
        return format_rank(obj.rank)


@admin.register(HistoryEntry)
class HistoryEntryAdmin(admin.ModelAdmin[HistoryEntry]):
    """Written by the recompute only: read-only here."""

    list_display = [
        "date",
        "system",
        "player",
        "opponent",
        "change",
        "rank_after_label",
        "rating_after",
        "seq",
    ]
    list_filter = ["system", "rating_list"]
    list_select_related = ["player", "opponent"]
    search_fields = ["player__name", "opponent__name"]
    date_hierarchy = "date"
    raw_id_fields = ["player", "opponent", "game", "adjustment"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin[LogEntry]):
    """The log-file is a record: it can be read and searched, not rewritten."""

    list_display = ["at", "rating_list", "club", "actor", "action", "event_date", "summary"]
    list_filter = ["rating_list", "club", "action", "actor"]
    list_select_related = ["rating_list", "club", "actor"]
    search_fields = ["summary", "players__name", "actor__username"]
    date_hierarchy = "at"
    raw_id_fields = ["game", "adjustment", "sheet", "players"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(RecomputeRun)
class RecomputeRunAdmin(admin.ModelAdmin[RecomputeRun]):
    list_display = [
        "started_at",
        "rating_list",
        "status",
        "full",
        "from_date",
        "games_replayed",
        "rows_written",
        "duration",
    ]
    list_filter = ["rating_list", "status", "full", "trigger"]
    list_select_related = ["rating_list"]
    search_fields = ["error", "rating_list__name"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
