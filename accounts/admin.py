"""Users in the admin with their roles and linked players at a glance."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.models import CommitteeMember, Invitation, LinkRequest, Volunteer
from accounts.roles import role_of


class VolunteerInline(admin.TabularInline[Volunteer, User]):
    model = Volunteer
    fk_name = "user"
    extra = 0
    fields = ["club", "granted_at"]
    readonly_fields = ["granted_at"]


class CommitteeInline(admin.TabularInline[CommitteeMember, User]):
    model = CommitteeMember
    fk_name = "user"
    extra = 0
    fields = ["rating_list", "granted_at"]
    readonly_fields = ["granted_at"]


class UserAdmin(BaseUserAdmin[User]):
    list_display = ["username", "email", "role", "linked_player", "is_active", "last_login"]
    list_filter = ["is_active", "is_staff", "is_superuser"]
    search_fields = ["username", "email", "first_name", "last_name", "players__name"]
    inlines = [VolunteerInline, CommitteeInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        return super().get_queryset(request).prefetch_related("players")

    @admin.display(description="role")
    def role(self, obj: User) -> str:
        return role_of(obj)

    @admin.display(description="player")
    def linked_player(self, obj: User) -> str:
        """The user's players, one per list at most."""
        return ", ".join(str(player) for player in obj.players.all()) or "—"


admin.site.unregister(User)
admin.site.register(User, UserAdmin)


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin[Invitation]):
    list_display = [
        "email",
        "role",
        "rating_list",
        "club",
        "invited_by",
        "created_at",
        "expires_at",
        "accepted_at",
    ]
    list_filter = ["role", "rating_list"]
    search_fields = ["email"]
    readonly_fields = ["token_hash", "accepted_at", "accepted_by"]


@admin.register(LinkRequest)
class LinkRequestAdmin(admin.ModelAdmin[LinkRequest]):
    list_display = ["user", "player", "status", "created_at", "decided_by", "decided_at"]
    list_filter = ["status"]
    search_fields = ["user__username", "player__name"]
    raw_id_fields = ["user", "player"]
