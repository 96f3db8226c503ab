"""A list's games of a period as an exchange Tournament (an EGD h9 class C
"club ladder", an FFG .tou or an AGA file); the streamed CSV, JSON and API
records are ratings/committee/exports.py."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db.models import Count, Q, QuerySet

from ratings import exchange
from ratings.models import Club, Game, GameQuerySet, HistoryEntry, Player, RatingList


def period_games(
    start: date | None, end: date | None, club: Club | None = None, *, forfeit: bool = False
) -> GameQuerySet:
    """The games of a period that an export sends (only those played at
    ``club`` when one is given), in no order and of any list.  Forfeits are
    left out: they are recorded but never rated (the FFG algorithm page,
    ratings/engine/base.py), so a national body has nothing to rate in them
    (``forfeit=True``: the forfeits instead, to count them)."""
    games = Game.objects.filter(forfeit=forfeit)
    if club is not None:
        games = games.filter(club=club)
    if start:
        games = games.filter(date__gte=start)
    if end:
        games = games.filter(date__lte=end)
    return games


def list_games(
    rating_list: RatingList, start: date | None, end: date | None, club: Club | None = None
) -> QuerySet[Game]:
    """The list's games of a period (:func:`period_games`) in timeline order."""
    return period_games(start, end, club).filter(rating_list=rating_list).timeline()


@dataclass(frozen=True)
class ExportSelection:
    """What a file of a period carries: the (kind, board, minutes) groups of games it
    writes, how many games, and the games left out, each reason with its
    count, most first (exchange.left_out_reason; forfeits for every format)."""

    format: str
    event_class: str
    kept: frozenset[tuple[str, int, int | None]]
    written: int
    left_out: tuple[tuple[str, int], ...]

    def only(self) -> Q:
        """The games written, as a filter of the period's games."""
        chosen = Q(pk__in=[])
        for kind, board, minutes in self.kept:
            time = Q(minutes__isnull=True) if minutes is None else Q(minutes=minutes)
            chosen |= Q(kind=kind, board=board) & time
        return chosen

    def lines(self) -> list[str]:
        """The summary in words: what is written, then each reason."""
        left = sum(count for _, count in self.left_out)
        first = f"{self.written} game{'s'[: self.written != 1]} written"
        if self.format == "h9":
            first += f" (EGD class {self.event_class}: {exchange.EGD_CLASSES[self.event_class]})"
        if not left:
            return [f"{first}; nothing left out."]
        return [f"{first}; {left} left out:", *(f"{count} × {reason}" for reason, count in self.left_out)]


def export_selection(
    rating_list: RatingList,
    start: date | None,
    end: date | None,
    format: str,
    club: Club | None = None,
    event_class: str = "C",
) -> ExportSelection:
    """Which of the period's games a file of ``format`` writes and which it
    leaves out, and why (docs/formats.md, "What a rated export leaves out")."""
    kept: set[tuple[str, int, int | None]] = set()
    written = 0
    reasons: Counter[str] = Counter()
    groups = (
        period_games(start, end, club)
        .filter(rating_list=rating_list)
        .values_list("kind", "board", "minutes")
        .annotate(count=Count("pk"))
        .order_by()
    )
    for kind, board, minutes, count in groups:
        reason = exchange.left_out_reason(
            format, kind=kind, board=board, minutes=minutes, event_class=event_class
        )
        if reason is None:
            kept.add((kind, board, minutes))
            written += count
        else:
            reasons[reason] += count
    forfeits = period_games(start, end, club, forfeit=True).filter(rating_list=rating_list).count()
    if forfeits:
        reasons[exchange.FORFEIT] += forfeits
    left_out = tuple(sorted(reasons.items(), key=lambda item: (-item[1], item[0])))
    return ExportSelection(format, event_class, frozenset(kept), written, left_out)


