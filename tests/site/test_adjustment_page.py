"""The adjustment page: what a committee adjustment did in each system,
and why (a national rank sync, or the committee's own reason)."""

from __future__ import annotations

from datetime import date
from typing import TYPE_CHECKING

import pytest
from django.test import Client
from django.urls import reverse

from ratings import services
from ratings.engine.ranks import format_rank
from ratings.models import HistoryEntry, RankAdjustment
from tests.site.conftest import History

if TYPE_CHECKING:
    from tests.support import TestResponse

pytestmark = pytest.mark.django_db


def page(client: Client, adjustment: RankAdjustment) -> TestResponse:
    response = client.get(reverse("adjustment", args=[adjustment.pk]))
    assert response.status_code == 200
    return response


def test_a_rank_sync_names_the_national_list_and_both_ranks(client: Client, history: History) -> None:
    response = page(client, history.sync)
    explanation = response.context["explanation"]
    assert explanation.sync_line is not None
    html = response.content.decode()
    sync = explanation.sync_line.sync
    assert sync.as_of is None  # a CSV list gives no date of its own: the import's
    assert f"A rank sync with the national list imported on {sync.created_at.date().isoformat()}" in html
    assert "saga-2024-03.csv" in html
    sync.as_of = date(2024, 2, 15)
    sync.save()
    assert "the national list of 2024-02-15 (CSV" in page(client, history.sync).content.decode()
    assert f"gives Player D {format_rank(history.sync.rank)} where this list had 10k" in html
    assert "promoted 3 ranks" in html  # 10k to 7k


def test_a_demotion_by_the_committee_gives_its_reason_and_every_systems_values(
    client: Client, history: History
) -> None:
    response = page(client, history.demotion)
    explanation = response.context["explanation"]
    assert not explanation.pending and explanation.sync_line is None
    html = response.content.decode()
    assert "The committee&#x27;s reason: a long break from the game." in html
    assert [row.system for row in explanation.rows] == history.rating_list.systems
    for row in explanation.rows:
        stored = HistoryEntry.objects.get(adjustment=history.demotion, system=row.system)
        assert (row.rank_before, row.rating_before, row.rank_after, row.rating_after) == (
            stored.rank_before,
            stored.rating_before,
            stored.rank_after,
            stored.rating_after,
        )
        assert f"<td>{row.before}</td><td>{row.after}</td><td>{row.outcome}</td>" in html
    sagc = explanation.rows[0]
    assert sagc.system == "sagc" and sagc.outcome == "demoted 1 rank" and sagc.rating_after == 0
    assert "In South African Go Clubs that is demoted 1 rank: from 5k to 6k." in html


def test_a_pending_recompute_shows_that_ratings_are_being_updated(client: Client, history: History) -> None:
    later = services.add_adjustment(player=history.players[0], date=date(2024, 3, 20), rank=-24, reason="")
    response = page(client, later)
    assert response.context["explanation"].pending and not response.context["explanation"].rows
    html = response.content.decode()
    assert "Ratings are being updated" in html
    assert "The committee set the rank by hand and gave no reason." in html
    # The earlier ones are not affected by a change from 20 March on.
    assert not page(client, history.demotion).context["explanation"].pending


def test_an_unknown_adjustment_is_404(client: Client, db: None) -> None:
    assert client.get(reverse("adjustment", args=[987654])).status_code == 404
