"""Public pages that explain a rating change: a game (every system of its
list, both players, the computation step by step with the rule of each
term) and a committee adjustment.

Read like the record sheets they are linked from: by anyone, no login.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape as escape_text

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET

from ratings.engine.ranks import format_rank
from ratings.explain.adjustments import explain_adjustment
from ratings.explain.games import Side, Status, SystemExplanation, explain_game
from ratings.explain.steps import signed_text, steps, value_text
from ratings.explain.terms import words_for
from ratings.models import Game, RankAdjustment
from ratings.presentation.result_changes import ripple_context


@dataclass(frozen=True, slots=True)
class TermLine:
    """One term as the page writes it: its words and its value."""

    key: str
    #: The term's rule in "How ratings work" (one ``reverse`` per system, not
    #: per term: a page of six systems has about 230 terms).
    href: str
    label: str
    value: str
    meaning: str
    formula: str


@dataclass(frozen=True, slots=True)
class SideView:
    """One player's change in one system, ready to write."""

    side: Side
    before: str
    change: str
    after: str
    steps: list[str]
    terms: list[TermLine]
    #: The terms' rows of the page's table (term_rows).
    rows: str


#: One term's row, as templates/ratings/game.html wrote it with a
#: ``{% for %}`` of six variables (the same bytes, escaped the same way).
_TERM_ROW = (
    '\n        <tr data-term="{}"><td class="term"><a href="{}">{}</a></td><td class="value">{}</td>'
    '<td>{}</td><td class="formula">{}</td></tr>\n      '
)


def term_rows(lines: list[TermLine]) -> str:
    """The rows of the terms' table, escaped as the template escapes a
    variable (a value marked safe as it is, any other HTML-escaped) and
    marked safe once: a page of six systems has about 210 terms, and the
    template's loop of six variables a row took about 10 ms of CPU a page
    on the loaded machine, format_html a row 6 ms, this 2 ms (measured,
    docs/recompute.md)."""
    return mark_safe(
        "".join(
            _TERM_ROW.format(*map(_escaped, (t.key, t.href, t.label, t.value, t.meaning, t.formula)))
            for t in lines
        )
    )


def _escaped(value: str) -> str:
    """django.utils.html.conditional_escape of a TermLine's text (every
    field is a str), without a SafeString for each value."""
    html = getattr(value, "__html__", None)
    return str(html()) if html is not None else escape_text(value)


def side_view(system: SystemExplanation, side: Side) -> SideView:
    def rating(rank: float, value: float) -> str:
        return f"{format_rank(rank)}, {system.unit} {value_text(value)}"

    lines = []
    how = reverse("how_system", args=[system.system]) if side.terms else ""
    for key, value in side.terms.items():
        words = words_for(system.system, key)
        lines.append(
            TermLine(key, f"{how}#term-{key}", words.label, value_text(value), words.meaning, words.formula)
        )
    return SideView(
        side=side,
        before=rating(side.rank_before, side.rating_before),
        change=signed_text(side.change),
        after=rating(side.rank_after, side.rating_after),
        steps=steps(system.system, side.terms) if side.terms else [],
        terms=lines,
        rows=term_rows(lines),
    )


@require_GET
def game(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(
        Game.objects.select_related("rating_list", "club", "sheet", "white", "black"), pk=pk
    )
    explanation = explain_game(found)
    systems = [(each, [side_view(each, side) for side in each.sides]) for each in explanation.systems]
    context = {
        "game": found,
        "explanation": explanation,
        "pending": explanation.status is Status.PENDING,
        "forfeit": explanation.status is Status.FORFEIT,
        "systems": systems,
        **ripple_context(found),
    }
    return render(request, "ratings/game.html", context)


@require_GET
def adjustment(request: HttpRequest, pk: int) -> HttpResponse:
    found = get_object_or_404(
        RankAdjustment.objects.select_related("rating_list", "player", "entered_by"), pk=pk
    )
    return render(request, "ratings/adjustment.html", {"explanation": explain_adjustment(found)})
