"""The West Surrey Go Club ladder (the West Surrey ladder page).

Every player stands on a rung of an unevenly spaced ladder from 40k to 9.9d.
After a ladder game "the winner is promoted one rung, the loser demoted one
rung (regardless of grades). A draw leaves the rungs unaltered."  The
handicap comes from the two strengths: "treat 'x'kyu = -x; 'y'dan = y-1.
Subtract the two strengths then ignore any fractions" — the shared rank scale
of :mod:`ratings.engine.ranks` is exactly that scale.

Also here: the handicap and komi options for a number of handicap levels
("taken as komi, stones or a mixture at black's discretion") and the West Surrey ladder page's
rule for choosing a tournament grade from the BGA rating list (promote at
+0.7, demote at -0.7).  Decisions are marked "Decision:" and explained in
docs/rating-systems.md.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ratings.engine.base import (
    Adjustment,
    Event,
    Explanation,
    Game,
    InvalidEvent,
    Kind,
    LedgerColumns,
    PlayerId,
    Result,
    Start,
    State,
    Stored,
    UnknownPlayer,
    Winner,
    same_player,
    unknown_kind,
)
from ratings.engine.ranks import format_rank

# the West Surrey ladder page, "The rungs": 40k..20k one kyu apart, 19.5k..10k half a kyu apart,
# 9.8k..0.2k a fifth apart ("9.2" in the West Surrey ladder page's list is 9.2k), then "the jump
# from 0.2k to 1d", and 1d..9.9d a tenth apart.  Values on the shared scale
# (14.5k = -14.5, 1.3d = 0.3).
RUNGS: tuple[float, ...] = (
    tuple(float(-k) for k in range(40, 19, -1))
    + tuple(-k / 2 for k in range(39, 19, -1))
    + tuple(round(-k / 5, 1) for k in range(49, 0, -1))
    + tuple(round(k / 10, 1) for k in range(90))
)
BOTTOM = RUNGS[0]  # 40k
TOP = RUNGS[-1]  # 9.9d
MAX_HANDICAP = math.floor(TOP - BOTTOM)  # 48 levels between the ends of the ladder
KOMI_PER_STONE = 10  # the West Surrey ladder page: "One handicap stone is equivalent to 10 komi."
EVEN_KOMI = 6  # the West Surrey ladder page: "For a handicap of 0, white receives 6 komi and black starts."
_RUNG_OF: dict[float, int] = {value: position for position, value in enumerate(RUNGS)}


@dataclass(frozen=True, slots=True)
class WestSurreyState:
    """A player's rung, as a strength on the shared scale (1.2d = 0.2)."""

    rank: float

    @property
    def rating(self) -> float:
        return self.rank

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank}


def rung_at_or_below(strength: float) -> int:
    """The position in :data:`RUNGS` of the highest rung at or below ``strength``.

    Decision: a new player, or a strength set after a tournament, that is not
    a rung (14.3k, 0.5d from another list) stands on the rung just below it,
    so nobody enters the ladder above their declared strength; strengths
    beyond the ladder's ends stand on its end rungs (40k, 9.9d).
    """
    if not math.isfinite(strength):
        raise ValueError(f"not a strength: {strength!r}")
    position = bisect.bisect_right(RUNGS, round(strength, 6)) - 1
    return max(0, position)


def ladder_handicap(first: float, second: float) -> int:
    """the West Surrey ladder page, "Handicaps": "Subtract the two strengths then ignore any
    fractions to obtain the handicap" (Fred 0.3 - Bert -14.5 = 14.8 -> 14).

    The order does not matter: the stronger player is White.  The difference
    is rounded to 6 places first so that 0.2 - (-0.8) is 1, not 0.999...
    """
    return math.floor(round(abs(first - second), 6))


class HandicapOption(NamedTuple):
    """One way to take a handicap: ``stones`` for Black, ``komi_to_black``
    points (negative: komi to White), and who plays first after the stones."""

    stones: int
    komi_to_black: int
    first: str  # "black" or "white"
    label: str


