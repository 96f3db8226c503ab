"""The list import's read-ahead (ratings/archive/ahead.py): the items come
in order, made in another thread; an error there is raised here after the
items made before it; a caller that stops early stops the thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from ratings.archive.ahead import ahead


def _alive() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "archive-ahead"]


def test_the_items_come_in_order_made_in_another_thread() -> None:
    makers: set[str] = set()

    def items() -> Iterator[int]:
        for n in range(50):
            makers.add(threading.current_thread().name)
            yield n

    assert list(ahead(items())) == list(range(50))
    assert makers == {"archive-ahead"}
    assert not _alive()


def test_an_error_in_the_thread_is_raised_in_the_caller_after_the_items_before_it() -> None:
    def items() -> Iterator[int]:
        yield 1
        yield 2
        raise ValueError("line 3: wrong")

    got = []
    with pytest.raises(ValueError, match="line 3: wrong"):
        for item in ahead(items()):
            got.append(item)
    assert got == [1, 2]
    assert not _alive()


def test_a_caller_that_stops_early_stops_the_thread() -> None:
    def endless() -> Iterator[int]:
        n = 0
        while True:
            yield n
            n += 1

    made = ahead(endless())
    assert next(made) == 0
    made.close()
    assert not _alive()
