"""What the read pages show, shaped for their templates: tables
(django-tables2), charts drawn as SVG on the server, the filter forms of
the read pages, and the notes of results a late game changed.

- ``tables``: the record sheet's 12 columns, the players list, the log,
  and how a rating or a change is written (``number``, ``signed``) and a
  text escaped for HTML written in Python (``escape``); ``sheet_html``: the
  record sheet page's rows written as HTML;
- ``charts``: a player's rating history; ``calibration_chart``: the
  committee's calibration figure;
- ``filters``: the GET forms of the players list and the log;
- ``national``: links to a player's EGD, FFG and AGA pages;
- ``events``: an event's crosstable and rating effects, a list's or club's events;
- ``results``: won/lost totals of a record sheet, the head-to-head of two players;
- ``standings``: a list's home (standings, movers, latest sheets) and the
  chooser of lists;
- ``result_changes``: the ripple of a late entry, as notes on later rows.

Reads only.

May import: ratings.engine, ratings.models, ratings.services.
"""
