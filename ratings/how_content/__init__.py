"""What the "How ratings work" pages say: every rating system's rules in
plain words, the meaning of every term its explanations use, and the
players' questions.

One module a system (families that share terms share a module); this one
holds the shapes and the registry.  The rules restate docs/rating-systems.md
for players; the engine (ratings/engine/) is what computes, and the tests
(tests/site/) check that every term an explanation can emit is described
here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Term:
    """A named term of a system's explanation: ``key`` is the name the
    engine gives it (the page's anchor is ``term-<key>``)."""

    key: str
    label: str
    meaning: str


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
    terms: tuple[Term, ...]
    #: How the worked example's game was chosen, for this system.
    example_note: str

    def term_keys(self) -> set[str]:
        return {term.key for term in self.terms}


#: Terms every system's explanations share.
CHANGE = Term("change", "change", "How much this game moved the player's rating, in the system's own unit.")
REASON = Term(
    "reason",
    "reason",
    "Why a game changed nothing (a forfeit, a free game, a game this system does not count), or that "
    "the row is a committee adjustment.",
)
ADJUSTED_TO = Term(
    "adjusted_to",
    "adjusted to",
    "The value a committee adjustment set: the player's new rating from the adjustment's date on.",
)


#: How the example game of a system that rates periods is chosen.
PERIOD_NOTE = (
    "the first handicap game of the demo's South African list between two players who both had a rating "
    "from an earlier tournament or club day"
)


def pages() -> dict[str, SystemPage]:
    """Every system's page, by the engine's name of the system."""
    from ratings.how_content import egf, ffg, sagc, west_surrey

    found = [sagc.PAGE, egf.PAGE, egf.OLD_PAGE, ffg.PAGE, ffg.OLD_PAGE, west_surrey.PAGE]
    return {page.name: page for page in found}
