"""Notice of changes: telling a player that a late game changed their
results.  ``feeds`` builds a record sheet's Atom feed entries (new results,
results a late game changed, with the reason); ``mail`` the e-mail a player
who asked for it gets after a recompute (at most one a recompute, with the
links to the explanations and a one-click unsubscribe), sent by the Celery
worker from the recompute's ``list_recomputed`` signal (``receivers``).

May import: ratings.engine, ratings.models, ratings.presentation, ratings.recompute.
"""
