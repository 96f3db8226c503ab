"""A step of the Celery worker's consumer: sweep the dirty lists each time
the worker (re)connects to the broker.

Work the broker could not take is not lost: the list's dirty flag records
it (ratings/recompute/scheduling.py).  Something must still send it once
the broker is reachable again, and the saves that failed to publish never
retry.  The consumer's steps are started when the worker starts and again
after every lost connection, so this step enqueues one sweep at each of
those moments: a worker killed mid-run, a worker started late and a Redis
restart are all caught up at once, not at the next periodic sweep.

The step looks the sweep task up by name, so this module imports no model
and can be registered before Django is set up (clubrating/celery.py).
"""

from __future__ import annotations

import logging
from typing import Any

from celery import bootsteps

log = logging.getLogger(__name__)

#: The task that enqueues a recompute of every dirty list (ratings/tasks.py).
SWEEP_TASK = "ratings.tasks.sweep_dirty_lists"


class SweepOnConnect(bootsteps.StartStopStep):
    """Enqueue a sweep when the consumer starts: at worker start and after
    each reconnection to the broker."""

    #: Start after the consumer has its connection and its task registry.
    requires = ("celery.worker.consumer.tasks:Tasks",)

    def start(self, parent: Any) -> None:
        log.info("connected to the broker: sweeping the lists still dirty")
        parent.app.tasks[SWEEP_TASK].delay()
