"""Every system explains each change with the terms it computed it from.

Properties over random histories: for every row of every system, the
explanation's terms recombine to the change the ledger holds, exactly (the
explanation is the replay's own numbers, not a second derivation).  Then
golden explanations of the sources' and the EGD's worked examples, and
``manage.py rate --explain``.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Callable
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.engine import SYSTEM_NAMES, get_system
from ratings.engine.base import Adjustment, Game, Kind, PlayerId, Start, Winner
from ratings.engine.ranks import format_rank, parse_rank
from ratings.whatif import rate_csv
from tests.support import examples

DAY = date(2024, 5, 4)
NAMES = ("a", "b", "c", "d", "e", "f")


@st.composite
def histories(draw: st.DrawFn) -> tuple[list[Game], dict[PlayerId, Start]]:
    """Players declared at ranks from 30k to 9d, games of every kind over a few days."""
    starts: dict[PlayerId, Start] = {name: Start(rank=float(draw(st.integers(-30, 8)))) for name in NAMES}
    games = []
    for day in range(draw(st.integers(1, 4))):
        event = draw(st.sampled_from([None, f"open-{day}"]))
        for _ in range(draw(st.integers(1, 8))):
            white, black = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique=True))
            handicap = draw(st.integers(0, 9))
            games.append(
                Game(
                    DAY + timedelta(days=day),
                    white,
                    black,
                    draw(st.sampled_from([Winner.WHITE, Winner.BLACK, Winner.BLACK, Winner.JIGO])),
                    handicap=handicap,
                    komi=draw(st.sampled_from([6.5, 0.5, -4.5, 16.5, 26.5])),
                    kind=draw(st.sampled_from(list(Kind))),
                    board=draw(st.sampled_from([19, 19, 19, 13, 9])),
                    minutes=draw(st.sampled_from([None, None, 60, 45, 20])),
                    event=event,
                    event_class=draw(st.sampled_from([None, "A", "B"])) if event else None,
                    forfeit=draw(st.integers(0, 15)) == 0,
                )
            )
    return games, starts


def half_away(value: Fraction) -> int:
    return int(value + Fraction(1, 2)) if value >= 0 else -int(-value + Fraction(1, 2))


def check_sagc(terms: dict[str, Any], change: float, after: float) -> None:
    product = terms["LF"] * terms["GSF"] * terms["OF"] * terms["GRF"] * terms["HF"]
    assert product == terms["product"]
    assert terms["rounded"] == half_away(product)
    assert terms["change"] == change
    if terms["boundary"] is None:
        assert change == terms["rounded"]
        assert terms["index_after"] == terms["index"] + change == after
    elif terms["boundary"].startswith("stopped"):
        assert terms["index"] + change == after
    else:
        assert after == 0 and change == terms["rounded"]


def check_egf(terms: dict[str, Any], change: float, after: float) -> None:
    bonus = terms.get("bonus", 0.0)
    assert terms["weight"] * (terms["con"] * (terms["Sa"] - terms["Se"]) + bonus) == change
    if "beta" in terms:
        assert terms["Se"] == pytest.approx(
            1 / (1 + math.exp(terms["beta_opponent"] - terms["beta"])), abs=1e-12
        )
    else:
        d = terms["opponent_in_Se"] - terms["rating_in_Se"]
        assert terms["Se"] == pytest.approx(
            1 / (math.exp(d / terms["a"]) + 1) - terms["epsilon"] / 2, abs=1e-12
        )
    assert terms["rating_in_Se"] - terms["rating"] == terms["handicap_shift"]
    assert after == max(terms["floor"], terms["rating"] + terms["period_changes"])


def check_ffg(terms: dict[str, Any], change: float, after: float) -> None:
    assert terms["coefficient"] * terms["K"] * (terms["R"] - terms["P"] + terms["epsilon_half"]) == change
    assert terms["P"] == pytest.approx(1 / (math.exp(terms["D"] / terms["a"]) + 1), abs=1e-12)
    assert terms["start_levels"][0] == terms["entry_level"]
    published = terms["level_at_period_end"]
    assert terms["published"] == math.copysign(math.floor(abs(published) + 0.5), published)


def check_ffg_old(terms: dict[str, Any], change: float, after: float) -> None:
    assert terms["stage_1_basic"] * terms["stages_2_4_coefficient"] * terms["stage_5_weight"] == change


def check_west_surrey(terms: dict[str, Any], change: float, after: float) -> None:
    assert round(terms["strength_after"] - terms["strength"], 6) == change == terms["change"]
    assert terms["strength_after"] == after
    assert parse_rank(terms["rung_after"]) == pytest.approx(after)


CHECKS = {
    "sagc": check_sagc,
    "egf": check_egf,
    "egf-old": check_egf,
    "ffg": check_ffg,
    "ffg-old": check_ffg_old,
    "west-surrey": check_west_surrey,
}


@pytest.mark.parametrize("system", SYSTEM_NAMES)
@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(history=histories())
def test_the_terms_of_every_explanation_recombine_to_the_stored_change(
    system: str, history: tuple[list[Game], dict[PlayerId, Start]]
) -> None:
    games, starts = history
    engine = get_system(system)
    plain = engine.rate(games, starts=starts)
    result = engine.rate(games, starts=starts, explain=True)
    ledger = result.ledger
    assert list(ledger.change) == list(plain.ledger.change)  # explaining changes nothing
    assert result.explanations is not None and len(result.explanations) == 2 * len(games)
    for slot, explanation in enumerate(result.explanations):
        assert explanation is not None
        json.dumps(explanation.to_json())  # plain JSON
        terms = explanation.terms
        change, after = ledger.change[slot], ledger.rating_after[slot]
        assert terms["change"] == change
        if "reason" in terms and terms["reason"] is not None and system != "west-surrey":
            assert change == 0
            continue
        CHECKS[system](dict(terms), change, after)


#: What each system calls the rating before an adjustment, and how it shows ratings.
ADJUSTED_FROM: dict[str, tuple[str, Callable[[float], object]]] = {
    "egf": ("rating", float),
    "egf-old": ("rating", float),
    "ffg": ("level", float),
    "ffg-old": ("level", float),
    "west-surrey": ("rung", format_rank),
}

#: The reason an adjustment row gives, where it is not just "committee adjustment".
ADJUSTMENT_REASON = {"west-surrey": "strength set after a tournament (committee adjustment)"}


@pytest.mark.parametrize("system", sorted(ADJUSTED_FROM))
def test_a_committee_adjustment_is_explained_between_two_games(system: str) -> None:
    # The properties' histories hold games only.  An adjustment's row names the
    # rating it set and the one before, as the ledger holds them; it has no
    # second row, and the games on either side are still explained as games.
    # (SAGC explains no adjustment row: its explanation is None.)
    events: list[Game | Adjustment] = [
        Game(DAY, "a", "b", Winner.WHITE, kind=Kind.TOURNAMENT, event="T"),
        Adjustment(DAY + timedelta(days=30), "a", -3.0),
        Game(DAY + timedelta(days=60), "a", "b", Winner.BLACK, kind=Kind.TOURNAMENT, event="U"),
    ]
    result = get_system(system).rate(
        events, starts={"a": Start(rank=-5.0), "b": Start(rank=-5.0)}, explain=True
    )
    ledger, explanations = result.ledger, result.explanations
    assert explanations is not None and len(explanations) == 6
    adjustment = explanations[2]
    assert adjustment is not None and explanations[3] is None
    key, shown = ADJUSTED_FROM[system]
    before, after = ledger.rating_before[2], ledger.rating_after[2]
    assert before != after
    assert dict(adjustment.terms) == {
        key: shown(before),
        "adjusted_to": shown(after),
        "change": ledger.change[2],
        "reason": ADJUSTMENT_REASON.get(system, "committee adjustment"),
    }
    assert adjustment.formula == f"change = adjusted_to − {key}"
    for slot in (0, 1, 4, 5):
        explanation = explanations[slot]
        assert explanation is not None and "adjusted_to" not in explanation.terms
        assert explanation.terms["change"] == ledger.change[slot]


# --- golden explanations: the sources' and the EGD's worked examples ---------------------------


def explain_one(
    system: str, game: Game, starts: dict[PlayerId, Start], **settings: Any
) -> tuple[dict[str, Any], ...]:
    result = get_system(system, **settings).rate([game], starts=starts, explain=True)
    assert result.explanations is not None
    white, black = result.explanations[0], result.explanations[1]
    assert white is not None and black is not None
    return dict(white.terms), dict(black.terms)


def test_ffg_2022_worked_example_15k_against_14k_when_the_14k_wins() -> None:
    # the FFG algorithm page: D = 100, a = (1250 + 1450)/7 ≈ 386, P(15k) = 43,55 %, K 90 and 85,
    # ε 10 %: the 14k wins 85 x (1 - 0,5645 + 0,05) = 41,3, the 15k loses -34,7.
    game = Game(DAY, "14k", "15k", Winner.WHITE, event="T")
    white, black = explain_one("ffg", game, {"14k": Start(rating=-1350.0), "15k": Start(rating=-1450.0)})
    assert black["D"] == 100 and round(black["a"]) == 386
    assert round(black["P"], 4) == 0.4355 and round(white["P"], 4) == 0.5645
    assert (white["K"], black["K"], white["epsilon"]) == (85, 90, 0.1)
    assert round(white["change"], 1) == 41.3 and round(black["change"], 1) == -34.7
    assert white["iterations"] == 1 and white["start_levels"] == [-1350.0]


def test_sagc_faq_example_the_16k_reads_plus_2_and_the_14k_minus_2() -> None:
    # the SAGC FAQ: "The 16k player will read his GRF from the +2 row, while the 14k
    # will read his from the -2 row" (16k Black, even game); the 16k wins in the
    # promotion zone: GRF 2.2; the 14k loses there: -1.8.  LF(16k) = 22² + 33 + 55
    # + 22⁵/30000 (x = 22), HF 1, OF 1, club game.
    game = Game(DAY, "14k", "16k", Winner.BLACK)
    white, black = explain_one("sagc", game, {"14k": Start(rank=-14), "16k": Start(rank=-16)})
    assert (black["differential"], white["differential"]) == (2, -2)
    assert (black["GRF"], white["GRF"]) == (Fraction("2.2"), Fraction("-1.8"))
    assert black["x"] == 22 and black["LF"] == 22**2 + 33 + 55 + Fraction(22**5, 30000)
    assert black["change"] == round(float(black["LF"]) * 2.2)


def test_sagc_level_factors_of_the_faqs_table() -> None:
    # the SAGC FAQ's table: 3d 77, 1k 115, 10k 370, 22k 1455 (rounded).
    for rank, table in ((2, 77), (-1, 115), (-10, 370), (-22, 1455)):
        game = Game(DAY, "w", "b", Winner.WHITE)
        white, _ = explain_one("sagc", game, {"w": Start(rank=rank), "b": Start(rank=rank)})
        assert round(white["LF"]) == table


def test_west_surrey_worked_example_fred_and_bert() -> None:
    # the West Surrey ladder page: Fred 1.3d, Bert 14.5k, handicap 14; Bert wins: 14k, Fred 1.2d.
    game = Game(DAY, "Fred", "Bert", Winner.BLACK)
    fred, bert = explain_one("west-surrey", game, {"Fred": Start(rank=0.3), "Bert": Start(rank=-14.5)})
    assert fred["handicap_levels"] == bert["handicap_levels"] == 14
    assert "14 stones" in bert["handicap_options"] and "140 komi" in bert["handicap_options"]
    assert (bert["rung_after"], bert["move"], bert["change"]) == ("14k", "up one rung", 0.5)
    assert (fred["rung_after"], fred["move"], fred["change"]) == ("1.2d", "down one rung", -0.1)


def test_egf_egd_tournament_t191116b_handicap_game() -> None:
    # EGD T191116B: a 600 beats a 39.888 who took 3 stones; Black counts 289.888,
    # White's Se 0.682: White +24.739, Black -22.052.
    game = Game(DAY, "w", "b", Winner.WHITE, handicap=3, komi=0.5, kind=Kind.TOURNAMENT, event="T")
    white, black = explain_one("egf", game, {"w": Start(rating=600.0), "b": Start(rating=39.888)})
    assert black["handicap_shift"] == pytest.approx(250) and white["handicap_shift"] == 0
    assert round(white["Se"], 3) == 0.682
    assert round(white["change"], 3) == 24.739 and round(black["change"], 3) == -22.052


def test_egf_names_every_term_of_a_rated_game() -> None:
    # The terms are the explanation's words on the game page: their names are its contract.
    game = Game(
        DAY, "w", "b", Winner.WHITE, handicap=3, komi=0.5, kind=Kind.TOURNAMENT, event="T", event_class="B"
    )
    white, black = explain_one("egf", game, {"w": Start(rating=600.0), "b": Start(rating=39.888)})
    assert list(white) == list(black) == [
        "rating", "handicap", "handicap_shift", "rating_in_Se", "opponent_in_Se", "Sa", "Se", "con",
        "beta", "beta_opponent", "bonus", "class", "weight", "change", "rating_before", "period_changes",
        "rating_after", "floor", "floored",
    ]  # fmt: skip
    assert (white["handicap"], black["handicap"], white["class"], white["weight"]) == (3, 3, "B", 0.75)
    assert (white["rating_before"], black["rating_before"]) == (600.0, 39.888)
    assert white["rating_after"] == 600.0 + white["change"]
    assert black["rating_after"] == pytest.approx(39.888 + black["change"])


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ({"forfeit": True}, "a forfeit is not a game"),
        ({"kind": Kind.FREE}, "free games do not count"),
        ({"board": 13}, "this game does not count (a board other than 19x19, or a fast game)"),
    ],
)
def test_an_egf_game_that_does_not_count_says_why(extra: dict[str, Any], reason: str) -> None:
    # After a rated game of two others, so that each side's row is its own player's.
    games = [
        Game(DAY, "x", "y", Winner.WHITE, event="T"),
        Game(DAY, "w", "b", Winner.WHITE, event="T", **extra),
    ]
    starts: dict[PlayerId, Start] = {
        "x": Start(rating=100.0),
        "y": Start(rating=200.0),
        "w": Start(rating=600.0),
        "b": Start(rating=1000.0),
    }
    explanations = get_system("egf").rate(games, starts=starts, explain=True).explanations
    assert explanations is not None
    white, black = explanations[2], explanations[3]
    assert white is not None and black is not None
    assert dict(white.terms) == {"level": 600.0, "change": 0.0, "reason": reason}
    assert dict(black.terms) == {"level": 1000.0, "change": 0.0, "reason": reason}
    assert white.formula == f"no change: {reason}"


def test_egf_old_egd_example_5() -> None:
    # EGD old Example 5 (epsilon 0): 1850 with 5 stones beats 2400: counts 2300, a = 90,
    # Se(Black) = 0.248, con 33 and 15: +24.8 and -11.3.
    game = Game(DAY, "w", "b", Winner.BLACK, handicap=5, komi=0.5, kind=Kind.TOURNAMENT, event="T")
    white, black = explain_one(
        "egf-old", game, {"w": Start(rating=2400.0), "b": Start(rating=1850.0)}, epsilon=0.0
    )
    assert black["rating_in_Se"] == 2300 and black["a"] == 90 and white["a"] == 90
    assert round(black["Se"], 3) == 0.248
    assert (black["con"], white["con"]) == (33, 15)
    assert round(black["change"], 1) == 24.8 and round(white["change"], 1) == -11.3


def test_ffg_old_worked_example_of_the_stages() -> None:
    # docs (the French Ladder page's stages): White 2k (-150) beats Black 6k (-550) with 4 stones:
    # NFN = -200, stage 1: 11.67 / -11.67; stage 2: x 0.6; stage 5: x 1.15 and 1.55.
    game = Game(DAY, "w", "b", Winner.WHITE, handicap=4, komi=0.5, event="T")
    white, black = explain_one("ffg-old", game, {"w": Start(rating=-150.0), "b": Start(rating=-550.0)})
    assert round(white["stage_1_basic"], 2) == 11.67 and round(black["stage_1_basic"], 2) == -11.67
    assert white["stages_2_4_coefficient"] == black["stages_2_4_coefficient"] == 0.6
    assert (white["stage_5_weight"], black["stage_5_weight"]) == (1.15, 1.55)
    assert round(white["change"], 2) == 8.05 and round(black["change"], 2) == -10.85


# --- manage.py rate --explain ------------------------------------------------------------------


@pytest.mark.parametrize("system", SYSTEM_NAMES)
def test_rate_explain_adds_a_json_explanation_column(system: str) -> None:
    text = (
        "date,white,black,winner,handicap,komi,white_start,black_start\n"
        "2024-01-06,Ann,Bob,white,2,0.5,5k,7k\n"
        "2024-01-06,Bob,Cid,black,0,6.5,7k,10k\n"
    )
    rows = list(csv.DictReader(io.StringIO(rate_csv(text, system, explain=True))))
    assert len(rows) == 4
    for row in rows:
        explanation = json.loads(row["explanation"])
        assert set(explanation) == {"terms", "formula"} and explanation["formula"]
        assert float(row["change"]) == pytest.approx(explanation["terms"]["change"], abs=0.06)
    assert "explanation" not in rate_csv(text, system).splitlines()[0]
