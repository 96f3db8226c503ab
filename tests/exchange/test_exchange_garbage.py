"""Whatever is uploaded, the exchange readers fail only with ExchangeError; no Django inside."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.exchange import ExchangeError, parse_rank_list, parse_tournament, read_rank_list, read_tournament
from tests.support import examples, shared_bytes

ROOT = Path(__file__).resolve().parents[2]

SAMPLE_LINES = [
    "#Echelle au 11/01/2021 07:09:39",
    "DUPONT Jean                            -500 - 1234567 75Pa FR",
    "Aal, Zachary\t15648\tFull\t-20.05711\t7/2/2008\tLIGC\tNY\t1.09198\t8/1/2007",
    " 19574643  Abad Jahin                            FR  38GJ   20k   --     15     2  T200202B",
    "name,national id,rank",
    "; CL[A]",
    "; KM[7.5]",
    "   1 Dupont Jean     5k FR 75Pa   12    2+/w0    3+/b2",
    "   2 Martin Lea      6k FR 75Pa   11    1-/b0    0-",
    ";name=Test",
    "   1 Dupont Jean              3D 1800014 75Ju    2+w0",
    "   2 Martin Lea               3K -------  75Ju    1-b0",
    "TOURNEY x",
    "PLAYERS",
    "12345 Doe, John 5k",
    "GAMES",
    "12345 2 w 0 7",
    "date,white,black,winner,komi",
    "2024-01-01,A,B,white,6.5",
    # Dialects other software writes (docs/formats.md).
    "; DT[2005-05-24~27]",
    "; TM[3h]",
    "; CL[X]",
    " 1 Smith John   3d GB  Guil  2+      3+!     ?       3    12   |12345678",
    "     Petit Paul   2D FR 69Ly   22 408? 0 0    1-/b0    4+!w0   |",
    "3\tKim Su\t12\tKR\txxx\t0\t?\t1-!\t0\t3",
    "   4 Roux Marc                15K 7654321 38Gr    3-/b0    0-",
    "Tourney\tTest, Lyon",
    "location='Lyon'",
    "GAMES 1",
    "11111\t22222\t?\t0\t7",
    "END",
    "AAIJ René                  249 e -------   NL",
    "BATAILLER Philippe_(obso -9999 - 0012345 33Bo",
    "Roe, Jane\t12346\tYouth\t\t5/12/2019\tSPRI\tCO",
    "Number of players: 4",
]


def _only_exchange_errors(call: object) -> None:
    assert callable(call)
    try:
        call()
    except ExchangeError as error:
        assert str(error)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_random_bytes_raise_only_exchange_errors(data: bytes) -> None:
    _only_exchange_errors(lambda: read_rank_list(data))
    _only_exchange_errors(lambda: read_tournament(data))


@settings(max_examples=examples(300), deadline=None)
@given(
    st.lists(
        st.one_of(
            st.sampled_from(SAMPLE_LINES),
            st.sampled_from(SAMPLE_LINES).flatmap(
                lambda line: st.integers(0, len(line)).map(lambda cut: line[:cut])
            ),
            st.text(alphabet=" \t;,|/+-=?#[]0123456789kdKDwbXx.éA", max_size=40),
        ),
        max_size=12,
    ),
    st.sampled_from([None, "ffg", "aga", "egd", "csv"]),
    st.sampled_from([None, "h9", "tou", "aga", "csv", "json"]),
)
def test_lines_like_the_real_ones_raise_only_exchange_errors(
    lines: list[str], rank_format: str | None, game_format: str | None
) -> None:
    text = "\r\n".join(lines)
    # Format names as a person gives them: read_*'s callers check them first
    # (rank_format, game_format); the parsers must still fail cleanly.
    _only_exchange_errors(lambda: parse_rank_list(text, rank_format))  # type: ignore[arg-type]
    _only_exchange_errors(lambda: parse_tournament(text, game_format))  # type: ignore[arg-type]


@pytest.mark.realfiles
@settings(max_examples=examples(100), deadline=None)
@given(st.data())
def test_real_files_cut_anywhere_raise_only_exchange_errors(data: st.DataObject) -> None:
    name = data.draw(
        st.sampled_from(["juvisy-2019.h9", "juvisy-2019.tou", "tournoi-chinois.h9", "cdfa-2020.tou"])
    )
    raw = shared_bytes(name)
    cut = raw[: data.draw(st.integers(0, len(raw)))]
    _only_exchange_errors(lambda: read_tournament(cut))


@pytest.mark.not_for_mutants
def test_the_exchange_package_never_imports_django() -> None:
    code = (
        "import sys, ratings.exchange, ratings.exchange.tournaments, ratings.exchange.ranklists;"
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django imported'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
RECORD_FIELDS = [
    "date",
    "white",
    "black",
    "winner",
    "komi",
    "handicap",
    "round",
    "white_rank",
    "white_id",
    "board",
]


@settings(max_examples=examples(150), deadline=None)
@given(
    st.one_of(
        JSON_VALUES,
        st.lists(st.dictionaries(st.sampled_from(RECORD_FIELDS), JSON_VALUES, max_size=10), max_size=4),
    )
)
def test_json_records_of_any_shape_raise_only_exchange_errors(value: object) -> None:
    import json

    text = json.dumps(value)
    _only_exchange_errors(lambda: parse_tournament(text, "json"))
