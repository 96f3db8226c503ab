"""E-mails about late changes: a player's user turns them on or off on the
record sheet; anyone holding an e-mail's link unsubscribes in one click."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from accounts.requests import AuthenticatedHttpRequest
from ratings import access
from ratings.notices import mail


@login_required
@require_POST
def player_notices(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    player = access.player_of_user(request.user, slug)
    if request.POST.get("notices") == "on":
        mail.subscribe(player)
        messages.success(request, "You will get an e-mail when a late game changes your rating.")
    else:
        mail.unsubscribe(player.pk)
        messages.success(request, "You will get no more e-mails about late changes.")
    return redirect(player)


# An e-mail program's one-click unsubscribe (RFC 8058) posts without a CSRF
# token; the signed token in the address is what allows it.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    player = access.player_of_notice_token(token)
    if request.method == "POST":
        mail.unsubscribe(player.pk)
        return render(request, "ratings/notice_unsubscribe.html", {"player": player, "done": True})
    return render(request, "ratings/notice_unsubscribe.html", {"player": player, "done": False})
