"""The forms of the pages that change something: they turn what a person
typed into domain values and put every problem next to the field it
concerns; the domain rules themselves are checked again by the writers
(ratings.services, ratings.committee).

- ``sheets``: record-sheet entry, game corrections, rank adjustments, list
  settings;
- ``committee``: rank sync, exports and tournament imports;
- ``fields``: model choice fields narrowed per request.

May import: ratings.committee, ratings.engine, ratings.exchange, ratings.models, ratings.names, ratings.presentation, ratings.services.
"""
