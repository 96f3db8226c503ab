"""The exact messages of the engine's refusals.

A committee member reads them when a game or an adjustment is refused, and
a maintainer when a stored state cannot be read: each names the event, the
field and what it got.  Other tests check that each refusal happens; these
pin its words, a field named for the wrong case, and the edges the checks
accept (written for the survivors of a mutation run, docs/testing.md).
"""

from __future__ import annotations

import math
from datetime import date
from typing import Any

import pytest

from ratings.engine import ENGINE, get_system
from ratings.engine.base import Adjustment, Event, Game, InvalidEvent, PlayerId, RatingError, Start, Winner
from ratings.engine.egf_common import state_from_json as egf_state
from ratings.engine.ffg_common import ladder_player_from_json
from ratings.engine.sagc import SAGC, SAGCState

DAY = date(2024, 5, 4)
NAN = math.nan
#: A first game, so that the event refused is event 1 (not 0, which a lost index also gives).
FIRST = Game(DAY, "a", "b", Winner.WHITE)
STARTS: dict[PlayerId, Start] = {"a": Start(rank=-5), "b": Start(rank=-6)}


def refusal(system: str, event: Event) -> str:
    with pytest.raises(RatingError) as caught:
        get_system(system).rate([FIRST, event], starts=STARTS)
    return str(caught.value)


@pytest.mark.parametrize(
    ("system", "event", "message"),
    [
        ("egf", Adjustment(DAY, "z", rank=-5), "event 1: player 'z' has no start rank or rating"),
        ("egf", Adjustment(DAY, "a", rank=NAN), "event 1: rank: not a rank: nan"),
        (
            "egf",
            Adjustment(DAY, "a", rank=0, rating=NAN),
            "event 1: rating: GoR nan is outside the EGF scale",
        ),
        (
            "egf",
            Adjustment(DAY, "a", rank=0, rating=3300.0),
            "event 1: rating: GoR 3300.0 is outside the EGF scale",
        ),
        ("ffg", Adjustment(DAY, "a", rank=NAN), "event 1: rank: not a rank on the shared scale: nan"),
        ("ffg", Adjustment(DAY, "a", rank=-41.0), "event 1: rank: not a rank on the shared scale: -41.0"),
        ("ffg", Adjustment(DAY, "a", rank=9.5), "event 1: rank: not a rank on the shared scale: 9.5"),
        ("ffg", Adjustment(DAY, "a", rank=0, rating=NAN), "event 1: rating: must be a finite level, got nan"),
        ("west-surrey", Adjustment(DAY, "a", rank=NAN), "event 1: rank: not a strength: nan"),
        ("west-surrey", Adjustment(DAY, "a", rank=0, rating=NAN), "event 1: rating: not a strength: nan"),
        (
            "sagc",
            Adjustment(DAY, "a", rank=NAN),
            "event 1: rank: expected a whole rank from 30k to 9d, got nan (not a rank)",
        ),
        (
            "sagc",
            Adjustment(DAY, "a", rank=3.5),
            "event 1: rank: expected a whole rank from 30k to 9d, got 3.5 (4.5d)",
        ),
    ],
)
def test_a_refused_adjustment_names_its_field_and_value(system: str, event: Event, message: str) -> None:
    assert refusal(system, event) == message


@pytest.mark.parametrize(
    ("system", "event", "message"),
    [
        ("egf", Adjustment(DAY, "a", rank="3d"), "event 1: rank: not a rank: '3d'"),  # type: ignore[arg-type]
        ("ffg", Adjustment(DAY, "a", rank=0, rating="x"), "event 1: rating: must be a finite level, got 'x'"),  # type: ignore[arg-type]
    ],
)
def test_an_adjustment_of_the_wrong_type_is_refused(system: str, event: Event, message: str) -> None:
    """The pure engine checks the value and names it; the compiled engine
    (mypyc) refuses a str where its types say a number before any check
    runs, with a TypeError."""
    if ENGINE == "compiled":
        with pytest.raises(TypeError):
            get_system(system).rate([FIRST, event], starts=STARTS)
    else:
        assert refusal(system, event) == message


@pytest.mark.parametrize("system", ["egf", "west-surrey"])
def test_an_adjustment_of_a_player_with_no_start(system: str) -> None:
    # West Surrey: "Decision: an adjustment may introduce a player", at the rung it sets;
    # EGF refuses a player it cannot start, naming the event.
    events: list[Event] = [FIRST, Adjustment(DAY, "z", rank=-3)]
    if system == "west-surrey":
        result = get_system(system).rate(events, starts=STARTS)
        row = result.ledger.row(1)
        assert row is not None and row[1:] == (-3.0, 0.0, -3.0, -3.0)
    else:
        with pytest.raises(RatingError) as caught:
            get_system(system).rate(events, starts=STARTS)
        assert str(caught.value) == "event 1: player 'z' has no start rank or rating"


