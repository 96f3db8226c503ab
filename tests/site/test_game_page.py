"""The game page: every system of the list explains both players' changes,
the terms recombine to the change shown, and what the page shows as
"after" is the stored history (ratings/explain/games.py)."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse
from pytest_django import DjangoAssertNumQueries

from ratings import services
from ratings.engine.ranks import parse_rank
from ratings.explain.steps import signed_text
from ratings.models import Game, HistoryEntry
from ratings.services import GameRow
from tests.site.conftest import TOURNAMENT_DAY, History

if TYPE_CHECKING:
    from tests.support import TestResponse

pytestmark = pytest.mark.django_db


def half_away(value: Fraction) -> int:
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


# Each system's rule, written again from docs/rating-systems.md: the change
# the terms give.
def sagc(t: Mapping[str, Any]) -> float:
    product = t["LF"] * t["GSF"] * t["OF"] * t["GRF"] * t["HF"]
    assert product == t["product"]
    rounded = half_away(product)
    assert rounded == t["rounded"]
    boundary = t["boundary"] or ""
    if boundary.startswith("stopped"):
        limit = t["loss_limit"] if rounded < 0 else 999
        return float(limit - t["index"])
    return float(rounded)


def egf(t: Mapping[str, Any]) -> float:
    se = 1 / (1 + math.exp(t["beta_opponent"] - t["beta"]))
    assert se == pytest.approx(t["Se"], abs=1e-12)
    return float(t["weight"] * (t["con"] * (t["Sa"] - t["Se"]) + t["bonus"]))


def egf_old(t: Mapping[str, Any]) -> float:
    d = t["opponent_in_Se"] - t["rating_in_Se"]
    assert 1 / (math.exp(d / t["a"]) + 1) - t["epsilon"] / 2 == pytest.approx(t["Se"], abs=1e-12)
    return float(t["weight"] * t["con"] * (t["Sa"] - t["Se"]))


def ffg(t: Mapping[str, Any]) -> float:
    assert 1 / (math.exp(t["D"] / t["a"]) + 1) == pytest.approx(t["P"], abs=1e-12)
    return float(t["coefficient"] * t["K"] * (t["R"] - t["P"] + t["epsilon_half"]))


def ffg_old(t: Mapping[str, Any]) -> float:
    return float(t["stage_1_basic"] * t["stages_2_4_coefficient"] * t["stage_5_weight"])


def west_surrey(t: Mapping[str, Any]) -> float:
    assert parse_rank(t["rung_after"]) == pytest.approx(t["strength_after"])
    return float(round(t["strength_after"] - t["strength"], 6))


RULES: dict[str, Callable[[Mapping[str, Any]], float]] = {
    "sagc": sagc,
    "egf": egf,
    "egf-old": egf_old,
    "ffg": ffg,
    "ffg-old": ffg_old,
    "west-surrey": west_surrey,
}


def page(client: Client, game: Game) -> TestResponse:
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response


def test_every_system_explains_both_players_and_the_terms_give_the_change_shown(
    client: Client, history: History
) -> None:
    games = list(Game.objects.filter(rating_list=history.rating_list, forfeit=False).order_by("pk"))
    systems = history.rating_list.systems
    rated = dict.fromkeys(systems, 0)
    not_rated = dict.fromkeys(systems, 0)
    for game in games:
        context = page(client, game).context
        explanation = context["explanation"]
        assert explanation.status == "explained" and explanation.consistent
        assert [each.system for each in explanation.systems] == systems  # primary first
        for each, views in context["systems"]:
            for side, view in zip(each.sides, views, strict=True):
                assert view.side is side
                assert view.change == signed_text(side.change)
                if side.reason:
                    assert not side.terms and side.change == 0
                    not_rated[each.system] += 1
                    continue
                change = RULES[each.system](side.terms)
                assert change == pytest.approx(side.change, abs=1e-9)
                assert side.terms["change"] == side.change
                assert view.steps and view.terms
                rated[each.system] += 1
    assert all(rated.values()), rated
    # The 13x13, free, internet games and the jigo are rated by some systems, not all.
    assert any(not_rated.values()), not_rated


def test_after_is_what_the_history_stores(client: Client, history: History) -> None:
    for game in Game.objects.filter(rating_list=history.rating_list, forfeit=False)[:12]:
        for each in page(client, game).context["explanation"].systems:
            for side in each.sides:
                row = HistoryEntry.objects.get(game=game, system=each.system, player=side.player)
                assert (side.rank_after, side.rating_after) == (row.rank_after, row.rating_after)
                assert (side.rank_before, side.rating_before) == (row.rank_before, row.rating_before)
                assert side.stored


def test_a_stored_row_the_replay_does_not_give_is_flagged(client: Client, history: History) -> None:
    game = Game.objects.filter(rating_list=history.rating_list, forfeit=False).order_by("-date").first()
    assert game is not None
    row = HistoryEntry.objects.get(game=game, system="egf", player=game.black)
    HistoryEntry.objects.filter(pk=row.pk).update(rating_after=row.rating_after + 1)
    response = page(client, game)
    explanation = response.context["explanation"]
    assert not explanation.consistent
    flagged = [
        (each.system, side.colour) for each in explanation.systems for side in each.sides if not side.stored
    ]
    assert flagged == [("egf", "b")]
    html = response.content.decode()
    assert (
        "does not agree with the stored ratings" in html
        and html.count("the record sheet shows otherwise") == 1
    )


def test_a_tournament_game_is_explained_with_its_whole_period(client: Client, history: History) -> None:
    second_day = Game.objects.filter(rating_list=history.rating_list, date=TOURNAMENT_DAY.replace(day=17))
    game = second_day.order_by("-pk").first()
    assert game is not None
    explanation = page(client, game).context["explanation"]
    assert explanation.consistent
    egf = next(each for each in explanation.systems if each.system == "egf")
    # Rated from the ratings the players had when the Open began.
    assert all("period_changes" in side.terms for side in egf.sides)


def test_a_pending_recompute_shows_that_ratings_are_being_updated(client: Client, history: History) -> None:
    players = history.players
    late = date(2024, 3, 1)
    club = history.rating_list.clubs.first()
    assert club is not None
    services.save_sheet(
        club=club,
        date=late,
        rows=[GameRow(white=players[8], black=players[7], winner="black")],
    )  # entered late: the list is dirty from 1 March, nothing recomputed yet
    after = Game.objects.filter(rating_list=history.rating_list, date__gt=late).first()
    before = Game.objects.filter(rating_list=history.rating_list, date__lt=late, forfeit=False).first()
    assert after is not None and before is not None
    response = page(client, after)
    assert response.context["pending"] and not response.context["systems"]
    html = response.content.decode()
    assert "Ratings are being updated" in html and 'class="data terms"' not in html
    # A game before the dirty date is not affected: still explained.
    assert page(client, before).context["explanation"].status == "explained"


def test_a_tournament_that_goes_on_past_the_dirty_date_is_pending(client: Client, history: History) -> None:
    players = history.players
    first_day = Game.objects.filter(rating_list=history.rating_list, date=TOURNAMENT_DAY).first()
    club = history.rating_list.clubs.first()
    assert first_day is not None and club is not None
    services.save_sheet(
        club=club,
        date=TOURNAMENT_DAY.replace(day=17),
        rows=[GameRow(white=players[8], black=players[7], winner="black")],
    )
    assert page(client, first_day).context["pending"]  # its period is rated again


def test_a_forfeit_says_so_and_shows_no_terms(client: Client, history: History) -> None:
    response = page(client, history.forfeit)
    html = response.content.decode()
    assert response.context["forfeit"] and not response.context["systems"]
    assert "This game was a forfeit" in html and 'class="data terms"' not in html


def test_an_unknown_game_is_404(client: Client, db: None) -> None:
    assert client.get(reverse("game", args=[987654])).status_code == 404


def test_the_page_takes_a_bounded_number_of_queries(
    client: Client, history: History, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    game = Game.objects.filter(rating_list=history.rating_list, forfeit=False).order_by("-date").first()
    assert game is not None
    # Two reads of the players' states (each with JIT off around it on
    # PostgreSQL): the French ladders' players of the whole period, the other
    # systems' of the game's linked events (ratings/engine/linked.py); and
    # the ladders' latest checkpoint before the period (two queries), whose
    # known flags spare their games (stored.earlier_states).
    with django_assert_max_num_queries(20):
        assert page(client, game).context["explanation"].consistent


def test_each_term_links_to_its_rule(client: Client, history: History) -> None:
    game = Game.objects.filter(rating_list=history.rating_list, forfeit=False, kind="club", board=19).first()
    assert game is not None
    response = page(client, game)
    html = response.content.decode()
    for each, views in response.context["systems"]:
        for view in views:
            for term in view.terms:
                assert f'href="{reverse("how_system", args=[each.system])}#term-{term.key}"' in html
                assert term.label and term.meaning and term.formula
