"""Template filters that turn internal names into words for the pages:
``{{ name|system_label }}`` ("sagc" -> "South African Go Clubs") and
``{{ run.trigger|trigger_label }}`` ("commit" -> "after a change")."""

from __future__ import annotations

from collections.abc import Iterable

from django import template

from ratings.engine import SYSTEM_LABELS

register = template.Library()

#: Why a recompute ran (RecomputeRun.trigger), in the committee's words.
TRIGGER_LABELS: dict[str, str] = {
    "commit": "after a change",
    "sweeper": "periodic check",
    "command": "command line",
    "celery": "background worker",
    "demo": "demo data",
}


@register.filter
def system_label(name: str) -> str:
    """A rating system's name as people know it; unknown names unchanged."""
    return SYSTEM_LABELS.get(name, name)


@register.filter
def system_labels(names: Iterable[str]) -> str:
    """Several systems, comma-separated, the first one first."""
    return ", ".join(system_label(name) for name in names)


@register.filter
def trigger_label(trigger: str) -> str:
    return TRIGGER_LABELS.get(trigger, trigger)


@register.filter
def change_value(value: object) -> str:
    """A value in the log's "what changed" list: no Python words (None,
    True, False) on the page."""
    if value is None or value == "":
        return "(blank)"
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)
