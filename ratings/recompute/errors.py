"""The recompute's errors."""

from __future__ import annotations


class RecomputeBusy(Exception):
    """Another process holds the list's recompute lock."""

    def __init__(self, rating_list_id: int) -> None:
        self.rating_list_id = rating_list_id
        super().__init__(f"another recompute of list {rating_list_id} is running")


class RecomputeError(Exception):
    """An event the engine refused, named by its game or adjustment."""
