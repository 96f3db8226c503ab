"""One matching of names for the whole site (ratings.names): the players
search, the log's player filter, entry's near misses, rank sync by name;
accents, case, spacing, word order, typos and transliterations; the ranking.
Runs on SQLite and, with DATABASE_URL set, on PostgreSQL (trigram index)."""

from __future__ import annotations

import re
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.urls import reverse

from ratings.models import Club, LogEntry, Player
from ratings.names import alike, closeness, closest, find, ranked
from tests.support import SHEET_URL, ClientFor, MakePlayer, refused_as, sheet_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_player: MakePlayer) -> dict[str, Player]:
    return {
        "francois": make_player("Francois Nel", slug="francois-nel"),
        "andre": make_player("Andre Marais", slug="andre-marais"),
        "zoe": make_player("Zoë Müller", slug="zoe-muller"),
        "riaan": make_player("Riaan Wang", rank=-3, slug="riaan-wang"),
        "thabo": make_player("Thabo Dlamini", slug="thabo-dlamini"),
    }


def names(matches: list[object]) -> list[str]:
    return [m.player.name for m in matches]  # type: ignore[attr-defined]


# --- the search strings of issue 23 ---------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "found"),
    [
        ("François", "Francois Nel"),
        ("andre", "Andre Marais"),
        ("zoe", "Zoë Müller"),
        ("Muller", "Zoë Müller"),
        ("zoe muller", "Zoë Müller"),
        ("MÜLLER  zoë", "Zoë Müller"),
        ("Mueller", "Zoë Müller"),
        ("nel francois", "Francois Nel"),
        ("Riaan Wnag", "Riaan Wang"),
        ("wang", "Riaan Wang"),
        ("dlam", "Thabo Dlamini"),
    ],
)
def test_the_players_search_finds_names_as_people_type_them(
    client_for: ClientFor, people: dict[str, Player], typed: str, found: str
) -> None:
    html = client_for("anonymous").get(reverse("players"), {"q": typed}).content.decode()
    shown = [name for name in (p.name for p in people.values()) if name in html]
    assert shown == [found]


def test_the_search_finds_nothing_for_a_name_nobody_has(people: dict[str, Player]) -> None:
    assert find(Player.objects.all(), "Xavier Oosthuizen") == []
    assert find(Player.objects.all(), " ,. ") == []


@pytest.mark.parametrize(("typed", "player"), [("François", "francois"), ("andre", "andre"), ("zoe", "zoe")])
def test_the_log_filter_finds_a_player_as_the_search_does(
    client_for: ClientFor, club: Club, people: dict[str, Player], typed: str, player: str
) -> None:
    for who, person in people.items():
        entry = LogEntry.objects.create(
            club=club, action="add", event_date=date(2024, 3, 1), summary=f"entry-of-{who}"
        )
        entry.players.set([person])
    html = client_for("anonymous").get(reverse("log"), {"player": typed}).content.decode()
    assert re.findall(r"entry-of-(\w+)", html) == [player]
    by_slug = client_for("anonymous").get(reverse("log"), {"player": "riaan-wang"}).content.decode()
    assert re.findall(r"entry-of-(\w+)", by_slug) == ["riaan"]


# --- transliterations and typos -------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Mueller", "Müller"),
        ("Goethe", "Göthe"),
        ("Jaeger", "Jäger"),
        ("Strauss", "Strauß"),
        ("Jose", "José"),
        ("Eloise Zoe", "Éloïse Zoé"),
        ("Dupont Jean", "Jean Dupont"),
        ("DUPONT, jean", "Jean  Dupont"),
        ("Riaan Wnag", "Riaan Wang"),
        ("Riaan Wan", "Riaan Wang"),
        ("Riaan Wang", "Riaan Wang"),
    ],
)
def test_names_alike_but_for_transliteration_order_or_a_typo_are_close(typed: str, name: str) -> None:
    assert closeness(typed, name) >= 0.88


@pytest.mark.parametrize(
    ("typed", "name"),
    [
        ("Riaan", "Riaan Wang"),
        ("John Smith", "John Brown"),
        ("Andre Marais", "Thabo Dlamini"),
        ("", "Li Wei"),
    ],
)
def test_different_names_are_not_close(typed: str, name: str) -> None:
    assert closeness(typed, name) == 0


