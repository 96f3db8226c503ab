"""The management commands of the ratings app, and ``output``, the atomic file
writer they share.

May import: ratings.archive, ratings.committee, ratings.demo, ratings.engine,
ratings.evaluation, ratings.exchange, ratings.models, ratings.recompute,
ratings.whatif.
"""