def test_egf_accepts_an_adjustment_to_the_top_of_its_scale() -> None:
    result = get_system("egf").rate([FIRST, Adjustment(DAY, "a", rank=0, rating=3299.0)], starts=STARTS)
    assert result.ledger.rating_after[2] == 3299.0


@pytest.mark.parametrize(
    ("read", "data", "message"),
    [
        (egf_state, {"rating": math.inf}, "EGF state rating must be finite, got inf"),
        (ladder_player_from_json, {"level": NAN, "known": True}, "FFG state 'level' must be finite, got nan"),
        (SAGC().state_from_json, {"index": 0}, "SAGC state: missing field 'rank'"),
        (SAGC().state_from_json, {"rank": -31, "index": 0}, "SAGC state: rank: expected a whole rank -30..8, got -31"),
        (SAGC().state_from_json, {"rank": -5, "index": 5.0}, "SAGC state: index: expected a whole number -999..999, got 5.0"),
        (SAGC().state_from_json, {"rank": -5, "index": 1000}, "SAGC state: index: expected a whole number -999..999, got 1000"),
        (SAGC().state_from_json, {"rank": -5, "index": 0, "recent": "abc"}, "SAGC state: recent: expected a list of at most ten opponents"),
        (SAGC().state_from_json, {"rank": -5, "index": 0, "recent": list("abcdefghijk")}, "SAGC state: recent: expected a list of at most ten opponents"),
    ],
)  # fmt: skip
def test_a_stored_state_that_cannot_be_read_says_why(read: Any, data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError) as caught:
        read(data)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("data", "state"),
    [
        ({"rank": -5, "index": 0}, SAGCState(-5, 0, ())),
        ({"rank": -30, "index": -999, "recent": []}, SAGCState(-30, -999, ())),
        ({"rank": 8, "index": 999, "recent": list("abcdefghij")}, SAGCState(8, 999, tuple("abcdefghij"))),
    ],
)
def test_a_sagc_state_at_the_edges_is_read(data: dict[str, Any], state: SAGCState) -> None:
    assert SAGC().state_from_json(data) == state


@pytest.mark.parametrize("system", ["west-surrey", "sagc"])
def test_an_event_of_another_type_is_refused_by_name(system: str) -> None:
    assert refusal(system, "a game") == "event 1: event: expected a Game or an Adjustment, got str"  # type: ignore[arg-type]


def test_west_surrey_names_a_player_with_no_start() -> None:
    assert (
        refusal("west-surrey", Game(DAY, "a", "z", Winner.WHITE))
        == "event 1: player 'z' has no start rank or rating"
    )


@pytest.mark.parametrize(
    "extra",
    [
        {"handicap": 0},
        {"handicap": 1, "komi": 0.5},
        {"handicap": 48, "komi": 0.5},
        {"board": 9},
        {"board": 13},
        {"winner": Winner.JIGO},
    ],
)
def test_west_surrey_accepts_the_edges_of_each_field(extra: dict[str, Any]) -> None:
    fields: dict[str, Any] = {"winner": Winner.WHITE} | extra
    result = get_system("west-surrey").rate([FIRST, Game(DAY, "a", "b", **fields)], starts=STARTS)
    assert result.ledger.row(1) is not None


@pytest.mark.parametrize(("rank", "index"), [(-30, -999), (8, 999), (-5, 0)])
def test_sagc_accepts_an_adjustment_at_the_ends_of_its_scales(rank: int, index: int) -> None:
    # An SAGC adjustment's rating is the index within the rank.
    result = get_system("sagc").rate([FIRST, Adjustment(DAY, "a", rank=rank, rating=index)], starts=STARTS)
    row = result.ledger.row(1)
    assert row is not None and row[3:] == (float(rank), float(index))


@pytest.mark.parametrize("system", ["egf", "egf-old", "ffg", "ffg-old", "west-surrey", "sagc"])
def test_a_replay_explains_only_when_asked(system: str) -> None:
    assert get_system(system).rate([FIRST], starts=STARTS).explanations is None
    assert get_system(system).rate([FIRST], starts=STARTS, explain=True).explanations is not None


ALL = ["egf", "egf-old", "ffg", "ffg-old", "west-surrey", "sagc"]


