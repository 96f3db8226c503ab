"""The pure rating engine: one module per rating system, no Django.

``get_system(name, **settings)`` builds a system by its name; ``SYSTEM_NAMES``
lists them in the order a club sees them.
"""

from __future__ import annotations

import importlib
from typing import Any

from ratings.systems.base import RatingSystem

_SYSTEMS: dict[str, str] = {
    "sagc": "ratings.systems.sagc:SAGC",
    "egf": "ratings.systems.egf:EGF",
    "egf-old": "ratings.systems.egf_old:OldEGF",
    "ffg": "ratings.systems.ffg:FFG",
    "ffg-old": "ratings.systems.ffg_old:OldFFG",
    "west-surrey": "ratings.systems.west_surrey:WestSurrey",
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
