"""Rated exports leave out what each format's body does not rate, and say so
(the export page, the command): tests per format, read back by our own readers."""

from __future__ import annotations

import io
from datetime import date

import pytest
from django.core.management import call_command
from django.urls import reverse

from ratings import committee, exchange, services
from ratings.committee import CommitteeError, exports
from ratings.models import Club, Player
from ratings.services import GameRow
from tests.support import ROLES, ClientFor, MakePlayer, refused_as


@pytest.fixture
def mixed(club: Club, make_player: MakePlayer) -> dict[str, Player]:
    """One evening of every kind of game: a club and a tournament game on
    19x19, a free game, an internet game, a 13x13 club game, a 20-minute game
    and a forfeit."""
    ann, bob, cat, dan = (make_player(n, rank=-5) for n in ("Ann Bee", "Bob Cee", "Cat Dee", "Dan Eel"))
    services.save_sheet(club=club, date=date(2024, 3, 5), rows=[
        GameRow(white=ann, black=bob, winner="white"),
        GameRow(white=cat, black=dan, winner="black", kind="tournament"),
        GameRow(white=ann, black=cat, winner="white", kind="free"),
        GameRow(white=bob, black=dan, winner="black", kind="internet"),
        GameRow(white=ann, black=dan, winner="white", board=13),
        GameRow(white=bob, black=cat, winner="white", minutes=20),
        GameRow(white=dan, black=ann, winner="white", forfeit=True),
    ])  # fmt: skip
    return {"ann": ann, "bob": bob, "cat": cat, "dan": dan}


def pairs_read_back(club: Club, fmt: exchange.GameFormat, event_class: str = "C") -> set[tuple[str, str]]:
    """(White, Black) of every game of the exported file, as our own reader reads it."""
    _, _, text = exports.export_games(club.rating_list, None, None, fmt, event_class=event_class)
    tournament = exchange.read_tournament(text.encode(), format=fmt)
    # Compared without word order: the files write surnames first ("Bee Ann").
    name = {p.key: exchange.name_key(p.name) for p in tournament.players}
    return {(name[g.white], name[g.black]) for g in tournament.games}


def pair(white: str, black: str) -> tuple[str, str]:
    return exchange.name_key(white), exchange.name_key(black)


CLUB, TOURNAMENT, FAST = pair("Ann Bee", "Bob Cee"), pair("Cat Dee", "Dan Eel"), pair("Bob Cee", "Cat Dee")


@pytest.mark.parametrize(
    ("fmt", "written"),
    [("h9", {CLUB, TOURNAMENT}), ("tou", {CLUB, TOURNAMENT}), ("aga", {CLUB, TOURNAMENT, FAST})],
)
def test_each_rated_file_holds_only_the_games_its_body_rates(
    club: Club, mixed: dict[str, Player], fmt: exchange.GameFormat, written: set[tuple[str, str]]
) -> None:
    assert pairs_read_back(club, fmt) == written


def test_an_egd_class_d_file_holds_the_internet_games(club: Club, mixed: dict[str, Player]) -> None:
    assert pairs_read_back(club, "h9", event_class="D") == {pair("Bob Cee", "Dan Eel")}
    _, _, text = exports.export_games(club.rating_list, None, None, "h9", event_class="D")
    assert "; CL[D]" in text


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_game_records_keep_every_game_but_the_forfeit(
    club: Club, mixed: dict[str, Player], fmt: exchange.GameFormat
) -> None:
    assert len(pairs_read_back(club, fmt)) == 6


@pytest.mark.parametrize(
    ("fmt", "summary"),
    [
        ("h9", [
            "2 games written (EGD class C: club ladder, games over the board); 5 left out:",
            "1 × 13×13 board: the EGD rates 19×19 games only",
            "1 × 20 minutes' main time: the EGD rates no game under 25 minutes",
            "1 × free or teaching game: not rated (weight 0 in the SAGC rules)",
            "1 × internet game: the EGD rates games played online only as class D; export them as a class D file",
            "1 × won or lost by default: recorded, never rated",
        ]),
        ("aga", [
            "3 games written; 4 left out:",
            "1 × 13×13 board: the AGA rates 19×19 games only (its results file has no board size)",
            "1 × free or teaching game: not rated (weight 0 in the SAGC rules)",
            "1 × internet game: an AGA results file cannot mark a game played online",
            "1 × won or lost by default: recorded, never rated",
        ]),
        ("csv", ["6 games written; 1 left out:", "1 × won or lost by default: recorded, never rated"]),
    ],
)  # fmt: skip
def test_the_summary_counts_what_is_left_out_and_why(
    club: Club, mixed: dict[str, Player], fmt: str, summary: list[str]
) -> None:
    assert committee.export_selection(club.rating_list, None, None, fmt).lines() == summary


def test_a_period_with_nothing_rated_is_refused_with_the_reasons(club: Club, make_player: MakePlayer) -> None:
    ann, bob = make_player("Ann Bee"), make_player("Bob Cee")
    services.save_sheet(
        club=club, date=date(2024, 3, 5), rows=[GameRow(white=ann, black=bob, winner="white", kind="free")]
    )
    with pytest.raises(CommitteeError, match=r"no game an h9 file rates .*: 1 × free or teaching game"):
        exports.export_games(club.rating_list, None, None, "h9")
    assert (
        committee.export_selection(club.rating_list, None, None, "h9")
        .lines()[0]
        .startswith("0 games written")
    )


def test_the_command_prints_the_summary(club: Club, mixed: dict[str, Player]) -> None:
    out, err = io.StringIO(), io.StringIO()
    call_command("export_games", "--format", "tou", stdout=out, stderr=err)
    assert "2 games written; 5 left out:" in err.getvalue()
    assert (
        "1 × 20 minutes' main time: the FFG ladder counts no game under 30 minutes a player" in err.getvalue()
    )
    assert "1 × 13×13 board: a .tou file has one board size (size=19) for all its games" in err.getvalue()
    assert ";name=" in out.getvalue() and "left out" not in out.getvalue()  # the file itself is clean
    call_command("export_games", "--format", "h9", "--class", "D", stdout=out, stderr=err)
    assert "1 game written (EGD class D: games played online); 6 left out:" in err.getvalue()


@pytest.mark.parametrize("role", ROLES)
def test_the_page_shows_the_summary_to_the_committee_only(
    role: str, client_for: ClientFor, club: Club, mixed: dict[str, Player]
) -> None:
    query = {"rating_list": str(club.rating_list.pk), "format": "h9", "event_class": "C", "check": "1"}
    response = client_for(role).get(reverse("export"), query)
    expected: dict[str, str | int] = {"anonymous": "login", "committee": 200}
    if refused_as(response, expected.get(role, 403)):
        return
    assert response.status_code == 200 and "Content-Disposition" not in response
    page = response.content.decode()
    assert "2 games written (EGD class C: club ladder, games over the board); 5 left out:" in page
    assert "1 × 13×13 board: the EGD rates 19×19 games only" in page
    # The download link is the same query without "check".
    assert "check=1" not in page.split("Download it")[0].rsplit("href=", 1)[1]
    download = client_for(role).get(reverse("export"), {k: v for k, v in query.items() if k != "check"})
    assert download["Content-Disposition"].endswith('.h9"')
