"""The pure rating engine: one module per rating system, no Django.

``get_system(name, **settings)`` builds a system by its name; ``SYSTEM_NAMES``
lists them in the order a club sees them.

The modules are plain Python.  Installing the project also compiles them
with mypyc (setup.py) into extensions beside the sources, which Python
imports first.  This module decides, before any of them is imported, which
to use: the compiled ones only if ``_build.json`` shows that every source is
unchanged since the build and ``CLUBRATING_PURE=1`` is not set; otherwise a
finder makes the sources win.  ``ENGINE`` says which ("compiled" or "pure").
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

_HERE = Path(__file__).resolve().parent


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Imports ``ratings.engine.*`` from the ``.py`` files, but the modules
    of ``compiled``: an extension left from an earlier build never shadows
    a module that the current build did not compile."""

    def __init__(self, compiled: frozenset[str]) -> None:
        self.compiled = compiled

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name in self.compiled:
            return None
        source = _HERE / f"{name}.py"
        return importlib.util.spec_from_file_location(fullname, source) if source.is_file() else None


def _compiled_modules() -> frozenset[str]:
    """The modules compiled by the last build, if they match their sources.

    Empty (the sources win) when CLUBRATING_PURE=1, when there is no build,
    or when any source built changed since, or lacks its extension.
    """
    if os.environ.get("CLUBRATING_PURE") == "1":
        return frozenset()
    try:
        built: dict[str, str] = json.loads((_HERE / "_build.json").read_text())["compiled"]
    except (OSError, ValueError, KeyError, TypeError):
        return frozenset()
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    for name, digest in built.items():
        try:
            source = (_HERE / f"{name}.py").read_bytes()
        except OSError:
            return frozenset()
        if hashlib.sha256(source).hexdigest() != digest:
            return frozenset()
        if not any((_HERE / f"{name}{suffix}").is_file() for suffix in suffixes):
            return frozenset()
    # The modules share one runtime library, a top-level module beside the package.
    if importlib.util.find_spec("ratings_engine__mypyc") is None:
        return frozenset()
    return frozenset(built)


#: The modules of this package that run compiled (empty: all run as Python).
COMPILED = _compiled_modules()
#: Which engine this process runs: "compiled" (mypyc) or "pure" (Python).
ENGINE = "compiled" if COMPILED else "pure"
if not any(isinstance(f, _SourceFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, _SourceFinder(COMPILED))

from ratings.engine.base import RatingSystem  # noqa: E402 -- after the choice above

_SYSTEMS: dict[str, str] = {
    "sagc": "ratings.engine.sagc:SAGC",
    "egf": "ratings.engine.egf:EGF",
    "egf-old": "ratings.engine.egf_old:OldEGF",
    "ffg": "ratings.engine.ffg:FFG",
    "ffg-old": "ratings.engine.ffg_old:OldFFG",
    "west-surrey": "ratings.engine.west_surrey:WestSurrey",
}

SYSTEM_NAMES: tuple[str, ...] = tuple(_SYSTEMS)

SYSTEM_LABELS: dict[str, str] = {
    "sagc": "South African Go Clubs",
    "egf": "EGF GoR (since 2021)",
    "egf-old": "EGF GoR (before 2021)",
    "ffg": "FFG ladder (since 2022)",
    "ffg-old": "FFG ladder (before 2022)",
    "west-surrey": "West Surrey club ladder",
}


def get_system(name: str, **settings: Any) -> RatingSystem:
    """The system called ``name``, built with ``settings``."""
    try:
        target = _SYSTEMS[name]
    except KeyError:
        raise ValueError(f"unknown rating system {name!r}; choose one of {', '.join(_SYSTEMS)}") from None
    module_name, class_name = target.split(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    system: RatingSystem = cls(**settings)
    return system
