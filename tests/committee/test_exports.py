"""Exports for national bodies: the page, the files, and the round trip back in."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from collections import Counter
from collections.abc import Iterator
from datetime import date
from decimal import Decimal

import pytest
import time_machine
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from ratings import committee, exchange, services
from ratings.committee import CommitteeError, exports
from ratings.exchange import name_key
from ratings.models import Club, Game, Player
from ratings.services import GameRow
from tests.support import ROLES, ClientFor, MakePlayer, logged_in, make_pool


@pytest.fixture(autouse=True)
def _today() -> Iterator[None]:
    with time_machine.travel(date(2024, 6, 15), tick=False):
        yield


@pytest.fixture
def season(club: Club, make_player: MakePlayer) -> dict[str, Player]:
    """Five club games over three evenings (one handicap, one jigo, one komi 7.5) and a forfeit."""
    ann = make_player("Ann Bee", rank=-5, egd_pin="12345678")
    cat = make_player("Cat Dee", rank=-8, aga_id="7206")
    dan = make_player("Dan Eel", rank=-12, ffg_licence="1800014")
    sheet = services.save_sheet
    sheet(club=club, date=date(2024, 3, 5), event="Tuesday club night", rows=[
        GameRow(white=ann, black=cat, winner="white"),
        GameRow(white=dan, black=ann, winner="black", handicap=3, komi=Decimal("0.5")),
    ])  # fmt: skip
    sheet(club=club, date=date(2024, 3, 12), rows=[
        GameRow(white=cat, black=dan, winner="jigo", komi=Decimal("6.0")),
        GameRow(white=ann, black=dan, winner="white", forfeit=True),
    ])  # fmt: skip
    sheet(club=club, date=date(2024, 4, 2), rows=[
        GameRow(white=cat, black=ann, winner="black"),
        GameRow(white=dan, black=cat, winner="white", handicap=2, komi=Decimal("0.5"), kind="free"),
    ])  # fmt: skip
    return {"ann": ann, "cat": cat, "dan": dan}


def played(club: Club, **filters: object) -> list[Game]:
    return list(
        Game.objects.filter(club=club, forfeit=False, **filters).select_related("white", "black").timeline()
    )


def same_game(g: Game, with_date: bool = True, with_komi: bool = True) -> tuple[object, ...]:
    key = (name_key(g.white.name), name_key(g.black.name), g.handicap, g.winner)
    return key + ((g.date,) if with_date else ()) + ((g.komi,) if with_komi else ())


# --- the files ------------------------------------------------------------------


def test_the_csv_has_the_documented_fields_and_one_row_per_played_game(
    club: Club, season: dict[str, Player]
) -> None:
    name, media_type, text = exports.export_games(club.rating_list, None, None, "csv")
    assert (name, media_type) == ("sagc-games-start-2024-06-15.csv", "text/csv")  # named after the list
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(rows[0]) == exchange.GAME_FIELDS
    # Five played games in timeline order; the forfeit is left out (never rated, ratings/engine/base.py).
    assert [(r["date"], r["white"], r["black"], r["winner"]) for r in rows] == [
        ("2024-03-05", "Ann Bee", "Cat Dee", "white"),
        ("2024-03-05", "Dan Eel", "Ann Bee", "black"),
        ("2024-03-12", "Cat Dee", "Dan Eel", "jigo"),
        ("2024-04-02", "Cat Dee", "Ann Bee", "black"),
        ("2024-04-02", "Dan Eel", "Cat Dee", "white"),
    ]
    first = rows[0]
    assert (first["white_egd_pin"], first["black_aga_id"], first["white_rank"], first["event"]) == (
        "12345678", "7206", "5k", "Tuesday club night",
    )  # fmt: skip
    assert (rows[1]["handicap"], rows[1]["komi"], rows[4]["kind"]) == ("3", "0.5", "free")
    # Rounds (formats.md, "Rounds of a club export": 1 + the later of the two players'
    # previous rounds): Ann-Cat 1; Dan(0)-Ann(1) 2; Cat(1)-Dan(2) 3; Cat(3)-Ann(2) 4; Dan(3)-Cat(4) 5.
    assert [r["round"] for r in rows] == ["1", "2", "3", "4", "5"]


def test_the_period_limits_the_games(club: Club, season: dict[str, Player]) -> None:
    _, _, text = exports.export_games(club.rating_list, date(2024, 3, 6), date(2024, 3, 31), "json")
    data = json.loads(text)
    assert [(g["date"], g["winner"]) for g in data["games"]] == [("2024-03-12", "jigo")]


def test_an_empty_period_is_refused_with_a_reason(club: Club, season: dict[str, Player]) -> None:
    with pytest.raises(CommitteeError, match="no game between 2023-01-01 and 2023-12-31"):
        exports.export_games(club.rating_list, date(2023, 1, 1), date(2023, 12, 31), "h9")


def test_the_h9_is_a_class_c_club_ladder(club: Club, season: dict[str, Player]) -> None:
    _, media_type, text = exports.export_games(
        club.rating_list, date(2024, 1, 1), date(2024, 6, 30), "h9", club=club
    )
    assert media_type == "text/plain"
    assert "CL[C]" in text and "EV[Stellenbosch Go Club club ladder 2024-01-01 to 2024-06-30]" in text
    assert "|12345678" in text  # Ann's EGD PIN
    _, _, whole = exports.export_games(club.rating_list, date(2024, 1, 1), date(2024, 6, 30), "h9")
    assert "EV[South African Go Clubs club ladder 2024-01-01 to 2024-06-30]" in whole


def test_a_list_export_has_every_club_of_the_list_and_a_club_export_only_its_own(
    club: Club, other_club: Club, season: dict[str, Player]
) -> None:
    """Players of the list meet at any of its clubs: the list's
    export has the game played at Cape Town, Stellenbosch's export does not."""
    services.save_sheet(club=other_club, date=date(2024, 5, 7), rows=[
        GameRow(white=season["ann"], black=season["dan"], winner="black"),
    ])  # fmt: skip
    _, _, whole = exports.export_games(club.rating_list, None, None, "csv")
    name, _, own = exports.export_games(club.rating_list, None, None, "csv", club=club)
    assert name == "stellenbosch-games-start-2024-06-15.csv"
    assert [r["date"] for r in csv.DictReader(io.StringIO(whole))][-1] == "2024-05-07"
    assert len(list(csv.DictReader(io.StringIO(whole)))) == 6
    assert "2024-05-07" not in [r["date"] for r in csv.DictReader(io.StringIO(own))]
    assert len(list(csv.DictReader(io.StringIO(own)))) == 5


