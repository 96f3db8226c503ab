"""The one error every reader and writer of :mod:`ratings.exchange` raises."""

from __future__ import annotations


class ExchangeError(ValueError):
    """A file that cannot be read (or a record that cannot be written).

    ``line`` is the 1-based line number of the offending line (None when the
    problem is not tied to one line, e.g. an empty file or a writer's input),
    ``column`` the 1-based character column where it applies, and
    ``other_line`` the second line when two lines contradict each other.
    The message is meant for a committee member: it says what was expected.
    """

    def __init__(
        self,
        line: int | None,
        message: str,
        *,
        column: int | None = None,
        other_line: int | None = None,
    ) -> None:
        self.line = line
        self.message = message
        self.column = column
        self.other_line = other_line
        super().__init__(self._describe())

    def _describe(self) -> str:
        if self.line is None:
            return self.message
        where = f"line {self.line}"
        if self.column is not None:
            where += f", column {self.column}"
        if self.other_line is not None:
            where += f" (and line {self.other_line})"
        return f"{where}: {self.message}"
