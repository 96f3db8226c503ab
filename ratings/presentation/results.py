"""Won and lost: a player's totals (all, by kind of game, the last 12
months) and the head-to-head of two players (every game, by colour and
handicap, the score), counted by the database (aggregate queries over the
games' (white, date) and (black, date) indexes)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Any

from django.db.models import Count, Q

from ratings.models import Game, Kind, Player, Winner


def year_before(today: date) -> date:
    """The same day a year earlier (28 February for a 29th)."""
    try:
        return today.replace(year=today.year - 1)
    except ValueError:
        return today.replace(year=today.year - 1, day=28)


def won_by(player: Player | int) -> Q:
    return Q(white=player, winner=Winner.WHITE) | Q(black=player, winner=Winner.BLACK)


def lost_by(player: Player | int) -> Q:
    return Q(white=player, winner=Winner.BLACK) | Q(black=player, winner=Winner.WHITE)


@dataclass(frozen=True, slots=True)
class Score:
    """Games won, lost and drawn (jigo), from one player's side."""

    label: str
    won: int
    lost: int
    jigo: int

    @property
    def games(self) -> int:
        return self.won + self.lost + self.jigo

    @property
    def text(self) -> str:
        return f"{self.won}–{self.lost}" + (f"–{self.jigo}" if self.jigo else "")


def score_counts(player: Player | int, recent_from: date | None = None) -> dict[str, Any]:
    """The Count expressions of won, lost and jigo (and the same since
    ``recent_from``, when given) for ``player``'s side."""
    counts: dict[str, Any] = {
        "won": Count("pk", filter=won_by(player)),
        "lost": Count("pk", filter=lost_by(player)),
        "jigo": Count("pk", filter=Q(winner=Winner.JIGO)),
    }
    if recent_from is not None:
        recent = Q(date__gte=recent_from)
        counts |= {
            "recent_won": Count("pk", filter=won_by(player) & recent),
            "recent_lost": Count("pk", filter=lost_by(player) & recent),
            "recent_jigo": Count("pk", filter=Q(winner=Winner.JIGO) & recent),
        }
    return counts


@dataclass(frozen=True, slots=True)
class Totals:
    """A record sheet's won/lost totals: all games, each kind, the last 12 months."""

    all: Score
    recent: Score
    by_kind: Sequence[Score]

    @property
    def rows(self) -> list[Score]:
        """As the page lists them: all, each kind played, the recent ones."""
        return [self.all, *self.by_kind, self.recent]


def totals(player: Player, today: date) -> Totals:
    """One query: the player's games grouped by kind, counted."""
    rows = list(
        Game.objects.of_player(player)
        .order_by()
        .values("kind")
        .annotate(**score_counts(player, year_before(today) + timedelta(days=1)))
    )
    labels = dict(Kind.choices)

    def add(label: str, prefix: str = "", of: Sequence[dict[str, Any]] = rows) -> Score:
        return Score(label, *(sum(r[f"{prefix}{k}"] for r in of) for k in ("won", "lost", "jigo")))

    by_kind = [add(labels[kind], of=[r for r in rows if r["kind"] == kind]) for kind in Kind.values]
    return Totals(
        all=add("All games"),
        recent=add("Last 12 months", "recent_"),
        by_kind=[score for score in by_kind if score.games],
    )


def games_between(one: Player, other: Player) -> Any:
    return Game.objects.filter(Q(white=one, black=other) | Q(white=other, black=one))


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """Two players' games: ``score`` from ``one``'s side, the same by
    ``one``'s colour and the handicap, and the games, newest first."""

    one: Player
    other: Player
    score: Score
    by_colour: Sequence[Score]
    games: Sequence[MeetingLine]


def head_to_head(one: Player, other: Player) -> HeadToHead:
    """Two queries: the counts by colour and handicap, and the games."""
    grouped = list(
        games_between(one, other)
        .order_by()
        .values("white", "handicap")
        .annotate(**score_counts(one))
        .order_by("-white", "handicap")
    )
    by_colour = []
    for colour, is_white in (("White", True), ("Black", False)):
        for row in grouped:
            if (row["white"] == one.pk) == is_white:
                stones = f"handicap {row['handicap']}" if row["handicap"] else "even"
                by_colour.append(Score(f"{colour}, {stones}", row["won"], row["lost"], row["jigo"]))
    score = Score(
        f"{one} against {other}",
        sum(s.won for s in by_colour),
        sum(s.lost for s in by_colour),
        sum(s.jigo for s in by_colour),
    )
    games = games_between(one, other).select_related("club", "sheet").order_by("-date", "-entered_at", "-id")
    lines = [MeetingLine.of(game, one) for game in games]
    return HeadToHead(one=one, other=other, score=score, by_colour=by_colour, games=lines)


RESULT_WORDS = {"won": "Won", "lost": "Lost", "jigo": "Jigo"}


@dataclass(frozen=True, slots=True)
class MeetingLine:
    """One game of a head-to-head, from ``one``'s side, as the page writes it."""

    game_id: int
    date: str
    sheet_id: int
    event: str
    club: str
    colour: str
    handicap: int
    komi: str
    result: str
    kind: str
    forfeit: bool
    board: int

    @classmethod
    def of(cls, game: Game, one: Player) -> MeetingLine:
        white = game.white_id == one.pk
        if game.winner == Winner.JIGO:
            result = "jigo"
        else:
            result = "won" if (game.winner == Winner.WHITE) == white else "lost"
        return cls(
            game_id=game.pk,
            date=game.date.isoformat(),
            sheet_id=game.sheet_id,
            event=game.sheet.event,
            club=game.club.name,
            colour="White" if white else "Black",
            handicap=game.handicap,
            komi=f"{game.komi:g}",
            result=RESULT_WORDS[result],
            kind=Kind(game.kind).label,
            forfeit=game.forfeit,
            board=game.board,
        )