@pytest.mark.parametrize("system", ALL)
def test_a_game_of_a_player_with_no_start_names_the_event_and_the_player(system: str) -> None:
    assert (
        refusal(system, Game(DAY, "a", "z", Winner.WHITE))
        == "event 1: player 'z' has no start rank or rating"
    )


@pytest.mark.parametrize(
    ("system", "message"),
    [
        ("egf", "event 1: black: player 'a' cannot play against themselves"),
        ("egf-old", "event 1: black: player 'a' cannot play against themselves"),
        ("ffg", "event 1: black: player 'a' cannot play against themselves"),
        ("ffg-old", "event 1: black: player 'a' cannot play against themselves"),
        ("west-surrey", "event 1: black: player 'a' cannot play against themselves"),
        ("sagc", "event 1: black: player 'a' cannot play against themselves"),
    ],
)
def test_a_game_against_oneself_is_refused_on_black(system: str, message: str) -> None:
    assert refusal(system, Game(DAY, "a", "a", Winner.WHITE)) == message


@pytest.mark.parametrize("system", ["egf", "egf-old", "ffg", "ffg-old"])
def test_the_period_systems_refuse_an_event_of_another_type_by_name(system: str) -> None:
    assert refusal(system, "a game") == "event 1: event: not a Game or Adjustment: str"  # type: ignore[arg-type]


@pytest.mark.parametrize("system", ["sagc", "egf", "egf-old", "ffg", "ffg-old", "west-surrey"])
def test_every_system_refuses_a_kind_it_does_not_know(system: str) -> None:
    # EGF used to rate an unknown kind as a tournament game.
    game = Game(DAY, "a", "b", Winner.WHITE, kind="blitz")  # type: ignore[arg-type]
    with pytest.raises(InvalidEvent) as caught:
        get_system(system).rate([FIRST, game], starts=STARTS)
    assert (caught.value.index, caught.value.field) == (1, "kind")
    assert str(caught.value) == "event 1: kind: expected free, internet, club or tournament, got 'blitz'"


@pytest.mark.parametrize("system", ["ffg", "ffg-old"])
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"tolerance": 0.0}, "tolerance must be above 0, got 0.0"),
        ({"tolerance": -0.1}, "tolerance must be above 0, got -0.1"),
        ({"max_iterations": 0}, "max_iterations must be at least 1, got 0"),
    ],
)
def test_a_ladder_refuses_settings_its_settling_cannot_use(
    system: str, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError) as caught:
        get_system(system, **options)
    assert str(caught.value) == message


def test_sagc_names_the_player_field_of_an_adjustment_whose_player_starts_with_an_index_only() -> None:
    # An adjustment may introduce a player with no start; one who starts
    # with a rating (an index) and no rank cannot be placed on SAGC's ranks.
    starts = STARTS | {"z": Start(rating=150.0)}
    with pytest.raises(InvalidEvent) as caught:
        SAGC().rate([FIRST, Adjustment(DAY, "z", rank=-3)], starts=starts)
    assert (caught.value.index, caught.value.field) == (1, "player")
    assert "player 'z': SAGC needs a starting rank such as '11k', not an index" in str(caught.value)


@pytest.mark.parametrize("system", ["ffg", "ffg-old"])
@pytest.mark.parametrize(
    ("extra", "field"),
    [({"komi": 1000.0}, "komi"), ({"komi": -1000.0}, "komi"), ({"minutes": -1}, "minutes")],
)
def test_a_ladder_names_the_field_of_a_komi_or_time_out_of_bounds(
    system: str, extra: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidEvent) as caught:
        get_system(system).rate([FIRST, Game(DAY, "a", "b", Winner.WHITE, **extra)], starts=STARTS)
    assert (caught.value.index, caught.value.field) == (1, field)


@pytest.mark.parametrize("system", ["ffg", "ffg-old"])
def test_a_ladder_accepts_a_komi_just_inside_its_bounds(system: str) -> None:
    for komi in (999.5, -999.5):
        result = get_system(system).rate([FIRST, Game(DAY, "a", "b", Winner.WHITE, komi=komi)], starts=STARTS)
        assert result.ledger.row(1) is not None


@pytest.mark.parametrize("system", ["ffg", "ffg-old"])
def test_a_ladder_refuses_a_start_level_that_is_not_a_number(system: str) -> None:
    with pytest.raises(InvalidEvent) as caught:
        get_system(system).rate([FIRST], starts={"a": Start(rating=NAN), "b": Start(rank=-6)})
    assert str(caught.value) == "event 0: start: player 'a': level nan is not a number"
