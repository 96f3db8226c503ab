"""Checks and advice while a volunteer enters a record sheet: what a new
sheet, a game added to a saved sheet and a correction are all checked by
before they are saved.

- ``improbable``: a result the list's ratings make improbable, asked to be
  confirmed;
- ``pairing``: the handicap and komi the list's rule advises for two players;
- ``confirmation``: repeated games, then improbable results: what a new
  sheet, an added game and a correction ask to confirm, in that order.

The writes themselves are ratings.services'; the names typed are matched by
ratings.names.

May import: ratings.engine, ratings.evaluation, ratings.models, ratings.predictions, ratings.services.
"""
