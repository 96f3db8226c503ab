"""A game's explanation from the states the stored history gives at its
period's start (ratings/recompute/stored.py) is the explanation by a full
replay: the same rows and the same terms, in every system, for random
histories with adjustments, new players, tournaments over several days,
games that some systems do not count, and a list whose systems changed."""

from __future__ import annotations

from bisect import bisect_left
from datetime import date, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from ratings import recompute
from ratings.engine import SYSTEM_NAMES
from ratings.explain.games import Status, explain_game
from ratings.models import Club, Game, HistoryEntry, Player, RankAdjustment, RatingCheckpoint, RecordSheet
from tests.recompute.entries import ENTERED, enter_game
from tests.support import MakePlayer, examples

pytestmark = pytest.mark.django_db

DAY0 = date(2025, 3, 1)
PLAYERS = 7
ALL = [name for name in SYSTEM_NAMES if name != "sagc"]

game = st.fixed_dictionaries(
    {
        "kind": st.just("game"),
        "day": st.integers(0, 12),
        "white": st.integers(0, PLAYERS - 1),
        "step": st.integers(1, PLAYERS - 1),
        "winner": st.sampled_from(["white", "black", "jigo"]),
        "handicap": st.sampled_from([0, 0, 0, 2, 4]),
        # club, tournament (one event over all its days), free (no system
        # but West Surrey's counts it), a forfeit (none does)
        "how": st.sampled_from(["club", "club", "tournament", "tournament", "free", "forfeit"]),
        # 13x13 counts less on the ladders; EGF does not rate it, nor a fast game.
        "board": st.sampled_from([19, 19, 19, 13]),
        "minutes": st.sampled_from([None, None, 40, 20]),
    }
)
adjustment = st.fixed_dictionaries(
    {
        "kind": st.just("adjustment"),
        "day": st.integers(0, 12),
        "player": st.integers(0, PLAYERS - 1),
        "rank": st.integers(-20, 2),
        "rated": st.booleans(),
    }
)
# A step: enter an item, then maybe recompute (incrementally).
steps = st.lists(st.tuples(st.one_of(game, game, game, adjustment), st.booleans()), min_size=1, max_size=30)


def _game(day: int, white: int, step: int = 1, how: str = "club") -> dict[str, Any]:
    return {"kind": "game", "day": day, "white": white, "step": step, "winner": "white", "handicap": 0,
            "how": how, "board": 19, "minutes": None}  # fmt: skip


#: A player whose last twelve games count on no ladder (free games): the
#: ladders' rows read do not settle their known flag; their explanation
#: replays from a checkpoint (and is still the full replay's).
UNKNOWN_AFTER_TWELVE_FREE_GAMES = [(_game(d % 13, 0, 1 + d % 3, how="free"), d == 7) for d in range(13)] + [
    (_game(12, 0), True),
]
#: SAGC: more than ten games before the period, with forfeits among the
#: last ones (not among the last ten opponents), and a tournament over
#: three days around a club night.
FORFEITS_AND_A_LONG_TOURNAMENT = (
    [(_game(d % 5, 0, 1 + d % 3), d == 6) for d in range(12)]
    + [(_game(5, 0, 1, how="forfeit"), False), (_game(5, 1, 1, how="forfeit"), False)]
    + [(_game(d, 0, 1 + d % 3, how="tournament"), False) for d in (7, 8, 9)]
    + [(_game(8, 3, 1), True)]
)
#: Adjustments with and without a rating, before and inside a tournament.
ADJUSTMENTS = [
    (_game(1, 0), False),
    ({"kind": "adjustment", "day": 2, "player": 0, "rank": -5, "rated": True}, False),
    ({"kind": "adjustment", "day": 3, "player": 1, "rank": -12, "rated": False}, True),
    (_game(4, 0, how="tournament"), False),
    ({"kind": "adjustment", "day": 5, "player": 2, "rank": -3, "rated": False}, False),
    (_game(6, 1, how="tournament"), False),
]

#: A French ladder's club night closed for all by one of its players: 2-3
#: play a tournament game in between, so 0-1's second game opens a new
#: period, although 0 and 1 never meet 2 or 3 (linked.py: period-wide).
A_CLUB_NIGHT_CLOSED_BY_ANOTHER_PAIR = [
    (_game(5, 0), False),
    (_game(5, 2), False),
    (_game(5, 3, how="tournament"), False),
    (_game(5, 0), False),
    (_game(6, 5), True),
]


