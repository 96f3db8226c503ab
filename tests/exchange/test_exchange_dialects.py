"""Each dialect other software writes, shown by a small file of our own (tests/data/dialect-*).

The real files that show them are tested in test_exchange_realdata.py; these
files hold one dialect each, written by hand after those files, so that a
reader's rule can be read off a test in a few lines.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from ratings.exchange import ExchangeError, Winner, read_rank_list, read_tournament

DATA = Path(__file__).resolve().parent.parent / "data"


def data(name: str) -> bytes:
    return (DATA / name).read_bytes()


def games(name: str) -> list[tuple[int, str, str, Winner, int, bool]]:
    t = read_tournament(data(name), filename=name)
    return [(g.round, g.white, g.black, g.winner, g.handicap, g.forfeit) for g in t.games]


# --- h9 -----------------------------------------------------------------------------


def test_the_egd_download_layout_has_its_results_before_the_tie_breaks() -> None:
    # Results 'N+' without colour, then tie-breaks '3 12'; '4+!' won by default,
    # a bare '?' not paired, a jigo '4='.  White is the earlier line's player.
    assert games("dialect-egd-download.h9") == [
        (1, "1", "2", Winner.WHITE, 0, False),
        (1, "3", "4", Winner.JIGO, 0, False),
        (2, "1", "3", Winner.WHITE, 0, False),
        (3, "1", "4", Winner.WHITE, 0, True),
        (3, "2", "3", Winner.BLACK, 0, False),
    ]
    t = read_tournament(data("dialect-egd-download.h9"))
    reasons = [(s.line, s.round, s.reason) for s in t.skipped]
    assert (10, 2, "no game this round (not paired: '?')") in reasons
    assert (12, 2, "no game this round (not paired: '?')") in reasons


def test_loose_tags_grades_without_unit_and_names_running_into_the_grade() -> None:
    t = read_tournament(data("dialect-egd-download.h9"))
    assert (t.start, t.end) == (date(2024, 5, 4), date(2024, 5, 5))  # DT[2024-05-04~05]
    assert t.minutes == 180  # TM[3h]
    assert t.event_class is None  # CL[X]: no EGD class, and said so
    assert t.skipped[0].reason.startswith("CL[X]: not an EGD class")
    jones, brown = t.player("2"), t.player("3")
    assert (jones.name, jones.rank, jones.egd_pin) == ("Jones Alexander", -10, None)  # 'Alexander10K', '|'
    assert (brown.name, brown.rank) == ("Brown Mary", -12)  # '12': 12 kyu
    assert t.player("1").egd_pin == "12345678"


def test_opengotha_tie_breaks_with_question_marks_and_halves_and_blank_places() -> None:
    # Latin-1: 'Léa' and '322½'; '408?' and '3?' are uncertain tie-breaks;
    # line 12 has no place (tied with line 11); '3+!b0' won by default.
    t = read_tournament(data("dialect-opengotha.h9"))
    assert t.encoding == "iso-8859-1"
    assert [p.name for p in t.players] == ["Martin Léa", "Petit Paul", "Durand Anne", "Roux Marc"]
    assert [(g.round, g.white, g.black, g.winner, g.handicap, g.komi, g.forfeit) for g in t.games] == [
        (1, "1", "2", Winner.WHITE, 0, 7.5, False),
        (1, "3", "4", Winner.WHITE, 1, 0.5, False),
        (2, "3", "1", Winner.BLACK, 0, 7.5, True),
        (2, "2", "4", Winner.WHITE, 0, 7.5, False),
    ]


def test_a_tie_break_inside_the_results_is_refused_naming_line_and_column() -> None:
    text = data("dialect-opengotha.h9").replace(b"2+/w0    3+!b0", b"2+/w0 7  3+!b0")
    with pytest.raises(ExchangeError, match="'7' stands between two round results") as error:
        read_tournament(text)
    assert (error.value.line, error.value.column) == (11, 72)


def test_tab_separated_columns_with_tie_breaks_on_both_sides() -> None:
    assert games("dialect-tabs.h9") == [
        (1, "1", "2", Winner.WHITE, 0, False),
        (2, "1", "3", Winner.WHITE, 0, True),  # '3+!' / '1-!'
    ]


def test_a_file_without_a_date_is_refused_unless_the_caller_gives_one() -> None:
    with pytest.raises(ExchangeError, match=r"gives no date \(no DT\[start,end\] line\)"):
        read_tournament(data("dialect-no-date.h9"))
    t = read_tournament(data("dialect-no-date.h9"), date=date(2009, 7, 26))
    assert (t.start, t.end, len(t.games)) == (date(2009, 7, 26), date(2009, 7, 26), 1)


def test_a_date_given_by_the_caller_replaces_the_files() -> None:
    t = read_tournament(data("dialect-tabs.h9"), date=date(1990, 1, 3))
    assert (t.start, t.end) == (date(1990, 1, 3), date(1990, 1, 3))


# --- .tou ---------------------------------------------------------------------------


def test_opengotha_351_tou_with_h9_cells_blank_places_and_a_long_name() -> None:
    t = read_tournament(data("dialect-opengotha351.tou"), filename="dialect-opengotha351.tou")
    assert t.format == "tou"  # the ';name=' header decides, not the '2-/w0' cells
    assert [(p.key, p.name, p.rank, p.ffg_licence) for p in t.players] == [
        ("1", "Martin Léa", 1, "1234567"),
        ("2", "Petit Paul", 1, None),  # no place (a tie) and no licence
        ("3", "Dechaume-Montcharmont Fra", -12, None),  # 25 characters, then '12K'
        ("4", "Roux Marc", -15, "7654321"),
    ]
    assert games("dialect-opengotha351.tou") == [
        (1, "1", "2", Winner.BLACK, 0, False),
        (1, "3", "4", Winner.WHITE, 0, False),
        (2, "1", "3", Winner.WHITE, 0, True),
    ]


def test_a_tou_read_as_h9_only_when_forced() -> None:
    with pytest.raises(ExchangeError) as error:
        read_tournament(data("dialect-opengotha351.tou"), format="h9")
    assert error.value.line == 11


# --- AGA results --------------------------------------------------------------------


def test_opengotha_aga_results_with_location_numbered_rounds_and_unknown_results() -> None:
    t = read_tournament(data("dialect-opengotha-aga.txt"))
    assert (t.format, t.name, t.place, t.start, t.end) == (
        "aga",
        "Dialect test",
        "Lyon",
        date(2024, 3, 2),
        date(2024, 3, 3),
    )
    assert [(g.round, g.white, g.black, g.winner) for g in t.games] == [
        (1, "11111", "22222", Winner.WHITE),
        (3, "33333", "11111", Winner.BLACK),
    ]
    assert [(s.line, s.round) for s in t.skipped] == [(14, 2)]


# --- rank lists ---------------------------------------------------------------------


def test_the_older_ffg_layout_has_one_field_after_the_licence() -> None:
    ladder = read_rank_list(data("dialect-ech_ffg-2012.txt"))
    assert [(e.name, e.national_id, e.rank, e.club, e.country) for e in ladder.entries] == [
        ("AAIJ René", None, 2, None, "NL"),  # a player abroad: a country
        ("ABADIA Mickaël", "9728205", -14, "94MJ", None),  # a club
        ("BATAILLER Philippe", "0012345", -8, "33Bo", None),
    ]
    (obsolete,) = ladder.rejected
    assert (obsolete.line, obsolete.text[:24]) == (5, "BATAILLER Philippe_(obso")
    assert "marks obsolete" in obsolete.reason


def test_an_ffg_v3_line_with_an_empty_country_and_a_bad_line_among_good_ones() -> None:
    ladder = read_rank_list(data("dialect-ech_ffg_V3.txt"))
    assert [(e.name, e.rank, e.club, e.country) for e in ladder.entries] == [
        ("BON Maxence", -16, None, None),
        ("DUPONT Jean", -5, "75Pa", "FR"),
    ]
    assert [(r.line, r.column, r.reason) for r in ladder.rejected] == [
        (4, 40, "level '-5x0' is not a whole number")
    ]


def test_an_aga_td_list_whose_trailing_empty_fields_are_dropped() -> None:
    members = read_rank_list(data("dialect-tdlista-short.txt"), filename="tdlista.txt")
    assert [(e.name, e.national_id, e.rank, e.club) for e in members.entries] == [
        ("Doe, John", "12345", -13, "SEAG"),  # a space before the name
        ("Roe, Jane", "12346", None, "SPRI"),  # 7 fields
        (", Joplin Go Club", "12347", None, None),
    ]
    assert members.rejected == ()


def test_an_egd_list_mixing_encodings_with_a_corrupt_row() -> None:
    egd = read_rank_list(data("dialect-allworld-mixed.html"))
    assert egd.encoding == "mixed"
    assert [(e.line, e.name) for e in egd.entries] == [
        (4, "Müller Anna"),  # UTF-8
        (5, "Lefèvre Loïc"),  # Latin-1
        (7, "Smith John"),
    ]
    (corrupt,) = egd.rejected
    assert (corrupt.line, corrupt.text[:20]) == (6, "10000003  Qiu Danyun")


def test_an_egd_list_cut_before_its_count_or_with_another_count_is_refused() -> None:
    whole = data("dialect-allworld-mixed.html")
    with pytest.raises(ExchangeError, match="without its closing line"):
        read_rank_list(whole.split(b"\nNumber of players")[0])
    with pytest.raises(ExchangeError, match="says it has 5 players but 4 player lines") as error:
        read_rank_list(whole.replace(b"Number of players: 4", b"Number of players: 5"))
    assert error.value.line == 9
