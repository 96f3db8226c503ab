"""Saving a record sheet: its games (and the new players it names) all at once
or not at all."""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from datetime import date

from django.db import IntegrityError, transaction
from django.db.models import Case, Value, When
from django.utils import timezone

from ratings.engine.ranks import format_rank
from ratings.exchange.names import identity_key
from ratings.models import Club, Game, Kind, LogEntry, Player, RecordSheet
from ratings.services.checks import date_problem, game_problems, name_problem, rank_problem
from ratings.services.common import acting_user, describe_game, mark_dirty, unique_slug
from ratings.services.rows import Actor, GameRow, NewPlayer, PlayerRef, SheetError, default_komi


def save_sheet(
    *,
    club: Club,
    date: date,
    rows: Sequence[GameRow],
    actor: Actor = None,
    event: str = "",
    kind: str = Kind.CLUB,
    comments: str = "",
    today: date | None = None,
    into: RecordSheet | None = None,
) -> RecordSheet:
    """Save a record sheet entered at ``club`` and its games, all or nothing
    (``into``: add the games to that saved sheet instead of a new one).

    The games may be between any two players of the club's list.  New players
    (:class:`NewPlayer`) are created once per name in the list, with ``club``
    as their home club, joining on the date of their earliest game on the
    sheet.  Raises :class:`SheetError` naming every bad row and field; nothing
    is written then (also when another volunteer created the same new player
    a moment earlier: the database refuses the duplicate, and the volunteer
    is asked to choose the existing player).
    """
    today = today or timezone.localdate()
    rating_list = club.rating_list
    problems: dict[int, dict[str, str]] = {}
    header: dict[str, str] = {}
    if (problem := date_problem(date, today)) is not None:
        header["date"] = problem
    if kind not in Kind.values:
        header["kind"] = f"unknown kind of game {kind!r}"
    if not rows:
        header["games"] = "a record sheet needs at least one game"
    if header:
        problems[0] = header

    new_rank: dict[str, int] = {}
    first_date: dict[str, datetime.date] = {}
    first_row: dict[str, tuple[int, str]] = {}
    for number, row in enumerate(rows, start=1):
        game_date = row.date or date
        found = game_problems(
            white=row.white,
            black=row.black,
            winner=row.winner,
            handicap=row.handicap,
            komi=row.komi,
            game_date=game_date,
            rating_list=rating_list,
            today=today,
        )
        if row.kind is not None and row.kind not in Kind.values:
            found["kind"] = f"unknown kind of game {row.kind!r}"
        for colour, ref in (("white", row.white), ("black", row.black)):
            if not isinstance(ref, NewPlayer):
                continue
            key = identity_key(ref.display_name)
            if not ref.name.strip():
                found[colour] = "give the player's name"
            elif (problem := name_problem(ref.name)) is not None:
                found[colour] = problem
            elif (problem := rank_problem(ref.rank)) is not None:
                found[f"{colour}_rank"] = problem
            elif new_rank.setdefault(key, ref.rank) != ref.rank:
                found[f"{colour}_rank"] = (
                    f"{ref.name} is new with rank {format_rank(new_rank[key])} on an earlier row; "
                    f"not {format_rank(ref.rank)}"
                )
            elif Player.objects.named(rating_list, ref.display_name).exists():
                found[colour] = f"{ref.display_name} is already a player of {rating_list}; choose them"
            first_date[key] = min(first_date.get(key, game_date), game_date)
            first_row.setdefault(key, (number, colour))
        if found:
            problems[number] = found
    if problems:
        raise SheetError(problems)

    try:
        return _write_sheet(club, date, rows, actor, event, kind, comments, first_date, into)
    except _DuplicatePlayer as duplicate:
        number, colour = first_row[duplicate.key]
        raise SheetError(
            {number: {colour: f"{duplicate.name} was added to {rating_list} a moment ago; choose them"}}
        ) from None


class _DuplicatePlayer(Exception):
    def __init__(self, key: str, name: str) -> None:
        self.key, self.name = key, name


