"""The game page's template, read without a browser: each side is either
a table of terms (four cells a term, its rule linked) or one sentence
saying why the system does not rate the game."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Game
from tests.site.conftest import History

pytestmark = pytest.mark.django_db


def articles(html: str) -> list[str]:
    return re.findall(r'<article class="explained-side">(.*?)</article>', html, re.S)


def test_a_game_some_systems_do_not_rate_says_why_in_those(client: Client, history: History) -> None:
    small = Game.objects.get(rating_list=history.rating_list, board=13)
    response = client.get(reverse("game", args=[small.pk]))
    sides = articles(response.content.decode())
    by_system = {name: sides[2 * i : 2 * i + 2] for i, name in enumerate(history.rating_list.systems)}
    assert all('class="data terms"' in side for side in by_system["sagc"])  # SAGC rates any board
    for side in by_system["egf"]:  # the EGF rates 19x19 games only
        assert 'class="data terms"' not in side
        assert (
            '<p class="not-rated">Not rated in this system: this game does not count (a board other' in side
        )


def test_a_game_no_system_rates_says_why_in_each(client: Client, history: History) -> None:
    free = Game.objects.get(rating_list=history.rating_list, kind="free")
    response = client.get(reverse("game", args=[free.pk]))
    html = response.content.decode()
    sides = articles(html)
    assert len(sides) == 2 * len(history.rating_list.systems)
    reasons = [re.search(r'<p class="not-rated">Not rated in this system: (.*?)\.', side) for side in sides]
    assert all(reasons), "a free game counts in no system"
    sagc = reasons[0]  # SAGC, the primary system, first
    assert sagc is not None and "free games have a Game Status Factor of 0" in sagc.group(1)
    assert 'class="data terms"' not in html


def test_a_rated_side_writes_every_term_as_four_cells(client: Client, history: History) -> None:
    game = Game.objects.filter(rating_list=history.rating_list, kind="club", board=19, forfeit=False).first()
    assert game is not None
    response = client.get(reverse("game", args=[game.pk]))
    html = response.content.decode()
    views = [view for _, views in response.context["systems"] for view in views]
    for view, side in zip(views, articles(html), strict=True):
        rows = re.findall(r'<tr data-term="([^"]+)">(.*?)</tr>', side, re.S)
        assert [key for key, _ in rows] == list(view.side.terms)
        for _, row in rows:
            assert row.count("<td") == 4
        assert side.count("<li>") == len(view.steps) > 0
        assert f"<b>{view.before}</b>" in side and f"<b>{view.after}</b>" in side


def test_the_terms_rows_are_what_the_templates_loop_wrote() -> None:
    """views.games.term_rows writes the rows the template's loop did,
    escaped the same way: text escaped, a value marked safe as it is."""
    from django.template import engines
    from django.utils.safestring import mark_safe

    from ratings.views.games import TermLine, term_rows

    lines = [
        TermLine("e", "/how/egf/#term-e", "ε <term>", "0.0160", "a \"quoted\" & 'apostrophe'", "a < b"),
        TermLine("k", "/how/sagc/#term-k", "K", "-3", mark_safe("<i>kept</i>"), "K × (S − E)"),
    ]
    loop = engines["django"].from_string(
        "{% for term in terms %}\n"
        '        <tr data-term="{{ term.key }}"><td class="term"><a href="{{ term.href }}">{{ term.label }}</a>'
        '</td><td class="value">{{ term.value }}</td><td>{{ term.meaning }}</td>'
        '<td class="formula">{{ term.formula }}</td></tr>\n'
        "      {% endfor %}"
    )
    written = term_rows(lines)
    assert written == loop.render({"terms": lines})
    assert "&lt;term&gt;" in written and "<i>kept</i>" in written and "&quot;quoted&quot;" in written
