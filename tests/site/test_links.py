"""Every place a rating change shows links to its explanation: the record
sheet (a game's change, an adjustment's date), the saved sheet and the log."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Game, LogEntry, RankAdjustment
from tests.site.conftest import History
from tests.support import ClientFor

pytestmark = pytest.mark.django_db


def test_the_record_sheet_links_each_change_to_its_explanation(client: Client, history: History) -> None:
    player = history.players[5]  # played games and was demoted by the committee
    html = client.get(reverse("player", args=[player.slug])).content.decode()
    table = html.split('class="data sheet"')[1]
    games = set(re.findall(r'<td[^>]*><a href="/games/(\d+)/" title="How this change was computed">', table))
    played = Game.objects.of_player(player).filter(rating_list=history.rating_list)
    assert games == {str(game.pk) for game in played}
    adjustments = re.findall(r'<tr class="adjustment">.*?<a href="/adjustments/(\d+)/"', table, re.S)
    assert adjustments == [str(history.demotion.pk)]


def test_the_saved_sheet_links_each_game(client: Client, history: History) -> None:
    game = Game.objects.filter(rating_list=history.rating_list).first()
    assert game is not None
    html = client.get(reverse("sheet", args=[game.sheet_id])).content.decode()
    linked = set(re.findall(r'<a class="why" href="/games/(\d+)/"', html))
    assert linked == {str(pk) for pk in game.sheet.games.values_list("pk", flat=True)}


def test_the_log_links_games_and_adjustments(client: Client, history: History) -> None:
    html = client.get(reverse("log"), {"player": history.players[5].slug}).content.decode()
    entries = LogEntry.objects.filter(players=history.players[5])
    games = {str(pk) for pk in entries.exclude(game=None).values_list("game_id", flat=True)}
    assert games and set(re.findall(r'<a class="why" href="/games/(\d+)/"', html)) == games
    assert re.findall(r'<a class="why" href="/adjustments/(\d+)/"', html) == [str(history.demotion.pk)]


@pytest.mark.parametrize("role", ["anonymous", "player", "volunteer", "committee"])
def test_anyone_who_reads_a_record_sheet_reads_the_explanations(
    client_for: ClientFor, history: History, role: str
) -> None:
    client = client_for(role)
    game = Game.objects.filter(rating_list=history.rating_list).first()
    adjustment = RankAdjustment.objects.filter(rating_list=history.rating_list).first()
    assert game is not None and adjustment is not None
    assert client.get(reverse("player", args=[history.players[0].slug])).status_code == 200
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    assert client.get(reverse("adjustment", args=[adjustment.pk])).status_code == 200