def _enter(club: Club, players: list[Player], n: int, item: dict[str, Any]) -> date:
    day = DAY0 + timedelta(days=item["day"])
    if item["kind"] == "adjustment":
        RankAdjustment.objects.create(
            rating_list=club.rating_list, player=players[item["player"]], date=day, rank=item["rank"],
            rating=20.0 if item["rated"] else None,  # an index, a GoR (the floor), a level
            entered_at=ENTERED + timedelta(minutes=n),
        )  # fmt: skip
        return day
    white = players[item["white"]]
    black = players[(item["white"] + item["step"]) % PLAYERS]
    how = item["how"]
    enter_game(
        club, day, white, black, n, how == "tournament", winner=item["winner"], handicap=item["handicap"],
        komi=6.5 if item["handicap"] == 0 else 0.5, forfeit=how == "forfeit", board=item["board"],
        minutes=item["minutes"], **({"kind": "free"} if how == "free" else {}),
    )  # fmt: skip
    return day


def _history(
    club: Club, make_player: MakePlayer, steps: list[tuple[dict[str, Any], bool]], every: int, changed: bool
) -> None:
    """The scenario entered with recomputes in between (a checkpoint every
    ``every`` events).  ``changed``: the list computes SAGC and the FFG
    ladder until half way, then all six systems (as a site admin ticks
    them: no recompute until the next entry)."""
    for model in (HistoryEntry, RatingCheckpoint, Game, RankAdjustment, RecordSheet):
        model.objects.all().delete()
    Player.objects.all().delete()
    rating_list = club.rating_list
    rating_list.compared_systems = ["ffg"] if changed else ALL
    rating_list.dirty_from, rating_list.dirty_generation, rating_list.clean_generation = None, 0, 0
    rating_list.save()
    # Players join over the days: the later ones are new in a later period.
    players = [
        make_player(f"P{i}", rank=-18 + 3 * i, since=DAY0 + timedelta(days=2 * i)) for i in range(PLAYERS)
    ]
    options = recompute.Options(checkpoint_every=every)
    for n, (item, recompute_now) in enumerate(steps):
        if changed and n == len(steps) // 2:
            rating_list.compared_systems = ALL
            rating_list.save(update_fields=["compared_systems"])
        day = _enter(club, players, n, item)
        recompute.mark_dirty(rating_list, day)
        if recompute_now:
            recompute.recompute_list(rating_list.pk, options=options)
    recompute.recompute_list(rating_list.pk, options=options)
    rating_list.refresh_from_db()
    assert rating_list.dirty_from is None and rating_list.systems == ["sagc", *ALL]


def _by_full_replay(game: Game) -> list[tuple[Any, ...]]:
    """Each system's two rows of ``game`` and their terms, by a replay of
    the whole timeline from its first event (the period explained)."""
    rating_list = game.rating_list
    start, end = recompute.period_bounds(rating_list, game.date)
    timeline = recompute.load_timeline(rating_list, None, until=end)
    first = bisect_left(timeline.days, start)
    at = timeline.game_ids.index(game.pk) - first
    rows = []
    for name, system in recompute.list_systems(rating_list):
        before = system.rate(timeline.events[:first], starts=timeline.starts).state
        result = system.rate(timeline.events[first:], state=before, starts=timeline.starts, explain=True)
        assert result.explanations is not None
        for colour in (0, 1):
            explanation = result.explanations[2 * at + colour]
            assert explanation is not None
            row = result.ledger.row(at, colour)
            assert row is not None
            reason = explanation.terms.get("reason")
            terms = {} if reason else dict(explanation.terms)
            rows.append((name, colour, *row, terms, "" if reason else explanation.formula))
    return rows


def _states_match_the_full_replay(game: Game) -> None:
    """states_before at the game's period is the full replay's state there,
    for every system it settles; EGF's and West Surrey's it always settles."""
    rating_list = game.rating_list
    start, end = recompute.period_bounds(rating_list, game.date)
    timeline = recompute.load_timeline(rating_list, None, until=end)
    first = bisect_left(timeline.days, start)
    players = {*timeline.first[first:], *timeline.second[first:]} - {None}
    systems = recompute.list_systems(rating_list)
    found = recompute.states_before(systems, start, players, timeline.starts)
    ladders = [(name, system) for name, system in systems if system.earlier_settles]
    earlier = recompute.earlier_states(rating_list, ladders, start, players)
    # The ladders alone (as the game page reads them), with their known flag
    # from an earlier checkpoint and without.
    found_earlier = (
        recompute.states_before(ladders, start, players, timeline.starts, earlier) if ladders else {}
    )
    plain = recompute.states_before(ladders, start, players, timeline.starts) if ladders else {}
    for name, system in systems:
        replayed = system.rate(timeline.events[:first], starts=timeline.starts).state
        expected = {p: replayed[p] for p in players if p in replayed}
        if name in ("egf", "egf-old", "west-surrey"):
            assert found[name] is not None, name
        if found[name] is not None:
            assert found[name] == expected, name
        if found_earlier.get(name) is not None:
            assert found_earlier[name] == expected, name
        if plain.get(name) is not None:
            assert plain[name] == expected, name
            assert found_earlier[name] is not None, f"{name}: an earlier checkpoint settles no less"