def handicap_options(levels: int) -> tuple[HandicapOption, ...]:
    """the West Surrey ladder page: every way to take ``levels`` handicap levels, most stones first.

    "After the handicap is taken as komi, stones or a mixture at black's
    discretion, it is then white's move. One handicap stone is equivalent to
    10 komi."  14 levels: 14 stones, 13 stones + 10 komi, ..., 140 komi.  "The
    1 stone is Black playing first"; "For a handicap of 1, either black starts
    with no komi or white starts with 10 komi to black"; "For a handicap of 0,
    white receives 6 komi and black starts."
    """
    if not isinstance(levels, int) or isinstance(levels, bool) or not 0 <= levels <= MAX_HANDICAP:
        raise ValueError(f"handicap: expected 0..{MAX_HANDICAP} levels, got {levels!r}")
    if levels == 0:
        return (
            HandicapOption(
                0, -EVEN_KOMI, "black", f"even: Black plays first, White receives {EVEN_KOMI} komi"
            ),
        )
    options = []
    for stones in range(levels, -1, -1):
        komi = KOMI_PER_STONE * (levels - stones)
        # One stone is Black's first move; after any stones White plays.
        first = "black" if stones == 1 else "white"
        if stones == 0:
            label = f"{komi} komi"
        else:
            label = f"{stones} stone{'s' if stones > 1 else ''}" + (f" + {komi} komi" if komi else "")
        options.append(HandicapOption(stones, komi, first, label))
    return tuple(options)


BGA_FROM = -15.0  # the West Surrey ladder page: "Start using this when your BGA rating reaches 15kyu."
HYSTERESIS = 0.7  # the West Surrey ladder page: "from X to X+1 when I get to X+0.7 ... from X to X-1 when I get to X-0.7"


def bga_grade(current: int, bga: float, *, margin: float = HYSTERESIS, start: float = BGA_FROM) -> int:
    """The whole grade to enter the next tournament at, given the current one
    and a rating from the BGA list (both on the shared scale: 2d = 1,
    1.3d = 0.3, 2k = -2).

    the West Surrey ladder page: "I only promote myself from X to X+1 when I get to X+0.7 on the
    BGA list and I only demote myself from X to X-1 when I get to X-0.7."
    Below 15k the list is not used ("has reasonable validity above 15kyu").
    Decision: a rating far away moves the grade as many steps as the rule
    allows at once (X+1.7 gives X+2), as if read one step at a time.
    """
    if not isinstance(current, int) or isinstance(current, bool):
        raise ValueError(f"current grade: expected a whole grade, got {current!r}")
    if not math.isfinite(bga):
        raise ValueError(f"BGA rating: expected a number, got {bga!r}")
    if bga < start:
        return current
    grade = current
    while round(bga - grade, 6) >= margin:
        grade += 1
    while round(bga - grade, 6) <= -margin:
        grade -= 1
    return grade


