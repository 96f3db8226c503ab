"""History rows and checkpoints numbered by the sparse ``seq`` of
ratings.recompute.columns.event_seqs: the date's ordinal times 2**20 plus
the event's place in its day (was: the event's place in the list's whole
timeline, which a late game shifted for every later event).  The rows keep
their order; the old and new numbers never overlap (the old are below the
number of events, the new above 2**39), so the unique (player, system,
seq) index holds at every step of the UPDATE."""

from django.db import migrations
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps

#: ratings.recompute.columns.SEQ_STRIDE (a migration keeps its own copy).
STRIDE = 1 << 20


def _ordinal(vendor: str, column: str) -> str:
    """SQL for date.toordinal() of a date column."""
    if vendor == "sqlite":
        return f"CAST(julianday({column}) - 1721424.5 AS INTEGER)"
    return f"CAST({column} - DATE '0001-01-01' + 1 AS BIGINT)"


def sparse(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    conn = schema_editor.connection
    with conn.cursor() as cursor:
        # The place in the day: the old seq less the day's first old seq
        # (the old seqs of a day's events are consecutive).
        cursor.execute(
            f"UPDATE ratings_historyentry SET seq = {_ordinal(conn.vendor, 'ratings_historyentry.date')} * {STRIDE}"
            " + ratings_historyentry.seq - d.first FROM (SELECT rating_list_id, date, MIN(seq) AS first"
            " FROM ratings_historyentry GROUP BY rating_list_id, date) AS d"
            " WHERE ratings_historyentry.rating_list_id = d.rating_list_id AND ratings_historyentry.date = d.date"
        )
        # A checkpoint's seq: its date's first event's.
        cursor.execute(f"UPDATE ratings_ratingcheckpoint SET seq = {_ordinal(conn.vendor, 'date')} * {STRIDE}")


#: Above every seq, dense or sparse: the reverse moves every row there
#: first, so that no new number meets an old one (PostgreSQL checks the
#: unique index row by row: on a million-game database whose history had
#: gaps, a dense number met a row not yet renumbered).
ABOVE = 1 << 52


def dense(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """Back to the place in the list's timeline (counting the events that
    have history rows)."""
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"UPDATE ratings_historyentry SET seq = seq + {ABOVE}")
        cursor.execute(
            "UPDATE ratings_historyentry SET seq = d.place FROM (SELECT id, DENSE_RANK() OVER"
            " (PARTITION BY rating_list_id ORDER BY seq) - 1 AS place FROM ratings_historyentry) AS d"
            " WHERE ratings_historyentry.id = d.id"
        )
        cursor.execute(
            "UPDATE ratings_ratingcheckpoint SET seq = COALESCE((SELECT MIN(h.seq) FROM ratings_historyentry AS h"
            " WHERE h.rating_list_id = ratings_ratingcheckpoint.rating_list_id"
            " AND h.date >= ratings_ratingcheckpoint.date), 0)"
        )


class Migration(migrations.Migration):
    dependencies = [("ratings", "0012_game_indexes_not_twice")]

    operations = [migrations.RunPython(sparse, dense, elidable=False)]
