"""After a recompute: the e-mails, by the Celery worker when there is a
broker (the task by name, as the recompute enqueues its own), else at once."""

from __future__ import annotations

import logging

from celery import current_app
from django.conf import settings
from django.dispatch import receiver

from ratings.models import ChangeNotice, RecomputeRun
from ratings.notices import mail
from ratings.recompute.signals import list_recomputed

log = logging.getLogger(__name__)

NOTIFY_TASK = "ratings.tasks.notify_changes_task"


@receiver(list_recomputed)
def _after_recompute(sender: object, rating_list_id: int, run: RecomputeRun, **kwargs: object) -> None:
    if not ChangeNotice.objects.filter(active=True, player__rating_list_id=rating_list_id).exists():
        return
    if settings.CELERY_BROKER_URL:
        current_app.tasks[NOTIFY_TASK].delay(rating_list_id, run.pk)
        return
    mail.tell(rating_list_id, run.pk)
