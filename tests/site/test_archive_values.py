"""The archive import's fast field checks (ratings/archive/values.py) give
what ``Field.clean`` and ``Field.get_db_prep_save`` give, value for value,
errors included, however often a value comes back (its answer is
remembered) and whatever its type (1, 1.0, "1" and True are different
input)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, models

from ratings.archive import values
from ratings.models import Game, Player

VALUES: dict[tuple[type[models.Model], str], list[Any]] = {
    (Game, "handicap"): [0, 3, 12, -1, "3", 3.0, True, None, "x", 3],
    (Game, "komi"): ["6.5", 6.5, "0.5", "100", "x", None, "6.5"],
    (Game, "winner"): ["white", "nobody", "", None, "white"],
    (Game, "forfeit"): [False, True, 1, 0, "yes", None, False],
    (Game, "date"): ["2024-02-29", "2024-02-30", "29/02/2024", 20240229, "2024-02-29"],
    (Game, "entered_at"): [
        "2025-04-01T19:00:00+00:00",
        "2025-04-01T21:00:00.123456+02:00",
        "2025-04-01 19:00:00+00:00",
        "2025-04-01T19:00:00Z",
        "2025-04-01T19:00:00",  # naive: the field makes it aware, with a warning
        "2025-13-01T19:00:00+00:00",
        "",
        None,
        17,
    ],
    (Game, "comments"): ["", "a comment", "x" * 201, "nul\x00", None, 5, 1, True, 1.0],
    (Player, "start_rank"): [-4, 8, 99, "-4", -4.0, None],
}


def _expected(f: Any, value: Any, prepared: bool) -> Any:
    try:
        clean = f.clean(value, None)
    except ValidationError as error:
        return ("refused", error.messages)
    except TypeError:  # a number for a date: refused too, by the checker
        return ("refused", [f"{value!r} is not a value of this field"])
    return ("ok", f.get_db_prep_save(clean, connection) if prepared else clean)


def _got(check: values.Convert, value: Any) -> Any:
    try:
        return ("ok", check(value))
    except ValidationError as error:
        return ("refused", error.messages)


@pytest.mark.django_db
@pytest.mark.parametrize("prepared", [False, True], ids=["python", "database"])
@pytest.mark.parametrize(("model", "name"), list(VALUES), ids=[f"{m.__name__}.{n}" for m, n in VALUES])
def test_each_value_is_checked_as_the_field_checks_it(
    model: type[models.Model], name: str, prepared: bool
) -> None:
    f = model._meta.get_field(name)
    assert isinstance(f, models.Field)
    check = values.checker(f, prepared=prepared)
    for value in VALUES[model, name] * 2:  # the second time from the memory
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got, expected = _got(check, value), _expected(f, value, prepared)
        assert got == expected, value
        assert type(got[1]) is type(expected[1]), value


@pytest.mark.django_db
def test_the_memory_stays_small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(values, "REMEMBERED", 10)
    f = Game._meta.get_field("comments")
    check = values.checker(f, prepared=True)
    for n in range(25):
        assert check(f"comment {n}") == f"comment {n}"
    cells = [cell.cell_contents for cell in check.__closure__ or ()]
    memory = next(cell for cell in cells if isinstance(cell, dict))
    assert 0 < len(memory) <= 10