def test_an_exact_name_is_closer_than_a_near_miss() -> None:
    assert closeness("Riaan Wang", "Riaan Wang") > closeness("Riaan Wang", "Riaan Wong") > 0


def test_rank_sync_by_name_picks_the_closest_and_keeps_ties_ambiguous() -> None:
    players = [(1, "Riaan Wang"), (2, "Riaan Wong"), (3, "Zoë Müller"), (4, "Zoe Mueller")]
    assert closest(players, "WANG Riaan") == [1]
    assert closest(players, "Riaan Wnag") == [1]
    assert closest(players, "Muller Zoe") == [3, 4]
    assert closest(players, "Nobody Known") == []


# --- ranking -----------------------------------------------------------------------------


def test_candidates_rank_by_closeness_then_recent_activity_then_the_club(
    club: Club, other_club: Club, make_player: MakePlayer
) -> None:
    exact = make_player("Anna Smit", slug="a1", last_updated=date(2020, 1, 1), club=other_club)
    recent = make_player("Anna Smith", slug="a2", last_updated=date(2024, 5, 1), club=other_club)
    here = make_player("Anne Smith", slug="a3", last_updated=date(2023, 1, 1), club=club)
    away = make_player("Anne Smyth", slug="a4", last_updated=date(2023, 1, 1), club=other_club)
    there = find(Player.objects.all(), "Anna Smit", whole=True, club=club)
    assert [m.player for m in there] == [exact, recent, here, away][: len(there)]
    assert there[0].closeness == 1.0 and len(there) >= 2
    # Equal closeness: the more recently active first, then the club's own member.
    smith = find(Player.objects.all(), "smith", club=club)
    assert [m.player for m in smith] == [recent, here]  # names holding "smith" answer first
    twins = find(Player.objects.all(), "Anne", club=club)
    assert [m.player for m in twins][:2] == [here, away]
    twins_away = find(Player.objects.all(), "Anne", club=other_club)
    assert [m.player for m in twins_away][:2] == [away, here]


def test_ranked_is_a_queryset_closest_first(people: dict[str, Player], make_player: MakePlayer) -> None:
    make_player("Zoe Mullins", slug="zoe-mullins")
    assert [p.name for p in ranked(Player.objects.all(), "zoe mul")] == ["Zoë Müller", "Zoe Mullins"]
    assert next(p.name for p in ranked(Player.objects.all(), "zoe mullins")) == "Zoe Mullins"


# --- entry: near misses -----------------------------------------------------------------


@pytest.mark.parametrize("typed", ["Riaan Wnag", "Riaan Wan", "wang riaan", "Wnag  RIAAN"])
def test_entry_offers_the_player_a_near_miss_means(
    client_for: ClientFor, club: Club, people: dict[str, Player], typed: str
) -> None:
    assert alike(club.rating_list, typed, club=club) == [people["riaan"]]
    row = {"white": typed, "white_rank": "3k", "black": "Andre Marais", "winner": "white"}
    before = Player.objects.count()
    response = client_for("volunteer").post(SHEET_URL, sheet_data(club, [row]))
    assert response.status_code == 400
    assert "did you mean Riaan Wang, 3k, Stellenbosch Go Club?" in response.content.decode()
    assert Player.objects.count() == before


def test_a_new_player_close_to_an_existing_one_takes_one_confirmation(
    client_for: ClientFor, club: Club, people: dict[str, Player]
) -> None:
    row = {"white": "Riaan Wan", "white_rank": "3k", "black": "Andre Marais", "winner": "white"}
    response = client_for("volunteer").post(SHEET_URL, sheet_data(club, [{**row, "white_new": "on"}]))
    assert response.status_code == 302
    assert Player.objects.get(name="Riaan Wan").start_rank == -3


