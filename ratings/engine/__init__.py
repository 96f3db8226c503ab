"""The pure rating engine: one module per rating system, no Django.

``get_system(name, **settings)`` builds a system by its name; ``SYSTEM_NAMES``
lists them in the order a club sees them.

The modules are plain Python.  Installing the project may also compile some
of them with mypyc (setup.py); Python then imports those extensions instead
of the sources, as it would any extension module.  ``ENGINE`` says which
runs ("compiled" or "pure"), ``COMPILED`` which modules are extensions.

May import: nothing.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import pkgutil
from typing import Any

from ratings.engine.base import RatingSystem


def _compiled_modules() -> frozenset[str]:
    """The modules of this package that Python would import as extensions."""
    found = set()
    for module in pkgutil.iter_modules(__path__):
        spec = importlib.util.find_spec(f"{__name__}.{module.name}")
        if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            found.add(module.name)
    return frozenset(found)


#: The modules of this package that run compiled (empty: all run as Python).
COMPILED = _compiled_modules()
#: Which engine this process runs: "compiled" (mypyc) or "pure" (Python).
ENGINE = "compiled" if COMPILED else "pure"

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
