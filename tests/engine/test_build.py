"""The compiled engine in this checkout is a build of its current sources.

Python imports an extension module in preference to its ``.py`` file, so an
edited source left behind a stale build would be shadowed without a word
(``make`` rebuilds after every edit; ``make pure`` removes the build).
These tests fail when that happened: an extension older than a source of
its group, an extension of a module setup.py does not compile, or half a
build.  They skip when nothing is compiled, unless REQUIRE_COMPILED is set
(CI), where the engine must be compiled.
"""

from __future__ import annotations

import importlib.machinery
import tomllib
from pathlib import Path

import pytest

from tests.support import REPO, need

ENGINE = REPO / "ratings" / "engine"
#: The modules setup.py compiles, as one group (pyproject.toml).
LISTED = [
    REPO / p for p in tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["clubrating"]["compiled"]
]


def extensions(folder: Path, stem: str = "*") -> list[Path]:
    return sorted(p for suffix in importlib.machinery.EXTENSION_SUFFIXES for p in folder.glob(stem + suffix))


@pytest.fixture(scope="module")
def built() -> list[Path]:
    """The compiled engine's files: one extension per module and the group's runtime."""
    found = extensions(ENGINE) + extensions(REPO, "ratings_engine__mypyc")
    need(bool(found), "the compiled engine (make install)", env="REQUIRE_COMPILED")
    return found


def test_setup_lists_existing_engine_modules() -> None:
    assert LISTED
    for source in LISTED:
        assert source.parent == ENGINE and source.is_file(), source


def test_every_listed_module_is_built_and_nothing_else(built: list[Path]) -> None:
    names = {p.name.split(".")[0] for p in built}
    expected = {p.stem for p in LISTED} | {"ratings_engine__mypyc"}
    assert names == expected, "a partial or leftover build: run `make engine` (or `make pure`)"


def test_no_extension_is_older_than_a_source_it_was_built_from(built: list[Path]) -> None:
    # The group is compiled together (its modules call each other natively)
    # against the types of the modules it imports (base's among them): every
    # extension depends on every source of the package, as in the Makefile.
    newest = max(ENGINE.glob("*.py"), key=lambda p: p.stat().st_mtime)
    stale = [p.name for p in built if p.stat().st_mtime < newest.stat().st_mtime]
    assert not stale, f"{', '.join(stale)} older than {newest.name}: run `make` (or `make pure`)"
