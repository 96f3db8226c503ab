"""Writing an archive's rows into a table, fast: the new rows' ids drawn
beforehand (so the rows that refer to them are built without asking the
database), then a block of rows written at once, by PostgreSQL's binary
COPY (psycopg's ``Cursor.copy``, each value packed by psycopg for its
column's type: the server parses no text) or SQLite's ``executemany``, in
the caller's transaction.  Rows are sent as they are built, so the
database works on a block while the rest of it is being built.

A block the database refuses (a unique name taken, a check broken) is
written again a row at a time, each under its own savepoint, so that the
line at fault is named; any refusal rolls the block back and raises.
Rows are written with every column of the model, as the ORM writes them;
models whose manager writes rows its own way (a custom ``bulk_create``)
are not for this module (``fits``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from django.db import DatabaseError, connection, models, transaction

from ratings.archive.manifest import ArchiveError


def fits(model: type[models.Model]) -> bool:
    """Whether ``model``'s rows can be written here: a database this module
    knows, an integer id, and no rule of the model's own when rows are
    created in bulk."""
    queryset = type(model._default_manager.get_queryset())
    return (
        connection.vendor in ("postgresql", "sqlite")
        and queryset.bulk_create is models.QuerySet.bulk_create
        and isinstance(model._meta.pk, models.AutoField | models.BigAutoField)
    )


class Table:
    """One model's table: its columns (the id first, then every concrete
    field's column in the model's order) and how new ids are drawn."""

    def __init__(self, model: type[models.Model]) -> None:
        meta = model._meta
        quote = connection.ops.quote_name
        self.fields = [f for f in meta.concrete_fields if not f.primary_key]
        assert meta.pk is not None
        self.name, self.pk = meta.db_table, meta.pk.column
        columns = ", ".join(quote(c) for c in [self.pk, *(f.column for f in self.fields)])
        self.select_sql = f"SELECT {columns} FROM {quote(self.name)} WHERE false"
        self.copy_sql = f"COPY {quote(self.name)} ({columns}) FROM STDIN WITH (FORMAT binary)"
        marks = ", ".join(["%s"] * (len(self.fields) + 1))
        self.insert_sql = f"INSERT INTO {quote(self.name)} ({columns}) VALUES ({marks})"
        self.sequence: str | None = None
        self.types: list[int] = []  # the columns' types (PostgreSQL's oids), for the binary COPY

    def new_ids(self, count: int) -> list[int]:
        """``count`` ids no row has nor will be given: drawn from the
        table's sequence (PostgreSQL), or past the highest id ever given
        (SQLite, whose writers wait for this transaction)."""
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                if self.sequence is None:
                    cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [self.name, self.pk])
                    self.sequence = cursor.fetchone()[0]
                cursor.execute(
                    "SELECT nextval(%s::regclass) FROM generate_series(1, %s)", [self.sequence, count]
                )
                return [row[0] for row in cursor.fetchall()]
            quote = connection.ops.quote_name
            cursor.execute(f"SELECT max({quote(self.pk)}) FROM {quote(self.name)}")
            highest = cursor.fetchone()[0] or 0
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [self.name])
            given = cursor.fetchone()
            start = max(highest, given[0] if given else 0) + 1
            return list(range(start, start + count))

    def write(self, file: str, rows: Iterable[tuple[int, Sequence[Any]]]) -> None:
        """Write ``rows`` (each the line of ``file`` it was read from and its
        database values, the id first), sent as they come; raises
        ArchiveError naming the line the database refuses."""
        sent: list[tuple[int, Sequence[Any]]] = []
        rows = iter(rows)
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                if connection.vendor == "postgresql":
                    if not self.types:
                        cursor.execute(self.select_sql)
                        self.types = [column.type_code for column in cursor.description]
                    try:
                        with cursor.copy(self.copy_sql) as copy:
                            copy.set_types(self.types)
                            for number, row in rows:
                                sent.append((number, row))
                                copy.write_row(row)
                    except psycopg.Error as error:  # Django wraps execute's errors, not copy's
                        raise DatabaseError(str(error)) from error
                else:
                    sent.extend(rows)
                    cursor.executemany(self.insert_sql, [row for _, row in sent])
            return
        except DatabaseError as error:
            refused = error
        sent.extend(rows)  # what the refusal left unsent
        for number, row in sent:  # again one by one, to name the line
            try:
                with transaction.atomic(), connection.cursor() as cursor:
                    cursor.execute(self.insert_sql, row)
            except DatabaseError as error:
                raise ArchiveError(f"{file} line {number}: refused by the database: {error}") from None
        lines = f"{sent[0][0]}-{sent[-1][0]}" if sent else "?"
        raise ArchiveError(f"{file} lines {lines}: refused by the database: {refused}")