class WestSurrey:
    """The West Surrey club ladder (the West Surrey ladder page).

    ``lightning_below``: a club game whose main time per player is known and
    below this many minutes is a lightning game and leaves the ladder alone
    ("no relevance to lightning ... games"); games of unknown time count.
    """

    name: ClassVar[str] = "west-surrey"
    unit: ClassVar[str] = "strength"
    #: The ranks a new player may declare: the ladder's end rungs (the West Surrey ladder page
    #: lists 40k .. 9.9d), beyond the shared scale's 30k .. 9d.
    start_ranks: ClassVar[tuple[float, float]] = (BOTTOM, TOP)

    def __init__(self, *, lightning_below: int = 10) -> None:
        self.lightning_below = lightning_below

    def state_from_json(self, data: Mapping[str, Any]) -> WestSurreyState:
        rank = data.get("rank")
        if not isinstance(rank, int | float) or round(rank, 6) not in _RUNG_OF:
            raise ValueError(f"West Surrey state: rank: expected a rung of the ladder, got {rank!r}")
        return WestSurreyState(float(round(rank, 6)))

    #: The rung is the whole state: no earlier game is needed.
    history_games: ClassVar[int] = 0
    #: A game moves its two players' rungs, nobody else's.
    period_wide: ClassVar[bool] = False
    earlier_settles: ClassVar[bool] = False

    def state_from_history(self, stored: Stored) -> WestSurreyState:
        """The rung after the player's last row (base.RatingSystem)."""
        return self.state_from_json({"rank": stored.rank})

    def rate(
        self,
        events: Sequence[Event],
        state: State | None = None,
        starts: Mapping[PlayerId, Start] | None = None,
        *,
        explain: bool = False,
        explain_only: Collection[int] | None = None,
    ) -> Result:
        """Replay ``events`` in order from ``state`` (never mutated); with
        ``explain`` the result also explains every row (with ``explain_only``
        too, the rows of those events only)."""
        given: Mapping[PlayerId, Any] = state if state is not None else {}
        start_of: Mapping[PlayerId, Start] = starts if starts is not None else {}
        ledger = LedgerColumns(len(events))
        positions: dict[PlayerId, int] = {}  # player -> position in RUNGS
        rungs = RUNGS
        top = len(RUNGS) - 1
        lightning_below = self.lightning_below

        def enter(i: int, player: PlayerId) -> int:
            known = given.get(player)
            if known is not None:
                position = rung_at_or_below(known.rank)
            else:
                start = start_of.get(player)
                if start is None:
                    raise UnknownPlayer(i, player)
                # the West Surrey ladder page has no entry rule; a new player starts at the rung
                # of their declared rank (a rank or a strength: the same scale).
                value = start.rank if start.rank is not None else start.rating
                assert value is not None
                position = rung_at_or_below(value)
            positions[player] = position
            return position

        # The hot loop: locals only, the change of every move precomputed.
        up = [round(RUNGS[min(top, k + 1)] - RUNGS[k], 6) for k in range(top + 1)]
        down = [round(RUNGS[max(0, k - 1)] - RUNGS[k], 6) for k in range(top + 1)]
        rank_before, rating_before = ledger.rank_before, ledger.rating_before
        rank_after, rating_after, change = ledger.rank_after, ledger.rating_after, ledger.change
        get = positions.get
        game_type = Game
        # When explaining: (event, White's and Black's rungs before and after, a ladder game).
        sink: list[tuple[int, int, int, int, int, bool]] | None = [] if explain else None
        club = Kind.CLUB
        white_won, black_won, jigo = Winner.WHITE, Winner.BLACK, Winner.JIGO
        for i, event in enumerate(events):
            if type(event) is not game_type:
                if isinstance(event, Adjustment):
                    self._adjust(i, event, ledger, positions, enter)
                    continue
                if not isinstance(event, Game):
                    raise InvalidEvent(
                        i, "event", f"expected a Game or an Adjustment, got {type(event).__name__}"
                    )
            white = event.white
            black = event.black
            winner = event.winner
            kind = event.kind
            handicap = event.handicap
            komi = event.komi
            board = event.board
            minutes = event.minutes
            if (
                white == black
                or (winner is not white_won and winner is not black_won and winner is not jigo)
                or kind.__class__ is not Kind
                or handicap.__class__ is not int
                or not 0 <= handicap <= MAX_HANDICAP
                or not -1e6 < komi < 1e6
                or (board != 19 and board != 13 and board != 9)
            ):
                _check_game(i, event)  # raises, naming the field
            pw = get(white)
            if pw is None:
                pw = enter(i, white)
            pb = get(black)
            if pb is None:
                pb = enter(i, black)
            slot = i + i
            # the West Surrey ladder page: "for 'normal' games. It has no relevance to lightning,
            # teaching, external or tournament games": only club games count.
            # Decision: 9x9 and 13x13 games and forfeits are not normal games either.
            if (
                kind is club
                and winner is not jigo
                and board == 19
                and not event.forfeit
                and (minutes is None or minutes >= lightning_below)
            ):
                # "the winner is promoted one rung, the loser demoted one rung
                # (regardless of grades). A draw leaves the rungs unaltered."
                # Decision: the ends of the ladder (40k, 9.9d) are kept.
                if winner is white_won:
                    cw = up[pw]
                    cb = down[pb]
                    nw = pw + 1 if pw < top else pw
                    nb = pb - 1 if pb > 0 else pb
                else:
                    cw = down[pw]
                    cb = up[pb]
                    nw = pw - 1 if pw > 0 else pw
                    nb = pb + 1 if pb < top else pb
                positions[white] = nw
                positions[black] = nb
                if sink is not None:
                    sink.append((i, pw, pb, nw, nb, True))
            else:
                cw = cb = 0.0
                nw, nb = pw, pb
                if sink is not None:
                    sink.append((i, pw, pb, nw, nb, False))
            rank_before[slot] = rating_before[slot] = rungs[pw]
            rank_after[slot] = rating_after[slot] = rungs[nw]
            change[slot] = cw
            slot += 1
            rank_before[slot] = rating_before[slot] = rungs[pb]
            rank_after[slot] = rating_after[slot] = rungs[nb]
            change[slot] = cb
        # Let go of the columns, so that each is freed as it is handed over.
        del rank_before, rating_before, rank_after, rating_after, change
        final: dict[PlayerId, Any] = dict(given)
        for player, position in positions.items():
            final[player] = WestSurreyState(RUNGS[position])
        explanations = None if sink is None else explain_west_surrey(events, sink, ledger, explain_only)
        return Result(ledger.ledger(), final, explanations)

    def _adjust(
        self,
        i: int,
        event: Adjustment,
        ledger: LedgerColumns,
        positions: dict[PlayerId, int],
        enter: Any,
    ) -> None:
        """the West Surrey ladder page: "After a player has taken part in a tournament, they
        should modify their strength on the ladder to be correct with respect
        to that tournament."  The adjustment's strength (its rating, else its
        rank) is taken to the rung at or below it; change = after - before."""
        value = event.rating if event.rating is not None else event.rank
        if not isinstance(value, int | float) or not math.isfinite(value):
            raise InvalidEvent(
                i, "rating" if event.rating is not None else "rank", f"not a strength: {value!r}"
            )
        target = rung_at_or_below(value)
        before = positions.get(event.player)
        if before is None:
            try:
                before = enter(i, event.player)
            except UnknownPlayer:
                before = target  # Decision: an adjustment may introduce a player.
        assert before is not None
        positions[event.player] = target
        slot = 2 * i
        ledger.rank_before[slot] = ledger.rating_before[slot] = RUNGS[before]
        ledger.rank_after[slot] = ledger.rating_after[slot] = RUNGS[target]
        ledger.change[slot] = round(RUNGS[target] - RUNGS[before], 6)


