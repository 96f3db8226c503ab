"""The committee's exchanges with national bodies (issue 5).

Three jobs, each a plain function the views and management commands share:

1. Rank synchronisation.  :func:`preview_rank_sync` reads a national rank
   list (ratings.exchange), matches every club player to it — national id
   first, then name (accent-, case- and order-insensitive) — and stores the
   proposal as a :class:`RankSync` with one :class:`RankSyncLine` per club
   player.  An ambiguous or missing match is shown, never guessed.
   :func:`apply_rank_sync` turns the lines the committee chose into dated
   rank adjustments (services.add_adjustment, so they are logged and the
   ratings recomputed), remembers confirmed matches by storing the national
   id on the player, all or nothing.
2. Exports: :func:`club_games_tournament` turns a club's games of a period
   into an exchange Tournament, which ratings.exchange writes as CSV, JSON,
   an EGD h9 file (class C "club ladder"), an FFG .tou or an AGA file.
3. Tournament imports: :func:`import_tournament` reads an EGD h9 or FFG .tou
   file and saves its games as one record sheet of tournament games,
   matching players or creating them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from ratings import exchange
from ratings.models import Club, Game, HistoryEntry, Player, RankSync, RankSyncLine, RecordSheet
from ratings.services import GameRow, NewPlayer, SheetError, add_adjustment, save_sheet
from ratings.systems.ranks import format_rank

#: Which Player field holds each list's national id.  A plain CSV list is the
#: club's own national association (SAGA for a South African club).
ID_FIELD: dict[str, str] = {"ffg": "ffg_licence", "aga": "aga_id", "egd": "egd_pin", "csv": "saga_id"}


class CommitteeError(ValueError):
    """A sync or import that cannot go ahead; the message says why."""


# --- 1. Rank synchronisation ---------------------------------------------------


def _entry_json(entry: exchange.RankEntry) -> dict[str, Any]:
    return {
        "line": entry.line,
        "name": entry.name,
        "national_id": entry.national_id or "",
        "rank": entry.rank,
        "rating": entry.rating,
    }


def match_players(
    players: Sequence[Player], entries: Sequence[exchange.RankEntry], id_field: str
) -> list[tuple[Player, str, list[exchange.RankEntry]]]:
    """For each player: (player, how, entries).

    ``how`` is "id" (the player's stored national id is in the list), "name"
    (exactly one entry has the player's name and its id is not another club
    player's), "ambiguous" (several entries carry the name: all returned) or
    "missing" (none).
    """
    by_id = {e.national_id: e for e in entries if e.national_id}
    names = exchange.NameIndex((i, e.name) for i, e in enumerate(entries))
    taken = {getattr(p, id_field) for p in players if getattr(p, id_field)}
    matches: list[tuple[Player, str, list[exchange.RankEntry]]] = []
    for player in players:
        stored = getattr(player, id_field)
        if stored and stored in by_id:
            matches.append((player, "id", [by_id[stored]]))
            continue
        found = [entries[int(i)] for i in names.lookup(player.name)]  # type: ignore[call-overload]
        # An entry whose id already belongs to another club player is theirs.
        found = [e for e in found if not e.national_id or e.national_id not in taken]
        if len(found) == 1:
            matches.append((player, "name", found))
        elif found:
            matches.append((player, "ambiguous", found))
        else:
            matches.append((player, "missing", []))
    return matches


def preview_rank_sync(
    club: Club, data: bytes, *, filename: str = "", format: str | None = None, user: Any = None
) -> RankSync:
    """Read a national list and store the proposal; nothing is applied yet.

    Raises :class:`exchange.ExchangeError` (naming the line) on a bad file.
    """
    ranks = exchange.read_rank_list(data, format=format or None, filename=filename or None)  # type: ignore[arg-type]
    id_field = ID_FIELD[ranks.format]
    players = list(Player.objects.filter(club=club).order_by("name"))
    matches = match_players(players, ranks.entries, id_field)
    with transaction.atomic():
        sync = RankSync.objects.create(
            club=club,
            created_by=user if user is not None and user.is_authenticated else None,
            filename=filename[:200],
            format=ranks.format,
            encoding=ranks.encoding,
            as_of=ranks.as_of,
            read=len(ranks.entries),
        )
        lines = []
        for player, how, found in matches:
            entry = found[0] if how in ("id", "name") else None
            national_rank = entry.rank if entry else None
            lines.append(
                RankSyncLine(
                    sync=sync,
                    player=player,
                    match=how,
                    line=entry.line if entry else None,
                    national_name=entry.name if entry else "",
                    national_id=(entry.national_id or "") if entry else "",
                    national_rank=national_rank,
                    club_rank=player.rank,
                    club_rating=player.rating,
                    candidates=[_entry_json(e) for e in found] if how == "ambiguous" else [],
                )
            )
        RankSyncLine.objects.bulk_create(lines)
        sync.matched = sum(1 for line in lines if line.match in ("id", "name"))
        sync.ambiguous = sum(1 for line in lines if line.match == "ambiguous")
        sync.unmatched = sum(1 for line in lines if line.match == "missing")
        sync.changes = sum(1 for line in lines if line.proposes_change)
        sync.save(update_fields=["matched", "ambiguous", "unmatched", "changes"])
    return sync


@dataclass
class Choice:
    """The committee's decision on one sync line: apply it, and for an
    ambiguous line which candidate (by its list line number) is the player."""

    line_id: int
    candidate_line: int | None = None


def apply_rank_sync(
    sync: RankSync, choices: Iterable[Choice], *, effective: date, user: Any = None
) -> list[Any]:
    """Apply the chosen lines as adjustments dated ``effective``; all or nothing.

    Matches chosen here are remembered: the national id is stored on the
    player, so the next sync matches them by id.  Raises SheetError (naming
    the player) or CommitteeError; nothing is written then.
    """
    if sync.applied_at is not None:
        raise CommitteeError(f"this synchronisation was already applied on {sync.applied_at:%Y-%m-%d %H:%M}")
    id_field = ID_FIELD[sync.format]
    lines = {line.id: line for line in sync.lines.select_related("player")}
    adjustments = []
    with transaction.atomic():
        for choice in choices:
            line = lines.get(choice.line_id)
            if line is None:
                raise CommitteeError(f"line {choice.line_id} is not part of this synchronisation")
            if line.match == "ambiguous":
                picked = [c for c in line.candidates if c["line"] == choice.candidate_line]
                if not picked:
                    raise CommitteeError(f"{line.player.name}: choose which of the {len(line.candidates)} entries is theirs")
                line.line = picked[0]["line"]
                line.national_name = picked[0]["name"]
                line.national_id = picked[0]["national_id"]
                line.national_rank = picked[0]["rank"]
                line.match = "confirmed"
            if line.match == "missing" or line.national_rank is None:
                raise CommitteeError(f"{line.player.name}: no national rank to apply")
            player = line.player
            if line.national_id and getattr(player, id_field) != line.national_id:
                setattr(player, id_field, line.national_id)
                player.save(update_fields=[id_field])
            if line.national_rank != player.rank:
                try:
                    adjustment = add_adjustment(
                        player=player,
                        date=effective,
                        rank=line.national_rank,
                        reason=f"National rank ({sync.get_format_display()} list, sync #{sync.pk})",
                        actor=user,
                    )
                except SheetError as error:
                    problems = "; ".join(m for fields in error.problems.values() for m in fields.values())
                    raise CommitteeError(f"{player.name}: {problems}") from error
                line.adjustment = adjustment
                adjustments.append(adjustment)
            line.applied = True
            line.save()
        sync.applied_at = timezone.now()
        sync.applied_by = user if user is not None and user.is_authenticated else None
        sync.effective = effective
        sync.applied = len(adjustments)
        sync.save(update_fields=["applied_at", "applied_by", "effective", "applied"])
    return adjustments


# --- 2. Exports ---------------------------------------------------------------


def club_games(club: Club, start: date | None, end: date | None) -> Any:
    games = Game.objects.filter(club=club).select_related("white", "black", "sheet").timeline()
    if start:
        games = games.filter(date__gte=start)
    if end:
        games = games.filter(date__lte=end)
    return games


def _ranks_at_first_game(club: Club, games: Sequence[Game]) -> dict[int, float]:
    """Each player's rank at their first game of the period (primary system),
    the grade a national body rates them at."""
    if not games:
        return {}
    first_ids = {}
    for game in games:
        for pid in (game.white_id, game.black_id):
            first_ids.setdefault(pid, game.id)
    rows = HistoryEntry.objects.filter(
        club=club, system=club.primary_system, game_id__in=set(first_ids.values())
    ).values_list("player_id", "game_id", "rank_before")
    return {pid: rank for pid, gid, rank in rows if first_ids.get(pid) == gid}


def _exchange_player(player: Player, rank: float) -> exchange.Player:
    return exchange.Player(
        key=str(player.pk),
        name=player.name,
        rank=rank,
        egd_pin=player.egd_pin or None,
        ffg_licence=player.ffg_licence or None,
        aga_id=player.aga_id or None,
    )


def club_games_tournament(
    club: Club, start: date | None = None, end: date | None = None, *, event_class: str = "C"
) -> exchange.Tournament:
    """The club's games of a period as one class C "club ladder" (FORMATS.md:
    "British clubs report club games to the EGD as a class C 'club ladder'
    tournament per period")."""
    games = list(club_games(club, start, end))
    ranks = _ranks_at_first_game(club, games)
    players: dict[int, exchange.Player] = {}
    records = []
    for game in games:
        for player in (game.white, game.black):
            if player.pk not in players:
                players[player.pk] = _exchange_player(player, ranks.get(player.pk, player.rank))
        records.append(
            exchange.TournamentGame(
                round=0,
                white=str(game.white_id),
                black=str(game.black_id),
                winner=exchange.Winner(game.winner),
                handicap=game.handicap,
                komi=float(game.komi),
                date=game.date,
                kind=game.kind,
                board=game.board,
                event=game.sheet.event or None,
            )
        )
    period = f"{start or (games[0].date if games else '')} to {end or (games[-1].date if games else '')}"
    return exchange.club_tournament(
        f"{club.name} club ladder {period}",
        list(players.values()),
        records,
        start=start,
        end=end,
        event_class=event_class,
        place=club.name,
    )


# --- 3. Tournament imports ----------------------------------------------------


@dataclass
class ImportReport:
    sheet: RecordSheet | None
    games: int
    matched: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def _find_player(club: Club, person: exchange.Player) -> Player | None:
    ids = Q()
    for attr in ("egd_pin", "ffg_licence", "aga_id"):
        value = getattr(person, attr)
        if value:
            ids |= Q(**{attr: value})
    if ids:
        found = list(Player.objects.filter(ids, club=club)[:2])
        if len(found) == 1:
            return found[0]
    index = exchange.NameIndex((p.pk, p.name) for p in Player.objects.filter(club=club).only("pk", "name"))
    hits = index.lookup(person.name)
    if len(hits) == 1:
        return Player.objects.get(pk=hits[0])
    if len(hits) > 1:
        raise CommitteeError(f"line {person.line}: {person.name} matches several club players; rename one first")
    return None


def import_tournament(
    club: Club, data: bytes, *, filename: str = "", format: str | None = None, user: Any = None, dry_run: bool = False
) -> ImportReport:
    """Save a tournament file's games as one sheet of tournament games.

    All or nothing: a bad file raises ExchangeError naming the line; a game
    the site would refuse raises SheetError naming the row; a file already
    imported (same event and start date in this club) raises CommitteeError.
    """
    tournament = exchange.read_tournament(data, format=format or None, filename=filename or None)  # type: ignore[arg-type]
    skipped = [f"line {s.line}: {s.reason}" for s in tournament.skipped]
    day = tournament.start or timezone.localdate()
    if RecordSheet.objects.filter(club=club, event=tournament.name, date=day).exists():
        raise CommitteeError(f"{tournament.name} of {day:%Y-%m-%d} was already imported into {club.name}")
    if not tournament.games:
        raise CommitteeError(f"{filename or 'the file'} has no game to import")
    report = ImportReport(sheet=None, games=len(tournament.games), skipped=skipped)
    refs: dict[str, Player | NewPlayer] = {}
    for person in tournament.players:
        player = _find_player(club, person)
        if player is not None:
            refs[person.key] = player
            report.matched.append(person.name)
            continue
        if person.rank is None:
            raise CommitteeError(f"line {person.line}: {person.name} is new to the club and has no grade")
        refs[person.key] = NewPlayer(name=person.name, rank=round(person.rank))
        report.created.append(person.name)
    rows = [
        GameRow(
            white=refs[g.white],
            black=refs[g.black],
            winner=str(g.winner.value),
            handicap=g.handicap,
            komi=Decimal(str(g.komi)),
            date=g.date or day,
            kind="tournament",
            board=g.board,
            minutes=tournament.minutes,
            comments=f"round {g.round}" if g.round else "",
        )
        for g in tournament.games
    ]
    with transaction.atomic():
        sheet = save_sheet(
            club=club,
            date=day,
            rows=rows,
            actor=user,
            event=tournament.name,
            kind="tournament",
            comments=f"Imported from {filename or tournament.format} ({tournament.format})",
        )
        if tournament.event_class:
            sheet.event_class = tournament.event_class
            sheet.save(update_fields=["event_class"])
        # Remember the national ids the file gives for the players it created.
        for person in tournament.players:
            ref = refs[person.key]
            if isinstance(ref, NewPlayer):
                player = Player.objects.get(club=club, name=ref.name)
                changed = [a for a in ("egd_pin", "ffg_licence", "aga_id") if getattr(person, a)]
                for attr in changed:
                    setattr(player, attr, getattr(person, attr))
                if changed:
                    player.save(update_fields=changed)
        report.sheet = sheet
        if dry_run:
            transaction.set_rollback(True)
    return report


def rank_label(value: float | None) -> str:
    return format_rank(value) if value is not None else "—"