@pytest.mark.parametrize("fmt", ["csv", "json", "h9", "tou", "aga"])
def test_what_is_exported_imports_back_to_the_same_games(
    club: Club, season: dict[str, Player], fmt: str
) -> None:
    _, _, text = exports.export_games(club.rating_list, None, None, fmt)
    fresh = make_pool(name="Fresh", slug="fresh")
    report = committee.import_tournament(fresh, text.encode(), filename=f"export.{fmt}")
    back = played(fresh)
    assert len(back) == report.games
    original = played(club)
    if fmt in exchange.RATED_FORMATS:
        # Files of games to rate leave out the free game (tests/committee/test_export_rated.py).
        original = [g for g in original if g.kind != "free"]
    if fmt in ("csv", "json"):
        # Every field of the record survives: dates, komi, kind.
        assert Counter((*same_game(g), g.kind) for g in back) == Counter(
            (*same_game(g), g.kind) for g in original
        )
    elif fmt in ("h9", "tou"):
        # No per-game dates or komi in these files: the pairings, colours, handicap and winner survive,
        # and komi follows the tournament's komi (6.5, the most common) / 0.5 with handicap.
        assert Counter(same_game(g, with_date=False, with_komi=False) for g in back) == Counter(
            same_game(g, with_date=False, with_komi=False) for g in original
        )
        assert {(g.handicap > 0, g.komi) for g in back} == {(False, Decimal("6.5")), (True, Decimal("0.5"))}
    else:
        # AGA: no jigo (formats.md), the other games the same.
        assert Counter(same_game(g, with_date=False) for g in back) == Counter(
            same_game(g, with_date=False) for g in original if g.winner != "jigo"
        )
        assert any("jigo" in item for item in report.skipped)
    # National ids travel with the players.
    ids = {"csv": ["egd_pin", "ffg_licence", "aga_id"], "json": ["egd_pin", "ffg_licence", "aga_id"],
           "h9": ["egd_pin"], "tou": ["ffg_licence"], "aga": ["aga_id"]}[fmt]  # fmt: skip
    for attr in ids:
        [player] = [p for p in season.values() if getattr(p, attr)]
        assert name_key(
            Player.objects.get(rating_list=fresh.rating_list, **{attr: getattr(player, attr)}).name
        ) == name_key(player.name)


# --- the page ----------------------------------------------------------------------


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_of_the_list_exports(
    role: str, client_for: ClientFor, club: Club, season: dict[str, Player]
) -> None:
    """Exports are the committee's now: volunteers no longer export."""
    response = client_for(role).get(
        reverse("export"),
        {
            "rating_list": str(club.rating_list.pk),
            "club": str(club.pk),
            "format": "csv",
            "start": "",
            "end": "",
        },
    )
    if role == "committee":
        assert response.status_code == 200
        assert (
            response["Content-Disposition"]
            == 'attachment; filename="stellenbosch-games-start-2024-06-15.csv"'
        )
        assert response["Content-Type"] == "text/csv; charset=utf-8"
        assert response.getvalue().decode().count("\n") == 6
    else:
        assert response.status_code == (302 if role == "anonymous" else 403)


