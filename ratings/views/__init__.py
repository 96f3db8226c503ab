"""The pages and the API, one module an area: ``home`` and ``places``
(a list's and a club's pages), ``players`` (the list, the record sheet),
``log``, ``sheets`` and ``sheet_changes`` (entry, edit, delete), ``games``
and ``adjustments`` (why a rating moved), ``how``, ``kit`` (a club's
printable kit), ``player_changes`` (renames and merges), ``committee``
(adjustments, rank sync, imports, exports), ``recompute`` (runs and status),
``predictions`` (which system predicts best), ``events`` (an event's
crosstable, a list's or club's events), ``feeds`` (a record sheet's Atom
feed), ``notices`` (e-mails about late changes: on, off, unsubscribe),
``api``.  Every object a view
changes is reached through ratings.access.

May import: accounts.requests, accounts.roles, ratings.access,
ratings.committee, ratings.engine, ratings.entry, ratings.evaluation,
ratings.exchange, ratings.explain, ratings.forms, ratings.models,
ratings.names, ratings.notices, ratings.places, ratings.predictions, ratings.presentation,
ratings.recompute, ratings.services.
"""
