"""Rank lists with lines that do not read: the valid lines are
imported, every rejected line is stored on the sync with its number, reason
and text, shown in the preview, and the committee confirms as before."""

from __future__ import annotations

import html
from datetime import date
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from ratings import committee
from ratings.models import Club, RankAdjustment, RankSync, RatingList
from tests.support import (
    ClientFor,
    MakePlayer,
    realdata,  # skips when the shared real-data folder is absent
)

DATA = Path(__file__).parent.parent / "data"


def upload(client: Client, data: bytes, name: str, rating_list: RatingList) -> RankSync:
    response = client.post(
        reverse("rank_sync_new"),
        {"rating_list": rating_list.pk, "file": SimpleUploadedFile(name, data), "format": ""},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    sync = RankSync.objects.get()
    assert response["Location"] == sync.get_absolute_url()
    return sync


# --- our own small file: tests/data/ranks-saga-bad-lines.csv ---------------------------
# Seven entries; line 4 gives the grade "banana", line 7 "42q".

SMALL = DATA / "ranks-saga-bad-lines.csv"


def test_the_rejected_lines_are_stored_on_the_sync(club: Club, make_player: MakePlayer) -> None:
    make_player("Ann Bee", rank=-10)
    committee.preview_rank_sync(club.rating_list, SMALL.read_bytes(), filename=SMALL.name)
    sync = RankSync.objects.get()  # read back: stored, not only handed back
    assert sync.read == 5
    assert [(r["line"], r["text"], r["column"]) for r in sync.rejected] == [
        (4, '"Cy Dee",S-103,banana', 3),
        (7, '"Eye Jay",S-106,42q', 3),
    ]
    assert all(r["reason"].startswith("rank: not a rank: ") for r in sync.rejected)
    assert "'banana'" in sync.rejected[0]["reason"] and "'42q'" in sync.rejected[1]["reason"]


def test_a_list_without_rejected_lines_stores_none(club: Club, make_player: MakePlayer) -> None:
    make_player("Ann Bee", rank=-10)
    committee.preview_rank_sync(club.rating_list, b'name,national id,rank\n"Ann Bee",S-1,8k\n')
    assert RankSync.objects.get().rejected == []


def test_the_preview_lists_each_rejected_line_with_number_reason_and_text(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    make_player("Ann Bee", rank=-10)
    make_player("Cy Dee", rank=-5)  # on the rejected line 4: not matched
    client = client_for("committee")
    sync = upload(client, SMALL.read_bytes(), SMALL.name, club.rating_list)
    page = html.unescape(client.get(sync.get_absolute_url()).content.decode())
    assert "Read 5, rejected 2, matched 1" in page
    assert "Rejected lines (2)" in page
    rows = page.split('<table class="data rejected">')[1].split("</table>")[0]
    assert '<td class="num">4</td>' in rows and '<td class="num">7</td>' in rows
    assert "rank: not a rank: 'banana'" in rows and '"Cy Dee",S-103,banana' in rows
    assert "rank: not a rank: '42q'" in rows and '"Eye Jay",S-106,42q' in rows
    # The list of syncs counts them too.
    listing = client.get(reverse("rank_syncs")).content.decode()
    assert '<td class="num">5</td><td class="num">2</td><td class="num">1</td>' in listing


def test_the_committee_confirms_the_valid_lines_as_before(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    ann = make_player("Ann Bee", rank=-10)
    client = client_for("committee")
    sync = upload(client, SMALL.read_bytes(), SMALL.name, club.rating_list)
    line = sync.lines.get(player=ann)
    response = client.post(sync.get_absolute_url(), {f"apply_{line.pk}": "on", "effective": "2024-06-01"})
    assert response.status_code == 302
    adjustment = RankAdjustment.objects.get()
    assert (adjustment.player_id, adjustment.rank, adjustment.date) == (ann.pk, -8, date(2024, 6, 1))
    page = html.unescape(client.get(sync.get_absolute_url()).content.decode())
    assert "Rejected lines (2)" in page and "Apply the ticked changes" not in page


def test_a_page_shows_at_most_its_share_of_rejected_lines_and_counts_the_rest(
    client_for: ClientFor, club: Club, make_player: MakePlayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ratings.views import committee as views

    monkeypatch.setattr(views, "REJECTED_SHOWN", 1)
    client = client_for("committee")
    sync = upload(client, SMALL.read_bytes(), SMALL.name, club.rating_list)
    page = html.unescape(client.get(sync.get_absolute_url()).content.decode())
    assert "banana" in page and "42q" not in page and "and 1 more" in page


# --- the real file: the EGD list of February 2019 ----------------------------------------


@pytest.mark.realfiles
def test_the_egd_list_of_february_2019_previews_its_corrupt_row(
    client_for: ClientFor, club: Club, make_player: MakePlayer
) -> None:
    data = realdata("allworld_lp-2019-02.html")
    minieri = make_player("Davide Minieri", rank=-1)  # line 26451: "Minieri Davide ... 3d"
    make_player("Danyun Qiu", rank=-1)  # only on the corrupt line 32372
    client = client_for("committee")
    sync = upload(client, data, "allworld_lp-2019-02.html", club.rating_list)
    # 45,524 player lines (its 'Number of players'), one of them corrupt.
    assert (sync.format, sync.read, len(sync.rejected)) == ("egd", 45_523, 1)
    (bad,) = sync.rejected
    assert (bad["line"], bad["text"][:20]) == (32372, "13462834  Qiu Danyun")
    lines = {line.player.name: line for line in sync.lines.select_related("player")}
    assert lines["Danyun Qiu"].match == "missing"
    assert (lines["Davide Minieri"].match, lines["Davide Minieri"].national_rank) == ("name", 2.0)
    page = html.unescape(client.get(sync.get_absolute_url()).content.decode())
    assert "Read 45523, rejected 1," in page
    rows = page.split('<table class="data rejected">')[1].split("</table>")[0]
    assert '<td class="num">32372</td>' in rows and bad["reason"] in rows and "13462834  Qiu Danyun" in rows
    line = lines["Davide Minieri"]
    response = client.post(sync.get_absolute_url(), {f"apply_{line.pk}": "on", "effective": "2024-06-01"})
    assert response.status_code == 302
    assert RankAdjustment.objects.get().player_id == minieri.pk
