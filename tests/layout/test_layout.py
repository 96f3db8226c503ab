"""The shape of the project, so that a newcomer finds a feature's code from
the folder names (docs/architecture.md draws it):

- no two rooms import each other, at any level (an app's rooms, a
  package's rooms), lazily or not;
- every package opens with a docstring that says what it holds and, in its
  "May import:" paragraph, which rooms it may import, and imports no other;
- at most eight loose modules per app besides Django's conventional ones;
- the pure packages import nothing of Django, Celery or a database driver.

Each rule is also shown to catch what it forbids, on a scratch tree."""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from tests.layout.rooms import (
    Tree,
    all_cycles,
    declared,
    dependencies,
    imported,
    loose_modules,
    undeclared,
)
from tests.support import REPO

APPS = ("ratings", "accounts", "clubrating")
PURE = ("ratings.engine", "ratings.exchange", "ratings.evaluation")
FRAMEWORKS = ("django", "celery", "kombu", "psycopg", "psycopg2", "django_tables2", "redis")
MAX_LOOSE = 8

PROJECT = Tree(REPO, APPS)


def test_no_two_rooms_import_each_other() -> None:
    assert all_cycles(PROJECT) == {}


def test_every_package_says_what_it_holds_and_what_it_may_import() -> None:
    graph = dependencies(PROJECT)
    for package in PROJECT.packages():
        if package in APPS:
            continue
        init = REPO.joinpath(*package.split("."), "__init__.py")
        doc = ast.get_docstring(ast.parse(init.read_text())) or ""
        assert doc.split("May import:")[0].strip(), f"{package}: no docstring saying what it holds"
        assert declared(PROJECT, package) is not None, f"{package}: no 'May import:' paragraph"
        assert undeclared(PROJECT, package, graph) == set(), package


def test_at_most_eight_loose_modules_per_app() -> None:
    for app in APPS:
        loose = loose_modules(PROJECT, app)
        assert len(loose) <= MAX_LOOSE, f"{app}: {loose}: group them into rooms"


def test_the_pure_packages_import_no_framework() -> None:
    for name, path in PROJECT.modules():
        if name.startswith(PURE):
            frameworks = {n for n in imported(name, path) if n.split(".")[0] in FRAMEWORKS}
            assert not frameworks, f"{name} imports {sorted(frameworks)}"


# --- each rule catches what it forbids ------------------------------------------


@pytest.fixture
def scratch(tmp_path: Path) -> Tree:
    """A copy of the project's apps to plant faults in."""
    for app in APPS:
        shutil.copytree(REPO / app, tmp_path / app, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return Tree(tmp_path, APPS)


def plant(tree: Tree, module: str, line: str) -> None:
    path = tree.root.joinpath(*module.split(".")).with_suffix(".py")
    path.write_text(path.read_text() + "\n" + line + "\n")


def test_a_lazy_import_back_between_two_rooms_is_a_cycle(scratch: Tree) -> None:
    assert all_cycles(scratch) == {}
    plant(scratch, "ratings.models.players", "def f():\n    from ratings.services import sheets")
    assert all_cycles(scratch) == {"ratings": [["ratings.models", "ratings.recompute", "ratings.services"]]}


def test_a_cycle_inside_a_package_is_found(scratch: Tree) -> None:
    plant(scratch, "ratings.engine.sagc_rules", "if False:\n    from ratings.engine import explanations")
    assert all_cycles(scratch) == {
        "ratings.engine": [["ratings.engine.explanations", "ratings.engine.sagc_rules"]]
    }


def test_a_cycle_through_a_relative_import_is_found(scratch: Tree) -> None:
    plant(scratch, "ratings.exchange.errors", "from .h9 import read_h9")
    assert "ratings.exchange" in all_cycles(scratch)


def test_an_undeclared_import_is_found(scratch: Tree) -> None:
    plant(scratch, "ratings.names.matching", "from ratings.presentation.tables import number")
    assert undeclared(scratch, "ratings.names", dependencies(scratch)) == {"ratings.presentation"}


def test_loose_modules_past_eight_are_caught(scratch: Tree) -> None:
    for name in ("helpers", "utils", "misc")[: MAX_LOOSE + 1 - len(loose_modules(scratch, "ratings"))]:
        (scratch.root / "ratings" / f"{name}.py").write_text('"""A grab-bag."""\n')
    assert len(loose_modules(scratch, "ratings")) == MAX_LOOSE + 1
    assert "urls" not in loose_modules(scratch, "ratings")  # Django's own modules are not counted


def test_a_framework_import_in_a_pure_package_is_found(scratch: Tree) -> None:
    plant(scratch, "ratings.engine.ranks", "from django.conf import settings")
    path = scratch.root / "ratings" / "engine" / "ranks.py"
    assert "django.conf" in imported("ratings.engine.ranks", path)
