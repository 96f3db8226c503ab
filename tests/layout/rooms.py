"""The rooms of the project and the imports between them, read from the
source with :mod:`ast` (nothing is imported, so a planted cycle in a scratch
tree is found the same way as a real one).

A *room* is a loose module or a package directly inside an app or inside a
package.  Every import counts, at any depth of the code (``TYPE_CHECKING``
blocks and imports inside functions too): a lazy import is still a
dependency.  Imports of a package's own ``__init__`` from inside it are the
package's facade and do not count as an edge between its rooms.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# Django's conventional modules, which every app may have besides its rooms.
CONVENTIONAL = frozenset({"__init__", "admin", "apps", "urls", "tasks", "context_processors"})
SKIPPED = frozenset({"migrations", "__pycache__"})
MAY_IMPORT = re.compile(r"^May import:(?P<rooms>.*?)(?:\n\s*\n|\Z)", re.MULTILINE | re.DOTALL)


@dataclass(frozen=True)
class Tree:
    """The apps of a project rooted at ``root`` (each a folder of Python)."""

    root: Path
    apps: tuple[str, ...]

    def modules(self) -> Iterator[tuple[str, Path]]:
        """Every module's dotted name and file, migrations left out."""
        for app in self.apps:
            for path in sorted((self.root / app).rglob("*.py")):
                if SKIPPED & set(path.relative_to(self.root).parts):
                    continue
                parts = list(path.relative_to(self.root).with_suffix("").parts)
                if parts[-1] == "__init__":
                    parts.pop()
                yield ".".join(parts), path

    def is_module(self, name: str) -> bool:
        base = self.root.joinpath(*name.split("."))
        return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()

    def packages(self) -> list[str]:
        return sorted(name for name, path in self.modules() if path.name == "__init__.py")


def imported(name: str, path: Path) -> set[str]:
    """Every module ``name`` (at ``path``) names in an import, resolved to
    absolute dotted names; ``from a import b`` gives both ``a`` and ``a.b``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def dependencies(tree: Tree) -> dict[str, set[str]]:
    """Module → the project's modules it imports (the deepest that exist)."""
    graph: dict[str, set[str]] = {}
    for name, path in tree.modules():
        targets = {n for n in imported(name, path) if n.split(".")[0] in tree.apps and tree.is_module(n)}
        # ``from a import b`` names a and a.b: when b is a module, a is only its way in
        graph[name] = {t for t in targets if not any(o.startswith(t + ".") for o in targets)} - {name}
    return graph


def room_of(module: str, container: str) -> str | None:
    """The room of ``container`` (an app or a package) that holds ``module``."""
    if not module.startswith(container + "."):
        return None
    return container + "." + module[len(container) + 1 :].split(".")[0]


def room_edges(tree: Tree, container: str, graph: dict[str, set[str]]) -> dict[str, set[str]]:
    """Which rooms of ``container`` import which others."""
    edges: dict[str, set[str]] = {}
    for source, targets in graph.items():
        here = room_of(source, container)
        if here is None:
            continue
        for target in targets:
            there = room_of(target, container)
            if there is not None and there != here:
                edges.setdefault(here, set()).add(there)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one room (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group: list[str] = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(set(edges) | {t for ts in edges.values() for t in ts}):
        if node not in index:
            visit(node)
    return found


def all_cycles(tree: Tree) -> dict[str, list[list[str]]]:
    """For every app and every package, its rooms that import each other."""
    graph = dependencies(tree)
    out: dict[str, list[list[str]]] = {}
    for container in (*tree.apps, *tree.packages()):
        found = cycles(room_edges(tree, container, graph))
        if found:
            out[container] = found
    return out


def loose_modules(tree: Tree, app: str) -> list[str]:
    """The modules directly inside ``app`` that are not Django's conventional ones."""
    return sorted(p.stem for p in (tree.root / app).glob("*.py") if p.stem not in CONVENTIONAL)


def declared(tree: Tree, package: str) -> set[str] | None:
    """The rooms a package's docstring says it may import (its paragraph
    "May import: a, b." of names separated by commas, or "nothing"), None
    without one."""
    init = tree.root.joinpath(*package.split("."), "__init__.py")
    doc = ast.get_docstring(ast.parse(init.read_text())) or ""
    match = MAY_IMPORT.search(doc)
    if match is None:
        return None
    words = {w.strip() for w in match["rooms"].strip().rstrip(".").split(",") if w.strip()}
    return set() if words == {"nothing"} else words


def undeclared(tree: Tree, package: str, graph: dict[str, set[str]]) -> set[str]:
    """Rooms of other packages or apps that ``package`` imports without
    declaring them (rooms of the same app are named ``app.room``; a room
    of another app likewise)."""
    allowed = declared(tree, package) or set()
    used: set[str] = set()
    for source, targets in graph.items():
        if source != package and not source.startswith(package + "."):
            continue
        for target in targets:
            if target == package or target.startswith(package + "."):
                continue
            app = target.split(".")[0]
            used.add(room_of(target, app) or target)
    return {room for room in used if room not in allowed}