def _check(club: Club) -> None:
    for game in Game.objects.filter(club=club, forfeit=False).select_related("rating_list", "white", "black"):
        explanation = explain_game(game)
        assert explanation.status is Status.EXPLAINED
        assert explanation.consistent, "the stored history is the replay's"
        shown = [
            (
                each.system, colour, side.rank_before, side.rating_before, side.change, side.rank_after,
                side.rating_after, dict(side.terms), side.formula,
            )
            for each in explanation.systems
            for colour, side in enumerate(each.sides)
        ]  # fmt: skip
        assert shown == _by_full_replay(game)
        _states_match_the_full_replay(game)


@settings(
    max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(steps=steps, every=st.integers(1, 8), changed=st.booleans())
@example(steps=UNKNOWN_AFTER_TWELVE_FREE_GAMES, every=2, changed=False)
@example(steps=FORFEITS_AND_A_LONG_TOURNAMENT, every=3, changed=False)
@example(steps=ADJUSTMENTS, every=1, changed=True)
@example(steps=A_CLUB_NIGHT_CLOSED_BY_ANOTHER_PAIR, every=1, changed=False)
def test_the_explanation_from_stored_states_is_the_full_replays(
    club: Club, make_player: MakePlayer, steps: list[tuple[dict[str, Any], bool]], every: int, changed: bool
) -> None:
    _history(club, make_player, steps, every, changed)
    _check(club)


def test_a_player_unknown_after_twelve_free_games_is_replayed_from_a_checkpoint(
    club: Club, make_player: MakePlayer
) -> None:
    _history(club, make_player, UNKNOWN_AFTER_TWELVE_FREE_GAMES, 2, False)
    last = Game.objects.filter(club=club, kind="club").select_related("rating_list").get()
    assert last is not None
    start, end = recompute.period_bounds(last.rating_list, last.date)
    timeline = recompute.load_timeline(last.rating_list, start, until=end)
    found = recompute.states_before(
        recompute.list_systems(last.rating_list), start, {*timeline.first, *timeline.second}, timeline.starts
    )
    assert found["ffg"] is None and found["ffg-old"] is None, "twelve free games: known is not settled"
    assert found["sagc"] is not None and found["egf"] is not None
    _check(club)


def test_sagc_takes_the_last_ten_opponents_past_forfeits_from_the_rows(
    club: Club, make_player: MakePlayer
) -> None:
    _history(club, make_player, FORFEITS_AND_A_LONG_TOURNAMENT, 3, False)
    last = Game.objects.filter(club=club, kind="club").order_by("-date").select_related("rating_list").first()
    assert last is not None and last.date == DAY0 + timedelta(days=8)
    start, end = recompute.period_bounds(last.rating_list, last.date)
    assert (start, end) == (DAY0 + timedelta(days=7), DAY0 + timedelta(days=9)), "the tournament's days"
    timeline = recompute.load_timeline(last.rating_list, start, until=end)
    players = {*timeline.first, *timeline.second}
    found = recompute.states_before(recompute.list_systems(last.rating_list), start, players, timeline.starts)
    sagc = found["sagc"]
    assert sagc is not None
    assert max(len(state.recent) for state in sagc.values()) == 10
    _check(club)


#: A player known on the ladders from their first game, then twelve free
#: games: their last rows' games do not say they are known, the latest
#: checkpoint does (a player once known stays known).
KNOWN_THEN_TWELVE_FREE_GAMES = (
    [(_game(0, 0), True)]
    + [(_game(1 + d % 11, 0, 1 + d % 3, how="free"), d == 7) for d in range(12)]
    + [(_game(12, 0), True)]
)


def test_the_ladders_take_known_from_an_earlier_checkpoint(club: Club, make_player: MakePlayer) -> None:
    _history(club, make_player, KNOWN_THEN_TWELVE_FREE_GAMES, 2, False)
    last = Game.objects.filter(club=club, kind="club").order_by("-date").select_related("rating_list").first()
    assert last is not None and last.date == DAY0 + timedelta(days=12)
    rating_list = last.rating_list
    start, end = recompute.period_bounds(rating_list, last.date)
    timeline = recompute.load_timeline(rating_list, start, until=end)
    players = {*timeline.first, *timeline.second} - {None}
    ladders = [(name, system) for name, system in recompute.list_systems(rating_list) if system.period_wide]
    earlier = recompute.earlier_states(rating_list, ladders, start, players)
    assert sorted(earlier) == ["ffg", "ffg-old"]
    assert all(state.known for states in earlier.values() for state in states.values())
    without = recompute.states_before(ladders, start, players, timeline.starts)
    assert without == {"ffg": None, "ffg-old": None}, "four free games: the rows alone do not settle known"
    found = recompute.states_before(ladders, start, players, timeline.starts, earlier)
    assert found["ffg"] is not None and found["ffg-old"] is not None
    _check(club)
