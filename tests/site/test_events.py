"""Events: every record sheet is one (an imported tournament, a club
night).  The crosstable of real tournament files against what the files
say, a club night's table against its games, each player's rating effect
per system against the history, rated yet or not; events per list and club."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django import DjangoAssertNumQueries

from ratings import committee, services
from ratings.models import Club, EventEntry, Game, HistoryEntry, RatingList
from ratings.recompute import recompute_list
from tests.support import DATA, MakePlayer, make_pool, realdata

# An h9 player line, read apart from the site's reader: place (blank on a
# tie), name, grade, country, club, then tie-breaks and one cell a round.
LINE = re.compile(r"^\s*(\d*)\s+.*?\s(\d{1,2}[kdpKDP])\s+([A-Za-z]{2})\s+(\S+)\s+(.*)$")
CELL = re.compile(r"^(\d+)([+\-=])(?:([/!])([wb])(\d+)?)?$")


def file_rows(name: str) -> dict[int, tuple[str, list[str], list[str]]]:
    """{line position: (place, tie-breaks, round cells)} as the file writes them."""
    rows = {}
    text = realdata(name).decode("latin-1")
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith(";")]
    for position, line in enumerate(lines, start=1):
        match = LINE.match(line.split("|")[0])
        assert match is not None, line
        tokens = match.group(5).split()
        cells = [t for t in tokens if CELL.match(t)]
        rows[position] = (match.group(1), [t for t in tokens if not CELL.match(t)], cells)
    return rows


def page_rows(html: str) -> tuple[list[str], dict[int, list[str]]]:
    table = html[html.index('<table class="data crosstable">') :].split("</table>")[0]
    headers = [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>(.*?)</th>", table, re.S)]
    rows = {}
    for body in re.findall(r"<tr>(.*?)</tr>", table.split("<tbody>")[1], re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", body, re.S)]
        rows[int(cells[0])] = cells
    return headers, rows


def written(change: float) -> str:
    """A change as the page writes it: one decimal, none when whole, signed."""
    tenths = round(change, 1)
    text = str(int(tenths)) if tenths == int(tenths) else f"{tenths:.1f}"
    return f"+{text}" if tenths > 0 else text


def same_cell(on_page: str, in_file: str) -> bool:
    """The page writes every cell in full ("3+/w0"); a file may leave out
    the colour and handicap ("3+"): what the file gives must be there."""
    if in_file.startswith("0"):
        return on_page == in_file  # a bye, as the file gives it
    page, file = CELL.match(on_page), CELL.match(in_file)
    assert page is not None and file is not None, (on_page, in_file)
    if page.group(1, 2) != file.group(1, 2) or (page.group(3) == "!") != (file.group(3) == "!"):
        return False
    return all(f is None or p == f for p, f in zip(page.group(4, 5), file.group(4, 5), strict=True))


H9_FILES = [
    "juvisy-forfeit-2019.h9",  # a forfeit, byes '0='
    "kpmc-2016.h9",  # tie-breaks after the results, cells without colour
    "polish-women-2025.h9",
    "rennes-2021.h9",  # places that skip numbers
    "veterans-2015.h9",  # places left blank on ties
    "levallois-2018.h9",  # '0-' rounds
]


@pytest.mark.realfiles
@pytest.mark.parametrize("name", H9_FILES)
def test_the_crosstable_of_a_real_h9_file_is_what_the_file_says(client: Client, db: None, name: str) -> None:
    club = make_pool(name="Real", slug="real")
    report = committee.import_tournament(club, realdata(name), filename=name)
    assert report.sheet is not None
    html = client.get(reverse("event", args=[report.sheet.pk])).content.decode()
    headers, rows = page_rows(html)
    rounds = [h for h in headers if h.startswith("Round ")]
    tiebreaks = [h for h in headers if h.startswith("Tie-break ")]
    expected = file_rows(name)
    with_games = {pk for pair in Game.objects.values_list("white", "black") for pk in pair}
    assert len(rows) == len(with_games)  # one row a player who played
    for position, cells in rows.items():
        place, file_tiebreaks, file_cells = expected[position]
        assert cells[1] == place, (position, cells)
        shown_rounds = cells[4 : 4 + len(rounds)]
        assert len(shown_rounds) == len(file_cells) or all(c == "" for c in shown_rounds[len(file_cells) :])
        for on_page, in_file in zip(shown_rounds, file_cells, strict=False):
            assert same_cell(on_page, in_file), (position, on_page, in_file)
        shown_tiebreaks = cells[5 + len(rounds) : 5 + len(rounds) + len(tiebreaks)]
        assert [t for t in shown_tiebreaks if t] == file_tiebreaks, (position, shown_tiebreaks)
    assert len(rounds) == max(len(c) for _, _, c in expected.values())


@pytest.mark.realfiles
def test_a_forfeit_and_byes_are_shown_and_a_forfeit_not_rated(client: Client, db: None) -> None:
    club = make_pool(name="Real", slug="real")
    report = committee.import_tournament(club, realdata("juvisy-forfeit-2019.h9"), filename="j.h9")
    assert report.sheet is not None
    recompute_list(club.rating_list_id, full=True)
    html = client.get(reverse("event", args=[report.sheet.pk])).content.decode()
    _, rows = page_rows(html)
    # Line 2, Daguenet: lost round 1 by forfeit, then three byes '0='.
    assert rows[2][4:8] == ["1-!b0", "0=", "0=", "0="]
    assert "bye, half a point" in html
    entry = EventEntry.objects.get(sheet=report.sheet, position=2)
    assert entry.byes == [
        [2, "0=", "bye, half a point"],
        [3, "0=", "bye, half a point"],
        [4, "0=", "bye, half a point"],
    ]
    # His only game was a forfeit: no system rated him at this event.
    systems = len(club.rating_list.systems)
    assert rows[2][-systems:] == ["not rated"] * systems


def test_a_club_nights_crosstable_and_rating_effects(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    RatingList.objects.filter(pk=club.rating_list_id).update(compared_systems=["egf"])
    club.rating_list.refresh_from_db()
    day = timezone.localdate() - timedelta(days=2)
    since = day - timedelta(days=10)
    ann, bob, cat = (make_player(n, rank=-5, since=since) for n in ("Ann", "Bob", "Cat"))
    sheet = services.save_sheet(
        club=club,
        date=day,
        rows=[
            services.GameRow(white=ann, black=bob, winner="white"),
            services.GameRow(white=cat, black=ann, winner="black", handicap=2, komi=Decimal("0.5")),
            services.GameRow(white=bob, black=cat, winner="jigo"),
        ],
    )
    url = reverse("event", args=[sheet.pk])
    RatingList.objects.filter(pk=club.rating_list_id).update(dirty_from=day)
    html = client.get(url).content.decode()
    assert "This event is being rated" in html
    recompute_list(club.rating_list_id, full=True)
    html = client.get(url).content.decode()
    assert "being rated" not in html
    headers, rows = page_rows(html)
    assert [h for h in headers if h.startswith("Game ")] == ["Game 1", "Game 2"]
    by_name = {cells[2]: cells for cells in rows.values()}
    assert [cells[2] for _, cells in sorted(rows.items())] == ["Ann", "Bob", "Cat"]  # Ann won 2
    number = {cells[2]: n for n, cells in rows.items()}
    assert by_name["Ann"][4:6] == [f"{number['Bob']}+/w0", f"{number['Cat']}+/b2"]
    assert by_name["Bob"][4:6] == [f"{number['Ann']}-/b0", f"{number['Cat']}=/w0"]
    assert by_name["Ann"][6] == "2/2"
    for player in (ann, bob, cat):
        for offset, system in enumerate(club.rating_list.systems):
            total = sum(
                HistoryEntry.objects.filter(player=player, system=system, game__sheet=sheet).values_list(
                    "change", flat=True
                )
            )
            shown = by_name[player.name][-len(club.rating_list.systems) + offset]
            assert shown == written(total), (player, system)


def test_events_are_listed_per_list_and_per_club_and_linked(
    client: Client, club: Club, other_club: Club, make_player: MakePlayer
) -> None:
    day = timezone.localdate() - timedelta(days=3)
    ann, bob = make_player("Ann", since=day), make_player("Bob", since=day)
    here = services.save_sheet(
        club=club, date=day, event="Spring cup", rows=[services.GameRow(white=ann, black=bob, winner="white")]
    )
    there = services.save_sheet(
        club=other_club, date=day, rows=[services.GameRow(white=bob, black=ann, winner="white")]
    )
    listed = client.get(reverse("list_events", args=[club.rating_list.slug])).content.decode()
    assert (
        f'href="/events/{here.pk}/">Spring cup' in listed
        and f'href="/events/{there.pk}/">Club night' in listed
    )
    at_club = client.get(reverse("club_events", args=[club.slug])).content.decode()
    assert f"/events/{here.pk}/" in at_club and f"/events/{there.pk}/" not in at_club
    assert f'href="/events/{here.pk}/"' in client.get(reverse("sheet", args=[here.pk])).content.decode()
    recompute_list(club.rating_list_id, full=True)
    sheet_page = client.get(reverse("player", args=[ann.slug])).content.decode()
    assert f'href="/events/{here.pk}/"' in sheet_page and f'href="/events/{there.pk}/"' in sheet_page
    assert client.get(reverse("event", args=[999999])).status_code == 404


def test_an_event_page_makes_a_fixed_number_of_queries(
    client: Client, db: None, django_assert_max_num_queries: DjangoAssertNumQueries
) -> None:
    club = make_pool(name="Real", slug="real")
    report = committee.import_tournament(club, (DATA / "club-open-2024.h9").read_bytes(), filename="c.h9")
    assert report.sheet is not None
    with django_assert_max_num_queries(10):
        assert client.get(reverse("event", args=[report.sheet.pk])).status_code == 200


def test_every_text_of_the_crosstable_is_escaped_and_cells_hold_their_games(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    # The crosstable's rows are written in Python (ratings/presentation/events.py),
    # not by the template: names, places, tie-breaks and byes from a file are escaped there.
    day = timezone.localdate() - timedelta(days=2)
    ann, bob = make_player("Ann <b>&amp;", since=day), make_player('Bob "O\'Neil"', since=day)
    sheet = services.save_sheet(
        club=club,
        date=day,
        rows=[
            services.GameRow(white=ann, black=bob, winner="white", round=1, kind="tournament"),
            services.GameRow(white=bob, black=ann, winner="black", round=1, kind="tournament"),
        ],
        event="Cup",
        kind="tournament",
    )
    EventEntry.objects.create(sheet=sheet, player=ann, position=1, place="1<", tiebreaks=["3&", 7])
    EventEntry.objects.create(sheet=sheet, player=bob, position=2, place="2", byes=[[2, "0=", "bye <ill>"]])
    html = client.get(reverse("event", args=[sheet.pk])).content.decode()
    table = html[html.index('<table class="data crosstable">') :].split("</table>")[0]
    assert "<b>" not in table and "<ill>" not in table
    assert ">Ann &lt;b&gt;&amp;amp;</a>" in table and ">Bob &quot;O&#x27;Neil&quot;</a>" in table
    assert (
        '<td class="num">1&lt;</td>' in table and '<td class="num">3&amp;</td><td class="num">7</td>' in table
    )
    # Two games in one round: one cell, both games, no single game linked; a bye of round 2.
    two = "against Bob &quot;O&#x27;Neil&quot;, White, handicap 0, komi 6.5; won against Bob"
    assert f'<td class="cell" title="won {two}' in table
    assert '">2+/w0 2+/b0</td>' in table
    assert '<td class="cell" title="bye &lt;ill&gt;">0=</td>' in table
    headers, rows = page_rows(html)
    assert [h for h in headers if h.startswith("Round")] == ["Round 1", "Round 2"]
    assert rows[1][4:7] == ["2+/w0 2+/b0", "", "2/2"]


def test_a_cell_of_one_game_links_its_game_and_each_name_its_record_sheet(
    client: Client, club: Club, make_player: MakePlayer
) -> None:
    day = timezone.localdate() - timedelta(days=2)
    ann, bob = make_player("Ann", since=day), make_player("Bob", since=day)
    sheet = services.save_sheet(
        club=club,
        date=day,
        rows=[services.GameRow(white=ann, black=bob, winner="white", round=1, kind="tournament")],
        event="Cup",
        kind="tournament",
    )
    game = sheet.games.get()
    html = client.get(reverse("event", args=[sheet.pk])).content.decode()
    table = html[html.index('<table class="data crosstable">') :].split("</table>")[0]
    for player in (ann, bob):
        assert f'<a href="{reverse("player", args=[player.slug])}">{player.name}</a>' in table
    assert table.count(f'<a href="{reverse("game", args=[game.pk])}">') == 2, "both players' cells"