def ranks_at_first_game(rating_list: RatingList, first_game: dict[int, int]) -> dict[int, float]:
    """Each player's rank at their first game of the period (primary system),
    the grade a national body rates them at.  ``first_game``: player -> game id."""
    if not first_game:
        return {}
    # By game id alone (they are the club's games): with the club as well,
    # SQLite read the club's whole history through its (club, system, date)
    # index, for every chunk of a streamed export (ratings/committee/exports.py).
    rows = HistoryEntry.objects.filter(
        system=rating_list.primary_system, game_id__in=set(first_game.values())
    ).values_list("player_id", "game_id", "rank_before")
    return {pid: rank for pid, gid, rank in rows if first_game.get(pid) == gid}


#: What a player of an export is read with: the home club's code is written.
PLAYER_RELATED = ("home_club",)


def exchange_player(player: Player, rank: float, rating_list: RatingList) -> exchange.Player:
    """The player as the files write them: surname first, their country
    (else the list's), their home club's EGD code and every national id
    known (docs/formats.md)."""
    club = player.home_club
    # The files write "Surname Given" (h9, .tou) or "Surname, Given" (AGA); the
    # site writes given names first.  A suffix stays with the given names.
    surname, given = exchange.split_given_surname(player.name)
    if player.suffix:
        given = f"{given} ({player.suffix})".strip()
    return exchange.Player(
        key=str(player.pk),
        name=player.display_name,
        surname=surname or None,
        given_name=given or None,
        rank=rank,
        country=player.country or rating_list.country or None,
        club=(club.egd_code if club is not None else "") or None,
        egd_pin=player.egd_pin or None,
        ffg_licence=player.ffg_licence or None,
        aga_id=player.aga_id or None,
    )


def tournament_game(game: Any, event: str, round_: int = 0) -> exchange.TournamentGame:
    """An exchange game of a Game, or of a row with a Game's columns (the
    streamed exports read rows, ratings/committee/exports.py); ``event`` its sheet's."""
    return exchange.TournamentGame(
        round=round_,
        white=str(game.white_id),
        black=str(game.black_id),
        winner=exchange.Winner(game.winner),
        handicap=game.handicap,
        komi=float(game.komi),
        date=game.date,
        kind=game.kind,
        board=game.board,
        event=event or None,
    )


def export_name(
    rating_list: RatingList, start: date | None, end: date | None, club: Club | None = None
) -> str:
    return f"{(club or rating_list).name} club ladder {start or 'start'} to {end or 'today'}"


def _even_komi(games: Sequence[Game]) -> float | None:
    """The komi of most even games: h9 and .tou carry one komi for the whole
    tournament (KM[], komi=), so this is the one that survives the trip."""
    komis = Counter(float(g.komi) for g in games if g.handicap == 0)
    return komis.most_common(1)[0][0] if komis else None


def list_games_tournament(
    rating_list: RatingList,
    start: date | None = None,
    end: date | None = None,
    *,
    club: Club | None = None,
    event_class: str = "C",
    only: Q | None = None,
) -> exchange.Tournament:
    """The list's games of a period (or those played at ``club``) as one class
    C "club ladder": British clubs report their club games to the EGD that way,
    one such tournament per period (docs/formats.md).  ``only``: the games
    the file writes (:meth:`ExportSelection.only`), else every game but forfeits."""
    chosen = list_games(rating_list, start, end, club)
    games = list(
        (chosen if only is None else chosen.filter(only)).select_related(
            "sheet", *(f"{side}__{related}" for side in ("white", "black") for related in PLAYER_RELATED)
        )
    )
    first_game: dict[int, int] = {}
    for game in games:
        for pid in (game.white_id, game.black_id):
            first_game.setdefault(pid, game.pk)
    ranks = ranks_at_first_game(rating_list, first_game)
    players: dict[int, exchange.Player] = {}
    for game in games:
        for player in (game.white, game.black):
            if player.pk not in players:
                players[player.pk] = exchange_player(player, ranks.get(player.pk, player.rank), rating_list)
    return exchange.club_tournament(
        export_name(rating_list, start, end, club),
        list(players.values()),
        [tournament_game(game, game.sheet.event) for game in games],
        start=start,
        end=end,
        event_class=event_class,
        place=(club or rating_list).name,
        komi=_even_komi(games),
    )
