from django.contrib import admin

from ratings.models import Club, Game, HistoryEntry, LogEntry, Player, RankAdjustment, RecordSheet


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "primary_system", "dirty_from"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "rank", "rating", "games_count", "last_updated"]
    list_filter = ["club"]
    search_fields = ["name", "slug", "saga_id", "egd_pin", "ffg_licence", "aga_id"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["user"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    raw_id_fields = ["white", "black", "entered_by"]


@admin.register(RecordSheet)
class RecordSheetAdmin(admin.ModelAdmin):
    list_display = ["date", "club", "event", "kind", "entered_by", "entered_at"]
    list_filter = ["club", "kind"]
    search_fields = ["event"]
    date_hierarchy = "date"
    inlines = [GameInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["date", "club", "white", "black", "handicap", "komi", "winner", "kind"]
    list_filter = ["club", "kind", "winner", "board"]
    search_fields = ["white__name", "black__name", "sheet__event"]
    date_hierarchy = "date"
    raw_id_fields = ["white", "black", "sheet", "entered_by"]


@admin.register(RankAdjustment)
class RankAdjustmentAdmin(admin.ModelAdmin):
    list_display = ["date", "club", "player", "rank", "rating", "reason"]
    list_filter = ["club"]
    search_fields = ["player__name", "reason"]
    raw_id_fields = ["player", "entered_by"]


@admin.register(HistoryEntry)
class HistoryEntryAdmin(admin.ModelAdmin):
    list_display = ["date", "system", "player", "opponent", "change", "rank_after", "rating_after"]
    list_filter = ["system", "club"]
    search_fields = ["player__name"]
    raw_id_fields = ["player", "opponent", "game", "adjustment"]


@admin.register(LogEntry)
class LogEntryAdmin(admin.ModelAdmin):
    list_display = ["at", "club", "actor", "action", "summary"]
    list_filter = ["club", "action"]
    search_fields = ["summary"]
    raw_id_fields = ["game", "adjustment", "sheet", "players"]
