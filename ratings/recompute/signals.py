"""What the recompute announces to the rest of the site.

:data:`list_recomputed` is sent when a list's ratings are up to date again
after a recompute, once its runs have committed, with ``rating_list_id``
and ``run`` (the last :class:`~ratings.models.RecomputeRun`).  Whoever
follows the ratings (the committee's prediction figures, notices to
players) connects a receiver; the recompute imports none of them.  A
receiver that fails is logged and changes nothing of the saved ratings.
"""

from __future__ import annotations

from django.dispatch import Signal

list_recomputed = Signal()
