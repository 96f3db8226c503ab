"""Old ids to new ones, in little memory: an archive's rows come in
increasing id order, so a file's map is two arrays of 8-byte integers
searched by bisection (16 bytes a row, against ~100 for a dict)."""

from __future__ import annotations

from array import array
from bisect import bisect_left


class IdMap:
    """The new id of each old id of one file, added in increasing order."""

    def __init__(self) -> None:
        self.old = array("q")
        self.new = array("q")

    def add(self, old: int, new: int) -> None:
        if self.old and old <= self.old[-1]:
            raise ValueError(f"id {old} after {self.old[-1]}: ids must increase")
        self.old.append(old)
        self.new.append(new)

    def get(self, old: int) -> int | None:
        i = bisect_left(self.old, old)
        if i < len(self.old) and self.old[i] == old:
            return self.new[i]
        return None

    def __len__(self) -> int:
        return len(self.old)
