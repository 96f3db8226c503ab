"""The recompute package's shape: the task module depends on the
recompute and never the other way round; no private Django API."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

#: Read from the sources: no mutant of a function changes what these see.
pytestmark = pytest.mark.not_for_mutants

PACKAGE = Path(__file__).resolve().parent.parent.parent / "ratings" / "recompute"


def imported(path: Path) -> set[str]:
    """Every module a source file imports, at any depth of its code."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_no_module_of_the_recompute_imports_the_task_module() -> None:
    modules = sorted(PACKAGE.glob("*.py"))
    assert len(modules) > 10, "the recompute is a package of small modules"
    for path in modules:
        assert not {name for name in imported(path) if name.startswith("ratings.tasks")}, path.name


def test_only_scheduling_knows_celery() -> None:
    knowing = {
        path.name for path in PACKAGE.glob("*.py") if any(n.split(".")[0] == "celery" for n in imported(path))
    }
    assert knowing == {"scheduling.py"}


def test_no_private_django_api_and_no_attribute_set_on_a_connection() -> None:
    forbidden = {"_raw_delete", "run_on_commit", "inc_thread_sharing", "dec_thread_sharing"}
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(), str(path))
        used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert not used & forbidden, path.name
        calls = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        assert not calls & {"setattr", "delattr"}, path.name
