"""Players' names as people type them: finding the player a volunteer,
a committee member or a searcher means.

- ``matching``: the near misses offered at entry ("did you mean …").

May import: ratings.exchange, ratings.models.
"""