def test_the_name_check_offers_a_near_miss_without_the_rank_box(
    client_for: ClientFor, club: Club, people: dict[str, Player]
) -> None:
    query = {"club": str(club.pk), "row-0-white": "Riaan Wnag", "field": "row-0-white"}
    html = client_for("volunteer").get(reverse("sheet_player_check"), query).content.decode()
    assert 'data-name="Riaan Wang"' in html
    # The starting rank waits until "a different person" is ticked.
    assert 'class="rank-input pending"' in html
    unknown = client_for("volunteer").get(
        reverse("sheet_player_check"), {**query, "row-0-white": "Sipho Nkosi"}
    )
    assert "Did you mean" not in unknown.content.decode()
    assert 'class="rank-input"' in unknown.content.decode()


def test_a_near_miss_is_offered_from_the_list_only(
    club: Club, other_list: object, people: dict[str, Player], make_player: MakePlayer
) -> None:
    elsewhere = Club.objects.exclude(rating_list=club.rating_list).first()
    assert elsewhere is not None
    make_player("Riaan Wang", slug="riaan-wang-2", club=elsewhere)
    assert alike(elsewhere.rating_list, "Riaan Wnag") != alike(club.rating_list, "Riaan Wnag")


@pytest.mark.postgresql
def test_postgresql_serves_the_search_from_the_trigram_index(people: dict[str, Player]) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT extname FROM pg_extension WHERE extname IN ('pg_trgm', 'unaccent')")
        assert sorted(row[0] for row in cursor.fetchall()) == ["pg_trgm", "unaccent"]
        cursor.execute("SELECT indexdef FROM pg_indexes WHERE indexname = 'ratings_player_search_key_trgm'")
        assert "gin_trgm_ops" in cursor.fetchone()[0]


# --- the entry type-ahead ----------------------------------------------------------------


def test_the_type_ahead_offers_the_players_a_name_being_typed_may_mean(
    client_for: ClientFor, club: Club, people: dict[str, Player], make_player: MakePlayer
) -> None:
    make_player("Zoe Mullins", slug="zoe-mullins", last_updated=date(2024, 1, 1))
    client = client_for("volunteer")
    url = reverse("sheet_suggest")
    html = client.get(url, {"club": str(club.pk), "field": "row-3-white", "q": "zoe mul"}).content.decode()
    # Equally close (each typed word starts a word of both): the more recently active first.
    assert re.findall(r'data-name="([^"]+)"', html) == ["Zoe Mullins", "Zoë Müller"]
    assert 'id="id_row-3-white-listbox"' in html and 'role="option"' in html
    assert "Zoë Müller, 10k, Stellenbosch Go Club" in html
    typo = client.get(url, {"club": str(club.pk), "field": "white", "q": "Riaan Wnag"}).content.decode()
    assert re.findall(r'data-name="([^"]+)"', typo) == ["Riaan Wang"]
    assert (
        "option" not in client.get(url, {"club": str(club.pk), "field": "white", "q": "z"}).content.decode()
    )
    assert client.get(url, {"club": str(club.pk), "field": "<script>", "q": "zoe"}).status_code == 400


@pytest.mark.parametrize(
    "persona", ["anonymous", "player", "volunteer", "committee", "volunteer_b", "committee_2", "site_admin"]
)
def test_the_type_ahead_shows_each_persona_what_the_entry_autocomplete_shows(
    client_for: ClientFor, club: Club, people: dict[str, Player], outsiders: dict[str, User], persona: str
) -> None:
    """The same access as the entry's own helpers (ratings/views/sheets.py _club_of): a
    club the user may not enter at falls back to one they may, never to another list."""
    from django.test import Client

    if persona in outsiders:
        client = Client()
        client.force_login(outsiders[persona])
    else:
        client = client_for(persona)
    query = {"club": str(club.pk), "field": "white", "q": "zoe"}
    suggest = client.get(reverse("sheet_suggest"), query)
    options = client.get(reverse("sheet_players"), {"club": club.pk})
    assert suggest.status_code == options.status_code
    if persona == "anonymous":
        assert refused_as(suggest, "login")
        return
    if suggest.status_code == 403:
        return
    assert suggest.status_code == 200
    assert ("Zoë Müller" in suggest.content.decode()) == ("Zoë Müller" in options.content.decode())
