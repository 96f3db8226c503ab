"""Template filters of the read pages (``labels``: ranks, systems and kinds in
words).

May import: ratings.engine.
"""
