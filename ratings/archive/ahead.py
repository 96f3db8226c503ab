"""Working one step ahead: the items of an iterator made in a second thread
while the caller works on the one before (the import builds a file's next
block of rows while the database writes and checks the last one: the
database's work waits on a socket, with Python's lock released).

The thread only runs the iterator: it must not use the database (Django's
connections are the thread's own, outside the caller's transaction).  An
exception in it is raised in the caller, at the item it stopped at; the
caller stopping early (an error of its own) stops the thread.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Generator, Iterator
from typing import Any, TypeVar

T = TypeVar("T")

#: How long the thread waits to hand an item over before it looks whether
#: the caller has stopped (seconds).
PATIENCE = 0.1


def ahead(items: Iterator[T], depth: int = 1) -> Generator[T, None, None]:
    """``items``, each made in a thread while the caller works on the one
    before; at most ``depth`` made and not yet taken."""
    handed: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=depth)
    stop = threading.Event()

    def hand(message: tuple[str, Any]) -> bool:
        while not stop.is_set():
            try:
                handed.put(message, timeout=PATIENCE)
                return True
            except queue.Full:
                continue
        return False

    def make() -> None:
        try:
            for item in items:
                if not hand(("item", item)):
                    return
        except BaseException as error:  # handed to the caller, raised there
            hand(("error", error))
            return
        hand(("end", None))

    worker = threading.Thread(target=make, name="archive-ahead", daemon=True)
    worker.start()
    try:
        while True:
            what, value = handed.get()
            if what == "end":
                return
            if what == "error":
                raise value
            yield value
    finally:
        stop.set()
        worker.join()
