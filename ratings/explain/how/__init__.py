"""What the "How ratings work" pages say: every rating system's rules in
plain words and the players' questions.  The meaning of every term an
explanation uses is in ratings/explain/terms.py, which the game page shows too.

One module a system (families that share rules share a module); this one
holds the shapes and the registry.  The rules restate docs/rating-systems.md
for players; the engine (ratings/engine/) is what computes.

May import: ratings.demo, ratings.engine, ratings.explain.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    """One rule, in plain words; its anchor is ``rule-<key>``."""

    key: str
    title: str
    text: str


@dataclass(frozen=True)
class SystemPage:
    """Everything a system's page says but its worked example."""

    name: str
    summary: str
    sources: tuple[str, ...]
    rules: tuple[Rule, ...]
    #: How the worked example's game was chosen, for this system.
    example_note: str


#: How the example game of a system that rates periods is chosen.
PERIOD_NOTE = (
    "the first handicap game of the demo's South African list between two players who both had a rating "
    "from an earlier tournament or club day"
)


def pages() -> dict[str, SystemPage]:
    """Every system's page, by the engine's name of the system."""
    from ratings.explain.how import egf, ffg, sagc, west_surrey

    found = [sagc.PAGE, egf.PAGE, egf.OLD_PAGE, ffg.PAGE, ffg.OLD_PAGE, west_surrey.PAGE]
    return {page.name: page for page in found}
