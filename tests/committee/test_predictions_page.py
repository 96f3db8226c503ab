"""The committee's page: which system predicts the list's results best.
The figures are computed after a recompute and stored
(ratings/predictions.py); the page reads them."""

from __future__ import annotations

import math
from datetime import date, timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from pytest_django import Settings

from ratings import predictions
from ratings.models import Club, ListEvaluation, RatingList
from ratings.presentation.calibration_chart import MAX_RADIUS, PAD, SIZE, calibration_chart
from ratings.recompute import recompute_list
from ratings.services import GameRow, save_sheet
from tests.support import ClientFor, MakePlayer


@pytest.fixture
def rated(club: Club, make_player: MakePlayer) -> RatingList:
    """Two games by the SAGC rule (5k gives 8k three stones), one won by each side."""
    alice, bob = make_player("Alice Mokoena", rank=-5), make_player("Bob Smit", rank=-8)
    day = date.today() - timedelta(days=3)
    rows = [
        GameRow(white=alice, black=bob, winner="white", handicap=3, komi=None),
        GameRow(white=alice, black=bob, winner="black", handicap=3, komi=None),
    ]
    save_sheet(club=club, date=day, rows=rows)
    recompute_list(club.rating_list_id, full=True)
    club.rating_list.refresh_from_db()
    return club.rating_list


def test_a_recompute_stores_the_figures_for_the_committee(rated: RatingList) -> None:
    stored = ListEvaluation.objects.get(rating_list=rated)
    assert stored.games == 2 and stored.systems == ["sagc"]
    assert stored.generation == rated.clean_generation
    # Always 50 %: log-loss ln 2, Brier 1/4, half the favourites right.
    even = stored.tables["overall"]["even"]
    assert even["log_loss"] == pytest.approx(math.log(2))
    assert even["brier"] == pytest.approx(0.25)
    assert even["accuracy"] == pytest.approx(0.5)
    # SAGC's first prediction is the prior's curve at x = -5 - (-8) - 3 = 0: 50 %.
    assert [b[2] for b in stored.calibration["even"]] == [2]
    assert set(stored.tables) == {"overall", "handicap 2-4", "rank 1k-9k"}
    assert set(stored.curves) == {"sagc", "ranks"}


def test_the_committee_sees_the_tables_and_the_calibration_chart(
    rated: RatingList, client_for: ClientFor
) -> None:
    response = client_for("committee").get(reverse("list_predictions", args=[rated.slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('data-predictor="sagc"') >= 4  # overall, handicap band, rank band, chart
    assert "0.6931" in page and "0.2500" in page and "50.0 %" in page  # the even baseline
    assert "Always 50 % (baseline)" in page and "Declared ranks only (baseline)" in page
    assert "By handicap (stones)" in page and "By rank (mean of the two)" in page
    assert "<caption>2-4 stones</caption>" in page and "<caption>Mean rank 1k-9k</caption>" in page
    assert "<svg" in page and "<circle" in page
    assert "over 2 games" in page


def test_figures_older_than_the_games_say_so(rated: RatingList, club: Club, client_for: ClientFor) -> None:
    ListEvaluation.objects.filter(rating_list=rated).update(generation=rated.clean_generation + 1)
    page = client_for("committee").get(reverse("list_predictions", args=[rated.slug])).content.decode()
    assert "games have changed since" in page


def test_before_any_figures_the_page_says_when_they_come(club: Club, client_for: ClientFor) -> None:
    page = client_for("committee").get(reverse("list_predictions", args=[club.rating_list.slug]))
    assert page.status_code == 200
    assert "Not computed yet" in page.content.decode()


def test_compute_now_computes_them(club: Club, make_player: MakePlayer, client_for: ClientFor) -> None:
    alice, bob = make_player("Alice Mokoena", rank=-5), make_player("Bob Smit", rank=-8)
    save_sheet(
        club=club, date=date.today(), rows=[GameRow(white=alice, black=bob, winner="white", handicap=3)]
    )
    response = client_for("committee").post(reverse("list_predictions_compute", args=[club.rating_list.slug]))
    assert response.status_code == 302
    assert ListEvaluation.objects.get(rating_list=club.rating_list).games == 1


@pytest.mark.parametrize("role", ["anonymous", "player", "volunteer"])
def test_only_the_committee_sees_the_page(club: Club, client_for: ClientFor, role: str) -> None:
    response = client_for(role).get(reverse("list_predictions", args=[club.rating_list.slug]))
    if role == "anonymous":
        assert response.status_code == 302 and reverse("login") in response["Location"]
    else:
        assert response.status_code == 403


def test_another_lists_committee_is_refused(club: Club, outsiders: dict[str, User]) -> None:
    from django.test import Client

    client = Client()
    client.force_login(outsiders["committee_2"])
    assert client.get(reverse("list_predictions", args=[club.rating_list.slug])).status_code == 403


def test_with_a_broker_the_figures_are_enqueued_not_computed(
    settings: Settings, monkeypatch: pytest.MonkeyPatch, club: Club
) -> None:
    from ratings import tasks

    sent: list[tuple[int, bool]] = []
    monkeypatch.setattr(tasks.evaluate_list_task, "delay", lambda *args: sent.append(args))
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/15"
    predictions.schedule(club.rating_list_id)
    assert sent == [(club.rating_list_id, False)]
    assert not ListEvaluation.objects.exists()


def test_the_task_computes_the_figures(rated: RatingList) -> None:
    from ratings.tasks import evaluate_list_task

    ListEvaluation.objects.all().delete()
    assert evaluate_list_task(rated.pk) == 2
    assert ListEvaluation.objects.get().games == 2


def test_the_calibration_chart_puts_each_band_at_its_mean_prediction_and_outcome() -> None:
    bins = {"sagc": [[0.5, 0.6, 4, 0.5, 0.75], [0.9, 1.0, 1, 0.9, 1.0]], "ranks": [[0.5, 0.6, 1, 0.55, 0.0]]}
    chart = calibration_chart(bins, {"sagc": "SAGC"}, ["sagc", "ranks"])
    assert chart is not None
    inner = SIZE - 2 * PAD  # 248 pixels for 0..1
    sagc, ranks = chart.series
    first, second = sagc.dots
    assert (first.x, first.y) == (PAD + inner * 0.5, SIZE - PAD - inner * 0.75)  # (160, 98)
    assert first.r == MAX_RADIUS  # the most games
    assert second.r == round(MAX_RADIUS * math.sqrt(1 / 4), 1)  # area in proportion to the games
    assert sagc.points == f"{first.x},{first.y} {second.x},{second.y}"
    assert ranks.label == "ranks" and ranks.colour != sagc.colour
    assert "White won 75 % of 4 games" in first.title
    assert calibration_chart({}, {}, ["sagc"]) is None


def test_the_figures_are_due_only_for_a_clean_list_not_evaluated_at_its_generation(club: Club) -> None:
    from ratings import predictions
    from ratings.models import RatingList

    rating_list = club.rating_list
    assert predictions.is_due(rating_list.pk), "never evaluated"
    predictions.compute(rating_list.pk)
    assert not predictions.is_due(rating_list.pk), (
        "evaluated at this generation: a queued evaluation coalesces"
    )
    RatingList.objects.filter(pk=rating_list.pk).update(clean_generation=7)
    assert predictions.is_due(rating_list.pk), "a later recompute made a new generation"
    RatingList.objects.filter(pk=rating_list.pk).update(dirty_from="2024-01-01")
    assert not predictions.is_due(rating_list.pk), (
        "a dirty list has a recompute coming, which schedules its own"
    )
