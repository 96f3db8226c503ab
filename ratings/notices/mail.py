"""The e-mail after a recompute: to each player who asked for it and whose
results a late game changed, one e-mail a recompute (``ChangeNotice.last_run``
is moved past the run before it is sent), listing the changes with the
reason and the link to each explanation, and a one-click unsubscribe
(RFC 8058's List-Unsubscribe-Post header, and a link)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.urls import reverse

from ratings.models import ChangeNotice, Player, RecomputeRun, ResultChange
from ratings.notices.changes import changed_items

log = logging.getLogger(__name__)

#: Changes an e-mail lists at most (the count says how many in all).
LISTED = 20
SALT = "ratings.notices.unsubscribe"


def unsubscribe_token(player: Player) -> str:
    """The one-click unsubscribe token of a player's notices: signed, no
    expiry (an old e-mail's link still works)."""
    return signing.Signer(salt=SALT).sign(str(player.pk))


def player_of_token(token: str) -> int | None:
    try:
        return int(signing.Signer(salt=SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        return None


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def subscribe(player: Player) -> ChangeNotice:
    """Turn the e-mails on from now: changes of runs already made are not sent."""
    latest = RecomputeRun.objects.filter(rating_list_id=player.rating_list_id).order_by("-pk").first()
    notice, _ = ChangeNotice.objects.update_or_create(
        player=player, defaults={"active": True, "last_run": latest.pk if latest else 0}
    )
    return notice


def unsubscribe(player_id: int) -> bool:
    return ChangeNotice.objects.filter(player_id=player_id, active=True).update(active=False) > 0


def tell(rating_list_id: int, run_id: int) -> int:
    """E-mail each subscribed player of the list whose results the runs up to
    ``run_id`` changed since their last e-mail; returns how many were sent."""
    sent = 0
    waiting = ChangeNotice.objects.filter(
        active=True, player__rating_list_id=rating_list_id, last_run__lt=run_id, player__user__isnull=False
    ).values_list("pk", flat=True)
    for pk in list(waiting):
        with transaction.atomic():
            notice = (
                ChangeNotice.objects.select_for_update(of=("self",))
                .select_related("player__user", "player__rating_list")
                .get(pk=pk)
            )
            if not notice.active or notice.last_run >= run_id:
                continue  # another worker told them already
            changes = list(
                ResultChange.objects.filter(
                    player=notice.player,
                    run__rating_list_id=rating_list_id,
                    run_id__gt=notice.last_run,
                    run_id__lte=run_id,
                    run__status=RecomputeRun.Status.DONE,
                )
                .select_related("run", "game__white", "game__black")
                .prefetch_related("run__causes")
                .order_by("date", "system", "id")
            )
            notice.last_run = run_id
            notice.save(update_fields=["last_run"])
        user = notice.player.user
        if not changes or user is None or not user.email:
            continue
        message(notice.player, changes, user.email).send()
        sent += 1
    return sent


def message(player: Player, changes: list[ResultChange], to: str) -> EmailMessage:
    items = changed_items(changes[:LISTED], player)
    unsubscribe_url = absolute(reverse("notice_unsubscribe", args=[unsubscribe_token(player)]))
    lines = [
        f"Hello {player.name},",
        "",
        f"A late entry on {player.rating_list} changed {len(changes)} of your results:",
        "",
    ]
    for item in items:
        lines += [f"- {item.title}", f"  {item.text}", f"  Why: {absolute(item.path)}", ""]
    if len(changes) > LISTED:
        lines += [f"… and {len(changes) - LISTED} more on your record sheet.", ""]
    lines += [
        f"Your record sheet: {absolute(player.get_absolute_url())}",
        "",
        f"You asked for these e-mails. To stop them (one click): {unsubscribe_url}",
    ]
    return EmailMessage(
        subject=f"{player.rating_list}: a late game changed your rating",
        body="\n".join(lines),
        to=[to],
        headers={
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
