"""Users in the admin with their role and linked player at a glance.

Roles are the groups "volunteer" and "committee" (accounts/roles.py); a
player is linked from the Player's page (its ``user`` field)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.models import User
from django.db.models import QuerySet
from django.http import HttpRequest

from accounts.roles import role_of


class UserAdmin(BaseUserAdmin):
    list_display = ["username", "email", "role", "linked_player", "is_active", "last_login"]
    list_filter = ["groups", "is_active", "is_staff", "is_superuser"]
    search_fields = ["username", "email", "first_name", "last_name", "player__name"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        return super().get_queryset(request).select_related("player").prefetch_related("groups")

    @admin.display(description="role")
    def role(self, obj: User) -> str:
        obj._role_groups = {g.name for g in obj.groups.all()}  # type: ignore[attr-defined]
        return role_of(obj)

    @admin.display(description="player", ordering="player__name")
    def linked_player(self, obj: User) -> str:
        player = getattr(obj, "player", None)
        return player.name if player is not None else "—"


admin.site.unregister(User)
admin.site.register(User, UserAdmin)