def _write_sheet(
    club: Club,
    date: date,
    rows: Sequence[GameRow],
    actor: Actor,
    event: str,
    kind: str,
    comments: str,
    first_date: Mapping[str, date],
    into: RecordSheet | None = None,
) -> RecordSheet:
    rating_list = club.rating_list
    with transaction.atomic():
        now = timezone.now()
        sheet = into or RecordSheet.objects.create(
            club=club,
            event=event,
            date=date,
            kind=kind,
            comments=comments,
            entered_by=acting_user(actor),
            entered_at=now,
        )
        created: dict[str, Player] = {}

        def resolve(ref: PlayerRef) -> Player:
            if isinstance(ref, Player):
                return ref
            key = identity_key(ref.display_name)
            if key not in created:
                name = ref.name.strip()
                try:
                    with transaction.atomic():
                        created[key] = Player.objects.create(
                            rating_list=rating_list,
                            name=name,
                            suffix=ref.suffix.strip(),
                            slug=unique_slug(ref.display_name, club),
                            home_club=club,
                            start_rank=ref.rank,
                            rank=ref.rank,
                            since=first_date[key],
                        )
                except IntegrityError:
                    if Player.objects.named(rating_list, ref.display_name).exists():
                        raise _DuplicatePlayer(key, ref.display_name) from None
                    raise
            return created[key]

        # In bulk: one INSERT for the games, one for their log entries and
        # one for the entries' players, instead of four queries per game
        # (a 10-game sheet went from ~60 queries to ~8).
        games: list[Game] = []
        for row in rows:
            white, black = resolve(row.white), resolve(row.black)
            handicap = row.handicap
            games.append(
                Game(
                    rating_list=rating_list,
                    club=club,
                    sheet=sheet,
                    date=row.date or date,
                    white=white,
                    black=black,
                    handicap=handicap,
                    komi=row.komi if row.komi is not None else default_komi(handicap),
                    winner=row.winner,
                    kind=row.kind or kind,
                    board=row.board,
                    minutes=row.minutes,
                    forfeit=row.forfeit,
                    round=row.round,
                    comments=row.comments,
                    entered_by=acting_user(actor),
                    entered_at=now,
                )
            )
        _lock_players(player.pk for game in games for player in (game.white, game.black))
        Game.objects.bulk_create(games)
        entries = LogEntry.objects.bulk_create(
            LogEntry(
                rating_list=rating_list,
                club=club,
                actor=acting_user(actor),
                action=LogEntry.Action.ADD,
                event_date=game.date,
                summary=describe_game(game)[:300],
                game=game,
                sheet=sheet,
                changes={},
            )
            for game in games
        )
        LogEntry.players.through.objects.bulk_create(
            LogEntry.players.through(logentry_id=entry.pk, player_id=player.pk)
            for entry, game in zip(entries, games, strict=True)
            for player in {game.white.pk: game.white, game.black.pk: game.black}.values()
        )
        earliest = min([date, *(game.date for game in games)])
        _set_last_updated_from_sheet(games)
        mark_dirty(rating_list, earliest)
    return sheet


def _set_last_updated_from_sheet(games: Sequence[Game]) -> None:
    """Player.last_updated after saving ``games`` (one sheet, in row order).

    the SAGC FAQ, "My last updated date has gone backwards": the last-updated
    date is "the date of the most recently added game".  The sheet's games
    were all added just now (one ``entered_at``, ids in row order), so for
    each of its players that is the date of their last game on the sheet:
    no need to search their whole history (refresh_last_updated, one query
    per player, is for edits and deletions).  Decision: a game stored with
    an ``entered_at`` later than now (a clock set wrong) does not count as
    added later than this sheet.

    One UPDATE for all the players, whose rows _write_sheet has locked
    already (_lock_players)."""
    latest: dict[int, tuple[Player, date]] = {}
    for game in games:  # row order: a later row was added later
        latest[game.white.pk] = (game.white, game.date)
        latest[game.black.pk] = (game.black, game.date)
    Player.objects.filter(pk__in=sorted(latest)).update(
        last_updated=Case(*(When(pk=pk, then=Value(day)) for pk, (_, day) in latest.items()))
    )
    for player, day in latest.values():
        player.last_updated = day


def _lock_players(pks: Iterable[int]) -> None:
    """Lock the sheet's players in primary-key order before anything else
    touches them (the games' foreign-key checks, the last-updated UPDATE).
    Two sheets saved at once, or a sheet and the recompute (which locks in
    the same order, recompute._update_players), then queue instead of
    deadlocking: one UPDATE over several rows locks them in the order of
    its scan, not in key order, and twenty clients saving at once got
    "deadlock detected" (500) from it (tests/faults/test_fault_load.py)."""
    list(
        Player.objects.select_for_update(no_key=True)
        .filter(pk__in=sorted(set(pks)))
        .order_by("pk")
        .values_list("pk")
    )
