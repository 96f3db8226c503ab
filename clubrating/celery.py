"""The Celery application.

Without CELERY_BROKER_URL the site runs tasks in-process after commit (the
embedded default); see ratings/tasks.py for how work is enqueued.
"""

import os

from celery import Celery

from ratings.worker_steps import SweepOnConnect

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clubrating.settings")

app = Celery("clubrating")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# Each (re)connection of a worker to the broker sweeps the dirty lists.
app.steps["consumer"].add(SweepOnConnect)