def _check_game(i: int, game: Game) -> None:
    """Refuse a game the ladder cannot read, naming the field."""
    if game.white == game.black:
        raise same_player(i, game.black)
    if not isinstance(game.winner, Winner):
        raise InvalidEvent(i, "winner", f"expected white, black or jigo, got {game.winner!r}")
    if not isinstance(game.kind, Kind):
        raise unknown_kind(i, game.kind)
    handicap = game.handicap
    if not isinstance(handicap, int) or isinstance(handicap, bool) or not 0 <= handicap <= MAX_HANDICAP:
        raise InvalidEvent(i, "handicap", f"expected 0..{MAX_HANDICAP} stones, got {handicap!r}")
    if not isinstance(game.komi, int | float) or not -1e6 < game.komi < 1e6:
        raise InvalidEvent(i, "komi", f"expected a number of points, got {game.komi!r}")
    if game.board not in (9, 13, 19):
        raise InvalidEvent(i, "board", f"expected 9, 13 or 19, got {game.board!r}")


def explain_west_surrey(
    events: Sequence[Event],
    sink: Sequence[tuple[int, int, int, int, int, bool]],
    ledger: LedgerColumns,
    only: Collection[int] | None = None,
) -> list[Explanation | None]:
    """Name what the replay recorded: each player's rung before and after,
    the move, and the handicap the two rungs give (the West Surrey ladder page);
    with ``only``, of the events at those indices only."""
    out: list[Explanation | None] = [None] * (2 * len(events))
    for k, event in enumerate(events):
        if not isinstance(event, Game) and (only is None or k in only):
            slot = 2 * k
            before, after = ledger.rating_before[slot], ledger.rating_after[slot]
            out[slot] = Explanation(
                {
                    "rung": format_rank(before),
                    "adjusted_to": format_rank(after),
                    "change": ledger.change[slot],
                    "reason": "strength set after a tournament (committee adjustment)",
                },
                "change = adjusted_to − rung",
            )
    for k, pw, pb, nw, nb, counted in sink:
        if only is not None and k not in only:
            continue
        game = events[k]
        assert isinstance(game, Game)
        levels = ladder_handicap(RUNGS[pw], RUNGS[pb])
        options = [option.label for option in handicap_options(levels)]
        for colour, (before, after) in enumerate(((pw, nw), (pb, nb))):
            won = (game.winner is Winner.WHITE) == (colour == 0)
            if game.winner is Winner.JIGO:
                move, reason = "stays (a draw leaves the rungs unaltered)", None
            elif not counted:
                move, reason = "stays", "only normal 19x19 club games count on the ladder"
            elif after == before:
                move, reason = "stays (end of the ladder)", None
            else:
                move, reason = ("up one rung" if won else "down one rung"), None
            out[2 * k + colour] = Explanation(
                {
                    "rung": format_rank(RUNGS[before]),
                    "strength": RUNGS[before],
                    "opponent_rung": format_rank(RUNGS[pb if colour == 0 else pw]),
                    "handicap_levels": levels,
                    "handicap_options": options,
                    "result": "draw" if game.winner is Winner.JIGO else "win" if won else "loss",
                    "move": move,
                    "reason": reason,
                    "rung_after": format_rank(RUNGS[after]),
                    "strength_after": RUNGS[after],
                    "change": round(RUNGS[after] - RUNGS[before], 6),
                },
                "change = strength_after − strength; the winner climbs one rung, the loser goes down one;"
                " handicap = the difference of the strengths, fractions dropped (1 stone = 10 komi)",
            )
    return out