@pytest.mark.parametrize("who", ["volunteer_b", "committee_2", "site_admin"])
def test_the_committee_of_another_list_cannot_export_this_one(
    who: str, outsiders: dict[str, User], club: Club, season: dict[str, Player]
) -> None:
    client = logged_in(outsiders[who])
    response = client.get(reverse("export"), {"rating_list": str(club.rating_list.pk), "format": "csv"})
    if who == "site_admin":
        assert response.status_code == 200 and response.getvalue().decode().count("\n") == 6
    else:
        assert response.status_code == 403


@pytest.mark.parametrize("fmt", ["csv", "json", "h9", "tou", "aga"])
def test_every_format_downloads_with_its_extension(
    client_for: ClientFor, club: Club, season: dict[str, Player], fmt: exchange.GameFormat
) -> None:
    response = client_for("committee").get(
        reverse("export"), {"rating_list": str(club.rating_list.pk), "format": fmt}
    )
    extension, media_type = exchange.FILE_TYPES[fmt]
    assert response.status_code == 200 and response["Content-Type"].startswith(media_type)
    assert response["Content-Disposition"].endswith(f'{extension}"')


def test_the_page_without_a_format_is_the_form(client_for: ClientFor, club: Club) -> None:
    response = client_for("committee").get(reverse("export"))
    assert response.status_code == 200 and b'name="format"' in response.content
    assert b'name="rating_list"' in response.content and b'name="club"' in response.content
    assert client_for("volunteer").get(reverse("export")).status_code == 403  # the committee's page


def test_a_period_ending_before_it_starts_is_an_error_next_to_the_end(
    client_for: ClientFor, club: Club, season: dict[str, Player]
) -> None:
    response = client_for("committee").get(
        reverse("export"),
        {
            "rating_list": str(club.rating_list.pk),
            "format": "csv",
            "start": "2024-05-01",
            "end": "2024-04-01",
        },
    )
    assert response.status_code == 400
    assert "the period ends (2024-04-01) before it starts (2024-05-01)" in response.content.decode()


def test_an_empty_period_on_the_page_says_so(
    client_for: ClientFor, club: Club, season: dict[str, Player]
) -> None:
    response = client_for("committee").get(
        reverse("export"),
        {
            "rating_list": str(club.rating_list.pk),
            "format": "aga",
            "start": "2020-01-01",
            "end": "2020-02-01",
        },
    )
    assert (
        response.status_code == 400
        and "has no game between 2020-01-01 and 2020-02-01" in response.content.decode()
    )


@pytest.mark.parametrize("role", ROLES)
def test_only_the_committee_generates_an_api_token(role: str, client_for: ClientFor, club: Club) -> None:
    response = client_for(role).post(reverse("export_token"), {"list": club.rating_list.slug})
    club.rating_list.refresh_from_db()
    if role == "committee":
        assert response.status_code == 302 and len(club.rating_list.api_token_hash) == 64
    else:
        assert response.status_code == (302 if role == "anonymous" else 403)
        assert club.rating_list.api_token_hash == ""


def test_the_committee_of_another_list_cannot_make_this_lists_token(
    outsiders: dict[str, User], club: Club
) -> None:
    client = Client()
    client.force_login(outsiders["committee_2"])
    assert client.post(reverse("export_token"), {"list": club.rating_list.slug}).status_code == 403
    club.rating_list.refresh_from_db()
    assert club.rating_list.api_token_hash == ""


def test_regenerating_replaces_the_token_shown_once_and_stored_as_a_hash(
    client_for: ClientFor, club: Club
) -> None:
    old = committee.new_api_token(club.rating_list)
    old_hash = club.rating_list.api_token_hash
    client = client_for("committee")
    page = client.post(reverse("export_token"), {"list": club.rating_list.slug}, follow=True).content.decode()
    club.rating_list.refresh_from_db()
    assert club.rating_list.api_token_hash and club.rating_list.api_token_hash != old_hash
    assert committee.list_for_token(old) is None
    [token] = re.findall(r'<code class="token">([^<]+)</code>', page)
    assert committee.list_for_token(token) == club.rating_list
    assert hashlib.sha256(token.encode()).hexdigest() == club.rating_list.api_token_hash
    assert token not in club.rating_list.api_token_hash and "Regenerate" in page
    again = client.get(reverse("export")).content.decode()
    assert token not in again and "Regenerate" in again  # shown once


def test_regenerating_asks_first_and_the_page_links_the_api(client_for: ClientFor, club: Club) -> None:
    page = client_for("committee").get(reverse("export")).content.decode()
    assert "confirm(" not in page  # no token yet: nothing to lose
    assert f'<a href="{reverse("api_games")}">open it</a>' in page
    committee.new_api_token(club.rating_list)
    page = client_for("committee").get(reverse("export")).content.decode()
    assert "stops working at once. Regenerate it?" in page
