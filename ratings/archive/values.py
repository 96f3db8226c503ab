"""An archive's values made the model's, fast enough for a million rows.

``checker(field)`` turns a value read from a JSON line into the field's
Python value exactly as ``Field.clean`` does (type, choices, length, range:
the same checks and the same messages, since it *is* ``Field.clean``), but
remembers the answer for each value met (a game's date, handicap, komi,
winner or kind take a few thousand values among a million rows); a date
and time with its offset, the one field that differs on every row, is read
by ``datetime.fromisoformat``, which ``Field.clean`` calls first too.
``preparer(field)`` turns that value into the database's, as
``Field.get_db_prep_save`` does, remembered the same way.  Each memory
holds at most ``REMEMBERED`` values, so it stays small.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection, models

#: Values remembered per field; the memory is emptied when full.
REMEMBERED = 10_000

Convert = Callable[[Any], Any]


def _remembered(work: Convert) -> Convert:
    """``work`` with its answer for each hashable value remembered (the
    value's type is part of the key: 1, 1.0 and True are different input)."""
    memory: dict[tuple[type, Any], Any] = {}

    def convert(value: Any) -> Any:
        key = (type(value), value)
        try:
            return memory[key]
        except KeyError:
            result = work(value)
            if len(memory) >= REMEMBERED:
                memory.clear()
            memory[key] = result
            return result
        except TypeError:  # a list or an object: not hashable
            return work(value)

    return convert


def _plain_moment(f: models.Field[Any, Any]) -> bool:
    return isinstance(f, models.DateTimeField) and settings.USE_TZ and not f.choices and not f.validators


def checker(f: models.Field[Any, Any]) -> Convert:
    """The Python value of ``f`` for a value read from an archive; raises
    ValidationError as ``f.clean`` does."""

    def clean(value: Any) -> Any:
        return f.clean(value, None)

    if isinstance(f, models.JSONField):
        return clean  # a dict or a list: nothing to remember
    if _plain_moment(f):

        def moment(value: Any) -> Any:
            if type(value) is str:
                try:
                    parsed = datetime.fromisoformat(value)
                except ValueError:
                    return clean(value)
                if parsed.tzinfo is not None:
                    return parsed
            return clean(value)  # naive, or not a string: the field decides

        return moment
    return _remembered(clean)


def preparer(f: models.Field[Any, Any]) -> Convert:
    """The database's value of ``f`` for its Python value (the connection's
    adaptation, as ``Field.get_db_prep_save``)."""

    def prepare(value: Any) -> Any:
        return f.get_db_prep_save(value, connection)

    if isinstance(f, models.JSONField):
        return prepare
    if _plain_moment(f):
        adapt = connection.ops.adapt_datetimefield_value

        def moment(value: Any) -> Any:
            if type(value) is datetime and value.tzinfo is not None:
                return adapt(value)
            return prepare(value)

        return moment
    return _remembered(prepare)
