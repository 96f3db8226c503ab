"""Why a rating moved, in words: the explanation of a game's and of an
adjustment's rating changes, the meaning and formula of every term, and the
How pages that state each system's rules for players.

- ``games``: a game's changes in every system of its list, step by step (the
  engine's own terms: its rating period replayed from the players' states
  the stored history gives);
- ``adjustments``: what a rank adjustment did and why;
- ``terms``: the words of every term an explanation shows;
- ``steps``: each term's formula written out with its numbers;
- ``how``: the "How ratings work" pages and their worked examples.

Reads only: nothing here writes to the database.

May import: ratings.engine, ratings.models, ratings.recompute, ratings.presentation, ratings.demo.
"""
