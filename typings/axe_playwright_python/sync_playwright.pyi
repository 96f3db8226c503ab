# The part of axe-playwright-python the browser tests use (it ships no types).
from typing import Any

class AxeResults:
    response: dict[str, Any]

class Axe:
    def __init__(self) -> None: ...
    def run(self, page: Any, context: Any = ..., options: dict[str, Any] | None = ...) -> AxeResults: ...
