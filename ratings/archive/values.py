"""An archive's values made the model's, fast enough for a million rows.

``checker(field)`` turns a value read from a JSON line into the field's
Python value exactly as ``Field.clean`` does (type, choices, length, range:
the same checks and the same messages, since it *is* ``Field.clean``), but
remembers the answer for each value met (a game's date, handicap, komi,
winner or kind take a few thousand values among a million rows); a date
and time with its offset, the one field that differs on every row, is read
by ``datetime.fromisoformat``, which ``Field.clean`` calls first too.
With ``prepared`` it gives the database's value at once (as
``Field.get_db_prep_save`` makes it), remembered the same way.  Each
memory holds at most ``REMEMBERED`` values, so it stays small.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
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


def preparer(f: models.Field[Any, Any]) -> Convert:
    """The database's value of ``f`` for its Python value (the connection's
    adaptation, as ``Field.get_db_prep_save``)."""

    def prepare(value: Any) -> Any:
        return f.get_db_prep_save(value, connection)

    return prepare


def checker(f: models.Field[Any, Any], *, prepared: bool = False) -> Convert:
    """The Python value of ``f`` for a value read from an archive, or with
    ``prepared`` the database's value (but a JSON field's value is left to
    ``preparer``, to be changed first); raises ValidationError as
    ``f.clean`` does (and for a value of a type the field cannot parse,
    where ``f.clean`` raises TypeError)."""
    prepare = preparer(f)

    def clean(value: Any) -> Any:
        try:
            return f.clean(value, None)
        except TypeError:  # a number for a date, say: Django's parsers take strings only
            raise ValidationError(f"{value!r} is not a value of this field") from None

    def clean_and_prepare(value: Any) -> Any:
        return prepare(clean(value))

    if isinstance(f, models.JSONField):
        return clean  # a dict or a list: nothing to remember
    whole = clean_and_prepare if prepared else clean
    if _plain_moment(f):
        adapt = connection.ops.adapt_datetimefield_value if prepared else None

        def moment(value: Any) -> Any:
            if type(value) is str:
                try:
                    parsed = datetime.fromisoformat(value)
                except ValueError:
                    return whole(value)
                if parsed.tzinfo is not None:
                    return adapt(parsed) if adapt else parsed
            return whole(value)  # naive, or not a string: the field decides

        return moment
    return _remembered(whole)
