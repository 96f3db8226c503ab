"""One module a ``manage.py`` command (docs/commands are in the README's
table): each parses its arguments and calls the room that does the work.

May import: ratings.archive, ratings.committee, ratings.demo, ratings.engine,
ratings.evaluation, ratings.exchange, ratings.management, ratings.models,
ratings.recompute, ratings.whatif.
"""
