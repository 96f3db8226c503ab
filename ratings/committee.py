"""The committee's exchanges with national bodies.

Three jobs, each a plain function the views and management commands share
(docs/committee.md describes the process for a committee member):

1. Rank synchronisation.  :func:`preview_rank_sync` reads a national rank
   list (ratings.exchange), matches every player of the list to it — national id
   first, then name (accent-, case- and order-insensitive) — and stores the
   proposal as a :class:`RankSync` with one :class:`RankSyncLine` per
   player.  An ambiguous or missing match is shown, never guessed.
   :func:`apply_rank_sync` turns the lines the committee chose into dated
   rank adjustments (services.add_adjustment, so they are logged and the
   ratings recomputed) and remembers confirmed matches by storing the
   national id on the player, all or nothing.
2. Exports: :func:`list_games_tournament` turns a list's games of a period
   (or those played at one of its clubs) into an exchange Tournament, which
   ratings.exchange writes as an EGD h9 file (class C "club ladder"), an FFG
   .tou or an AGA file; the CSV and JSON game records and the JSON API stream
   the same records (ratings/exports.py).
3. Tournament imports: :func:`import_tournament` reads an EGD h9 or FFG .tou
   file (or the site's own CSV/JSON/AGA exports) and saves its games as one
   record sheet, matching players or creating them.

Every refusal is a :class:`CommitteeError` or an
:class:`ratings.exchange.ExchangeError` (both ValueError), with a message
naming the player or the file's line(s); nothing is written then.
"""

from __future__ import annotations

import hashlib
import math
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any, TypeVar

from django.db import models, transaction
from django.db.models import QuerySet
from django.utils import timezone

from ratings import exchange
from ratings.engine.ranks import format_rank
from ratings.models import (
    Club,
    Game,
    HistoryEntry,
    Kind,
    Player,
    RankSync,
    RankSyncLine,
    RatingList,
    RecordSheet,
)
from ratings.services import GameRow, NewPlayer, SheetError, add_adjustment, save_sheet

#: Which Player field holds each list's national id.  A plain CSV list is the
#: club's own national association (SAGA for a South African club).
ID_FIELD: dict[str, str] = {"ffg": "ffg_licence", "aga": "aga_id", "egd": "egd_pin", "csv": "saga_id"}

#: Matches the committee may apply as they stand; an ambiguous line needs a
#: candidate chosen first (it then becomes "confirmed").
APPLICABLE = ("id", "name", "confirmed")


#: A model whose objects a command picks by slug (a club, a list).
M = TypeVar("M", bound=models.Model)


class CommitteeError(ValueError):
    """A sync or import that cannot go ahead; the message says why."""


def _user(user: Any) -> Any:
    return user if user is not None and getattr(user, "is_authenticated", False) else None


def _id_field(name: str) -> models.Field[Any, Any]:
    """The Player field of a national id (egd_pin, ffg_licence, aga_id)."""
    field = Player._meta.get_field(name)
    if not isinstance(field, models.Field):
        raise TypeError(f"Player.{name} is not a column")
    return field


def _id_max_length(id_field: str) -> int:
    return int(_id_field(id_field).max_length or 0)


# --- 1. Rank synchronisation ---------------------------------------------------


def grade(rank: float) -> int:
    """The whole grade a rank falls in: 1.3d -> 1d, 14.5k -> 15k (floor, as the
    h9 writer bands fractional ranks, docs/formats.md)."""
    return math.floor(rank + 1e-9)


def proposes_change(line: RankSyncLine) -> bool:
    """Does the national rank differ from the club rank's grade?

    Decision: national lists give whole grades; a club whose system keeps
    fractional ranks (West Surrey's 1.3d, the West Surrey ladder page) is *in line* with a
    national 1d.  Setting it back to 1.0 would only wipe the club's own
    progress within the grade, so only a different grade is a change.
    """
    return (
        line.match in APPLICABLE
        and line.national_rank is not None
        and (grade(line.list_rank) != grade(line.national_rank))
    )


def list_label(sync: RankSync) -> str:
    """'FFG ladder', 'AGA TD list', 'EGD rating list', 'CSV rank list'."""
    label = str(sync.get_format_display())
    return label if label.endswith(("list", "ladder")) else f"{label} rank list"


def _entry_json(entry: exchange.RankEntry) -> dict[str, Any]:
    return {
        "line": entry.line,
        "name": entry.name,
        "national_id": entry.national_id or "",
        "rank": entry.rank,
        "rating": entry.rating,
    }


def _rejected_json(rejected: exchange.Rejected) -> dict[str, Any]:
    return {
        "line": rejected.line,
        "reason": rejected.reason,
        "text": rejected.text,
        "column": rejected.column,
    }


def match_players(
    players: Sequence[Player], entries: Sequence[exchange.RankEntry], id_field: str
) -> list[tuple[Player, str, list[exchange.RankEntry]]]:
    """For each player: (player, how, entries).

    ``how`` is "id" (the player's stored national id is in the list),
    "name" (exactly one entry carries the player's name, and nothing
    contradicts it), "ambiguous" (the committee must choose: the candidate
    entries are returned) or "missing" (none).

    A name match is ambiguous, never guessed, when several entries
    carry the name, when the player already has *another* national id
    stored (same name, maybe another person), or when two club players
    ("DUPONT Jean" and "Jean Dupont") both point at the one entry.  An entry
    whose id is already stored on another club player is that player's.
    """
    by_id = {e.national_id: e for e in entries if e.national_id}
    names = exchange.NameIndex((i, e.name) for i, e in enumerate(entries))
    taken = {getattr(p, id_field) for p in players if getattr(p, id_field)}
    found_for: dict[int, tuple[str, list[exchange.RankEntry]]] = {}
    for player in players:
        stored = getattr(player, id_field)
        if stored and stored in by_id:
            found_for[player.pk] = ("id", [by_id[stored]])
            continue
        found = [entries[i] for i in names.lookup(player.name) if isinstance(i, int)]
        found = [e for e in found if not e.national_id or e.national_id not in taken]
        if not found:
            found_for[player.pk] = ("missing", [])
        elif len(found) > 1 or (stored and found[0].national_id and found[0].national_id != stored):
            found_for[player.pk] = ("ambiguous", found)
        else:
            found_for[player.pk] = ("name", found)
    claims = Counter(found[0].line for how, found in found_for.values() if how == "name")
    matches = []
    for player in players:
        how, found = found_for[player.pk]
        if how == "name" and claims[found[0].line] > 1:
            how = "ambiguous"
        matches.append((player, how, found))
    return matches


def preview_rank_sync(
    rating_list: RatingList, data: bytes, *, filename: str = "", format: str | None = None, user: Any = None
) -> RankSync:
    """Read a national list and store the proposal; nothing is applied yet.

    Raises :class:`exchange.ExchangeError` (naming the line) on a list broken
    as a whole; nothing is written then.  The lines of the list that do not
    read are not imported; they are stored on the sync (``rejected``: line,
    reason, text and column of each, shown in the preview) and also come back
    as ``rejected_lines`` (the tuple of :class:`exchange.Rejected`).
    """
    chosen = exchange.rank_format(format) if format else None
    ranks = exchange.read_rank_list(data, format=chosen, filename=filename or None)
    id_field = ID_FIELD[ranks.format]
    too_long = next((e for e in ranks.entries if len(e.national_id or "") > _id_max_length(id_field)), None)
    if too_long is not None:
        raise CommitteeError(
            f"line {too_long.line}: national id {too_long.national_id!r} is longer than the "
            f"{_id_max_length(id_field)} characters of a {_id_field(id_field).verbose_name}"
        )
    players = list(Player.objects.filter(rating_list=rating_list).order_by("name", "suffix"))
    matches = match_players(players, ranks.entries, id_field)
    with transaction.atomic():
        sync = RankSync.objects.create(
            rating_list=rating_list,
            created_by=_user(user),
            filename=filename[:200],
            format=ranks.format,
            encoding=ranks.encoding[:20],
            as_of=ranks.as_of,
            read=len(ranks.entries),
            rejected=[_rejected_json(r) for r in ranks.rejected],
        )
        lines = []
        for player, how, found in matches:
            entry = found[0] if how in ("id", "name") else None
            lines.append(
                RankSyncLine(
                    sync=sync,
                    player=player,
                    match=how,
                    line=entry.line if entry else None,
                    national_name=entry.name[:200] if entry else "",
                    national_id=(entry.national_id or "") if entry else "",
                    national_rank=entry.rank if entry else None,
                    list_rank=player.rank,
                    list_rating=player.rating,
                    candidates=[_entry_json(e) for e in found] if how == "ambiguous" else [],
                )
            )
        RankSyncLine.objects.bulk_create(lines)
        sync.matched = sum(1 for line in lines if line.match in APPLICABLE)
        sync.ambiguous = sum(1 for line in lines if line.match == "ambiguous")
        sync.unmatched = sum(1 for line in lines if line.match == "missing")
        sync.changes = sum(1 for line in lines if proposes_change(line))
        sync.save(update_fields=["matched", "ambiguous", "unmatched", "changes"])
    sync.rejected_lines = ranks.rejected
    return sync


@dataclass(frozen=True)
class Choice:
    """The committee's decision on one sync line: apply it, and for an
    ambiguous line which candidate (by its list line number) is the player."""

    line_id: int
    candidate_line: int | None = None


def default_choices(sync: RankSync) -> list[Choice]:
    """What the preview ticks by default: id and name matches that change the
    rank, except a player's two lines (two records merged since the sync was
    read): the committee picks one of those itself."""
    lines = list(sync.lines.all())
    per_player = Counter(line.player_id for line in lines)
    return [
        Choice(line.pk)
        for line in lines
        if line.match in ("id", "name") and proposes_change(line) and per_player[line.player_id] == 1
    ]


def apply_rank_sync(
    sync: RankSync, choices: Iterable[Choice], *, effective: date, user: Any = None
) -> list[Any]:
    """Apply the chosen lines as adjustments dated ``effective``; all or nothing.

    Matches chosen here are remembered: the national id is stored on the
    player, so the next sync matches them by id.  A chosen line whose rank
    is already the club's grade (or an unrated entry) only remembers the id.
    Raises CommitteeError naming the player; nothing is written then.
    """
    id_field = ID_FIELD[sync.format]
    max_id = _id_max_length(id_field)
    wanted: dict[int, Choice] = {}
    for choice in choices:
        wanted.setdefault(choice.line_id, choice)  # the same line twice is one choice
    adjustments = []
    with transaction.atomic():
        # Locked and re-read: two committee members pressing "apply" at once
        # must not both apply it.
        current = RankSync.objects.select_for_update().get(pk=sync.pk)
        if current.applied_at is not None:
            raise CommitteeError(
                f"this synchronisation was already applied on {timezone.localtime(current.applied_at):%Y-%m-%d %H:%M}"
            )
        lines = {line.id: line for line in current.lines.select_related("player")}
        claimed: dict[str, str] = {}
        players: set[int] = set()
        for choice in wanted.values():
            line = lines.get(choice.line_id)
            if line is None:
                raise CommitteeError(f"line {choice.line_id} is not part of this synchronisation")
            player = Player.objects.get(pk=line.player_id)
            if player.pk in players:  # two records of one person, merged since the sync was read
                raise CommitteeError(
                    f"{player.name} has two lines chosen in this synchronisation; choose one"
                )
            players.add(player.pk)
            if line.match == "ambiguous":
                picked = [c for c in line.candidates if c["line"] == choice.candidate_line]
                if not picked:
                    raise CommitteeError(
                        f"{player.name}: choose which of the {len(line.candidates)} entries is theirs"
                    )
                line.line = picked[0]["line"]
                line.national_name = picked[0]["name"][:200]
                line.national_id = picked[0]["national_id"]
                line.national_rank = picked[0]["rank"]
                line.match = "confirmed"
            if line.match not in APPLICABLE:
                raise CommitteeError(f"{player.name} is not in the list: there is no national rank to apply")
            if line.national_id:
                if len(line.national_id) > max_id:
                    raise CommitteeError(
                        f"{player.name}: national id {line.national_id!r} is longer than {max_id} characters"
                    )
                if line.national_id in claimed:
                    raise CommitteeError(
                        f"{player.name} and {claimed[line.national_id]} cannot both be entry "
                        f"{line.national_id} of the list; choose one"
                    )
                claimed[line.national_id] = player.name
                holder = (
                    Player.objects.filter(
                        rating_list_id=player.rating_list_id, **{id_field: line.national_id}
                    )
                    .exclude(pk=player.pk)
                    .first()
                )
                if holder is not None:
                    raise CommitteeError(
                        f"{player.name}: national id {line.national_id} is already {holder.name}'s"
                    )
                if getattr(player, id_field) != line.national_id:
                    setattr(player, id_field, line.national_id)
                    player.save(update_fields=[id_field])
            if line.national_rank is not None and grade(player.rank) != grade(line.national_rank):
                try:
                    adjustment = add_adjustment(
                        player=player,
                        date=effective,
                        rank=line.national_rank,
                        reason=f"National rank ({list_label(current)}, sync #{current.pk})",
                        actor=_user(user),
                    )
                except SheetError as error:
                    problems = "; ".join(m for fields in error.problems.values() for m in fields.values())
                    raise CommitteeError(f"{player.name}: {problems}") from error
                line.adjustment = adjustment
                adjustments.append(adjustment)
            line.applied = True
            line.save()
        current.applied_at = timezone.now()
        current.applied_by = _user(user)
        current.effective = effective
        current.applied = len(adjustments)
        current.save(update_fields=["applied_at", "applied_by", "effective", "applied"])
    sync.refresh_from_db()
    return adjustments


# --- 2. Exports ---------------------------------------------------------------


def list_games(
    rating_list: RatingList, start: date | None, end: date | None, club: Club | None = None
) -> QuerySet[Game]:
    """The list's games of a period in timeline order (only those played at
    ``club`` when one is given).  Forfeits are left out: they are recorded
    but never rated (the FFG algorithm page, ratings/engine/base.py), so a national body
    has nothing to rate in them."""
    games = Game.objects.filter(rating_list=rating_list, forfeit=False)
    if club is not None:
        games = games.filter(club=club)
    if start:
        games = games.filter(date__gte=start)
    if end:
        games = games.filter(date__lte=end)
    return games.timeline()


def _ranks_at_first_game(rating_list: RatingList, first_game: dict[int, int]) -> dict[int, float]:
    """Each player's rank at their first game of the period (primary system),
    the grade a national body rates them at.  ``first_game``: player -> game id."""
    if not first_game:
        return {}
    # By game id alone (they are the club's games): with the club as well,
    # SQLite read the club's whole history through its (club, system, date)
    # index, for every chunk of a streamed export (ratings/exports.py).
    rows = HistoryEntry.objects.filter(
        system=rating_list.primary_system, game_id__in=set(first_game.values())
    ).values_list("player_id", "game_id", "rank_before")
    return {pid: rank for pid, gid, rank in rows if first_game.get(pid) == gid}


def _exchange_player(player: Player, rank: float) -> exchange.Player:
    return exchange.Player(
        key=str(player.pk),
        name=player.display_name,
        rank=rank,
        egd_pin=player.egd_pin or None,
        ffg_licence=player.ffg_licence or None,
        aga_id=player.aga_id or None,
    )


def tournament_game(game: Any, event: str, round_: int = 0) -> exchange.TournamentGame:
    """An exchange game of a Game, or of a row with a Game's columns (the
    streamed exports read rows, ratings/exports.py); ``event`` its sheet's."""
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


def _export_name(
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
) -> exchange.Tournament:
    """The list's games of a period (or those played at ``club``) as one class
    C "club ladder": British clubs report their club games to the EGD that way,
    one such tournament per period (docs/formats.md)."""
    games = list(list_games(rating_list, start, end, club).select_related("white", "black", "sheet"))
    first_game: dict[int, int] = {}
    for game in games:
        for pid in (game.white_id, game.black_id):
            first_game.setdefault(pid, game.pk)
    ranks = _ranks_at_first_game(rating_list, first_game)
    players: dict[int, exchange.Player] = {}
    for game in games:
        for player in (game.white, game.black):
            if player.pk not in players:
                players[player.pk] = _exchange_player(player, ranks.get(player.pk, player.rank))
    return exchange.club_tournament(
        _export_name(rating_list, start, end, club),
        list(players.values()),
        [tournament_game(game, game.sheet.event) for game in games],
        start=start,
        end=end,
        event_class=event_class,
        place=(club or rating_list).name,
        komi=_even_komi(games),
    )


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_api_token(rating_list: RatingList) -> str:
    """(Re)generate the token a national body sends as "Authorization: Token
    <token>"; the old one stops working at once.  Only its SHA-256 is stored:
    the token is shown once, to the committee member who made it."""
    token = secrets.token_urlsafe(32)
    digest = _token_hash(token)
    RatingList.objects.filter(pk=rating_list.pk).update(api_token_hash=digest)
    rating_list.api_token_hash = digest
    return token


def list_for_token(token: str) -> RatingList | None:
    if not token:
        return None
    digest = _token_hash(token)
    found = RatingList.objects.filter(api_token_hash=digest).first()
    if found is None or not secrets.compare_digest(found.api_token_hash, digest):
        return None
    return found


# --- 3. Tournament imports ----------------------------------------------------


#: How a player of the file was matched, by the Player field that matched.
ID_LABELS = {"egd_pin": "EGD PIN", "ffg_licence": "FFG licence", "aga_id": "AGA id"}
#: Games of a file shown (and kept) in a preview; the others are counted.
GAMES_PREVIEWED = 20


@dataclass
class ImportReport:
    """What an import did (or, with ``dry_run``, would do).

    ``matched``, ``created`` and ``skipped`` are one line of text each (the
    command prints them); ``players``, ``new_players`` and ``first_games``
    are the same facts as fields, for the browser's preview
    (ratings/import_preview.py), JSON-ready.
    """

    sheet: RecordSheet | None
    games: int
    fmt: str = ""
    matched: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    dry_run: bool = False
    #: {"line", "name" (as in the file), "player" (ours), "player_id", "how"}
    players: list[dict[str, Any]] = field(default_factory=list)
    #: {"line", "name", "rank" (label), "ids" (the file's national ids)}
    new_players: list[dict[str, Any]] = field(default_factory=list)
    #: The first GAMES_PREVIEWED games: {"lines", "round", "date", "white", "black", ...}
    first_games: list[dict[str, Any]] = field(default_factory=list)
    date: str = ""
    event: str = ""
    forfeits: int = 0

    def summary(self) -> dict[str, Any]:
        """Everything a preview shows, as JSON: two imports of one file whose
        summaries are equal save the same games with the same players."""
        return {
            "format": self.fmt,
            "date": self.date,
            "event": self.event,
            "games": self.games,
            "forfeits": self.forfeits,
            "players": self.players,
            "new_players": self.new_players,
            "first_games": self.first_games,
            "skipped": self.skipped,
        }


def _where(lines: Sequence[int | None]) -> str:
    known = [n for n in dict.fromkeys(lines) if n is not None]
    if not known:
        return "the file"
    return f"line {known[0]}" + "".join(f" (and line {n})" for n in known[1:])


class _ListPlayers:
    """The list's players, looked up by national id, then by name (one query)."""

    IDS = ("egd_pin", "ffg_licence", "aga_id")

    def __init__(self, rating_list: RatingList) -> None:
        self.players = {p.pk: p for p in Player.objects.filter(rating_list=rating_list)}
        self.names = exchange.NameIndex((p.pk, p.display_name) for p in self.players.values())
        self.by_id: dict[tuple[str, str], list[Player]] = {}
        for player in self.players.values():
            for attr in self.IDS:
                if getattr(player, attr):
                    self.by_id.setdefault((attr, getattr(player, attr)), []).append(player)

    def find(self, person: exchange.Player) -> tuple[Player, str] | None:
        """The player and how they matched ("EGD PIN", ..., or "name")."""
        for attr in self.IDS:
            value = getattr(person, attr)
            hits = self.by_id.get((attr, value), []) if value else []
            if len(hits) == 1:
                return hits[0], ID_LABELS[attr]
        named = self.names.lookup(person.name)
        if len(named) > 1:
            names = " and ".join(sorted(self.players[pk].name for pk in named))
            raise CommitteeError(
                f"line {person.line}: {person.name} matches several club players ({names}); "
                "give them their national id or rename one first"
            )
        return (self.players[named[0]], "name") if named else None


def _check_games(tournament: exchange.Tournament) -> None:
    """What the data model would refuse, named by line before anything is saved."""
    if tournament.minutes is not None and not 0 <= tournament.minutes <= 32767:
        raise CommitteeError(f"the file's main time of {tournament.minutes} minutes is not plausible")
    if tournament.board not in (9, 13, 19):
        raise CommitteeError(f"board size {tournament.board}: the site records 9, 13 or 19")
    for game in tournament.games:
        if game.board not in (9, 13, 19):
            raise CommitteeError(
                f"{_where(game.lines)}: board size {game.board}: the site records 9, 13 or 19"
            )


def _board(game: exchange.TournamentGame, tournament: exchange.Tournament) -> int:
    """A .tou gives the board once (``size=``), game records per game."""
    return tournament.board if tournament.board != 19 else game.board


def _resolve_players(
    club: Club, tournament: exchange.Tournament, report: ImportReport
) -> dict[str, Player | NewPlayer]:
    """Match each player who has a game to a player of the club's list (a
    tournament at one club meets players of the whole list), or plan a new one."""
    playing = {g.white for g in tournament.games} | {g.black for g in tournament.games}
    known = _ListPlayers(club.rating_list)
    refs: dict[str, Player | NewPlayer] = {}
    seen: dict[Any, exchange.Player] = {}  # club player pk or new name key -> who took it
    for person in tournament.players:
        if person.key not in playing:
            report.skipped.append(f"line {person.line}: {person.name} has no game")
            continue
        try:
            name = exchange.clean_name(person.name)
        except ValueError as error:
            raise CommitteeError(f"line {person.line}: {person.name!r}: {error}") from None
        found = known.find(person)
        player = found[0] if found is not None else None
        slot: Any = player.pk if player is not None else exchange.name_key(name)
        if slot in seen:
            other = seen[slot]
            raise CommitteeError(
                f"{_where([person.line, other.line])}: {other.name} and {person.name} would be the same "
                "player; a tournament lists each player once"
            )
        seen[slot] = person
        if found is not None:
            player, how = found
            refs[person.key] = player
            report.matched.append(f"{person.name} → {player}" if str(player) != name else name)
            report.players.append(
                {
                    "line": person.line,
                    "name": person.name,
                    "player": str(player),
                    "player_id": player.pk,
                    "how": how,
                }
            )
            continue
        if person.rank is None:
            raise CommitteeError(
                f"line {person.line}: {name} is new to {club.rating_list} and the file gives no grade"
            )
        for attr in _ListPlayers.IDS:
            value = getattr(person, attr)
            if value and len(value) > _id_max_length(attr):
                raise CommitteeError(f"line {person.line}: {attr} {value!r} is too long")
        # A new player starts at the grade the file gives; a fractional rank
        # (a CSV export of a West Surrey club) starts at its grade band.
        refs[person.key] = NewPlayer(name=name, rank=grade(person.rank))
        report.created.append(f"{name} ({format_rank(grade(person.rank))})")
        report.new_players.append(
            {
                "line": person.line,
                "name": name,
                "rank": format_rank(grade(person.rank)),
                "ids": {ID_LABELS[a]: getattr(person, a) for a in _ListPlayers.IDS if getattr(person, a)},
            }
        )
    return refs


def _already_imported(
    club: Club, tournament: exchange.Tournament, day: date, refs: dict[str, Player | NewPlayer]
) -> RecordSheet | None:
    """A sheet of the club's list (the games of every club of a list are one
    pool) with the same event and date, or with exactly these games."""
    sheets = RecordSheet.objects.filter(club__rating_list_id=club.rating_list_id, date=day)
    sheets = sheets.select_related("club")
    if tournament.name:
        found = sheets.filter(event=tournament.name[:200]).first()
        if found is not None:
            return found
    known = {key: ref for key, ref in refs.items() if isinstance(ref, Player)}
    if len(known) < len(refs):
        return None  # a game with a new player cannot be on an earlier sheet
    wanted = Counter(
        (g.date or day, known[g.white].pk, known[g.black].pk, g.winner.value, g.handicap)
        for g in tournament.games
    )
    for sheet in sheets:
        have = Counter(sheet.games.values_list("date", "white_id", "black_id", "winner", "handicap"))
        if have == wanted:
            return sheet
    return None


def import_tournament(
    club: Club,
    data: bytes,
    *,
    filename: str = "",
    format: str | None = None,
    user: Any = None,
    dry_run: bool = False,
    date: date | None = None,
) -> ImportReport:
    """Save a tournament file's games as one sheet of tournament games.

    All or nothing: a bad file raises ExchangeError naming the line; a file
    already imported, a player the club cannot tell apart, or a game the
    site would refuse raises CommitteeError naming the line(s).  With
    ``dry_run`` everything is checked and reported, then rolled back.
    ``date`` is the tournament's date when the caller gives it: needed for a
    file without one (refused otherwise), and it replaces the file's.
    Games won or lost by default are saved as forfeits: kept, never rated.
    """
    tournament = exchange.read_tournament(
        data,
        format=exchange.game_format(format) if format else None,
        filename=filename or None,
        date=date,
    )
    report = ImportReport(sheet=None, games=len(tournament.games), fmt=tournament.format, dry_run=dry_run)
    report.skipped = [
        f"line {s.line}" + (f", round {s.round}" if s.round else "") + f": {s.reason}"
        for s in tournament.skipped
    ]
    if not tournament.games:
        raise CommitteeError(
            f"{filename or 'the file'} has no game to import"
            + (
                f" ({len(tournament.skipped)} items skipped, the first: {report.skipped[0]})"
                if report.skipped
                else ""
            )
        )
    _check_games(tournament)
    # read_tournament refuses a file without a date unless every game has one.
    day = tournament.start or min(g.date for g in tournament.games if g.date)
    event = tournament.name[:200]
    report.date, report.event = day.isoformat(), event
    report.forfeits = sum(1 for g in tournament.games if g.forfeit)
    with transaction.atomic():
        refs = _resolve_players(club, tournament, report)
        report.first_games = [_game_json(g, refs, day) for g in tournament.games[:GAMES_PREVIEWED]]
        duplicate = _already_imported(club, tournament, day, refs)
        if duplicate is not None:
            raise CommitteeError(
                f"{tournament.name or 'these games'} of {day:%Y-%m-%d} was already imported into {duplicate.club.name} "
                f"(the record sheet entered {duplicate.entered_at:%Y-%m-%d %H:%M}"
                f"{' by ' + duplicate.entered_by.get_username() if duplicate.entered_by else ''})"
            )
        rows = [
            GameRow(
                white=refs[g.white],
                black=refs[g.black],
                winner=g.winner.value,
                handicap=g.handicap,
                komi=Decimal(str(g.komi)),
                date=g.date or day,
                # The file's own kind when it says one (the site's CSV/JSON
                # exports); an h9 or .tou game is a tournament game.
                kind=g.kind if g.kind in Kind.values else Kind.TOURNAMENT,
                board=_board(g, tournament),
                minutes=tournament.minutes,
                comments=f"round {g.round}" if g.round else "",
                forfeit=g.forfeit,
            )
            for g in tournament.games
        ]
        try:
            sheet = save_sheet(
                club=club,
                date=day,
                rows=rows,
                actor=_user(user),
                event=event,
                kind=Kind.TOURNAMENT,
                comments=_sheet_comments(filename, tournament),
            )
        except SheetError as error:
            raise CommitteeError(_sheet_problems(error, tournament)) from error
        if tournament.event_class in ("A", "B", "C", "D"):
            sheet.event_class = tournament.event_class
            sheet.save(update_fields=["event_class"])
        _remember_ids(club, tournament, refs)
        report.sheet = sheet
        if dry_run:
            transaction.set_rollback(True)
    return report


def _game_json(
    game: exchange.TournamentGame, refs: dict[str, Player | NewPlayer], day: date
) -> dict[str, Any]:
    """One game as the preview shows it, players by their name on the site."""

    def name(key: str) -> str:
        ref = refs[key]
        return ref.display_name if isinstance(ref, NewPlayer) else str(ref)

    return {
        "lines": [n for n in game.lines if n is not None],
        "round": game.round,
        "date": (game.date or day).isoformat(),
        "white": name(game.white),
        "black": name(game.black),
        "handicap": game.handicap,
        "komi": float(game.komi),
        "winner": game.winner.value,
        "forfeit": game.forfeit,
    }


def _sheet_comments(filename: str, tournament: exchange.Tournament) -> str:
    """Where the sheet came from, and the event's rounds without a game (byes,
    not paired): not games, so not rated, but kept with the event."""
    text = f"Imported from {filename or 'a file'} ({tournament.format})."
    names = {p.line: p.name for p in tournament.players}
    byes = [
        f"round {s.round}: {names.get(s.line, f'line {s.line}')} ({s.reason.partition('(')[2].rstrip(')')})"
        for s in tournament.skipped
        if s.bye
    ]
    if byes:
        text += " No game (byes, not paired): " + "; ".join(byes) + "."
    return text if len(text) <= 1000 else text[:990].rsplit(";", 1)[0] + "; and more."


def _sheet_problems(error: SheetError, tournament: exchange.Tournament) -> str:
    """save_sheet's rows are the file's games: name their lines instead."""
    parts = []
    for row, fields in sorted(error.problems.items()):
        lines = tournament.games[row - 1].lines if 0 < row <= len(tournament.games) else ()
        where = _where(lines) if row else "the tournament"
        parts += [f"{where}: {message}" for message in fields.values()]
    more = f"; and {len(parts) - 5} more" if len(parts) > 5 else ""
    return "; ".join(parts[:5]) + more


def _remember_ids(club: Club, tournament: exchange.Tournament, refs: dict[str, Player | NewPlayer]) -> None:
    """The national ids the file gives, stored on the players it created."""
    for person in tournament.players:
        ref = refs.get(person.key)
        if not isinstance(ref, NewPlayer):
            continue
        changed = [a for a in _ListPlayers.IDS if getattr(person, a)]
        if changed:
            player = Player.objects.named(club.rating_list, ref.display_name).get()
            for attr in changed:
                setattr(player, attr, getattr(person, attr))
            player.save(update_fields=changed)


def rank_label(value: float | None) -> str:
    return format_rank(value) if value is not None else "—"


def find_club(slug: str | None, rating_list: RatingList | None = None) -> Club:
    """The club a command works on: ``--club SLUG``, or the only club there is
    (of ``rating_list`` when one is given)."""
    clubs = Club.objects.select_related("rating_list").order_by("slug")
    if rating_list is not None:
        clubs = clubs.filter(rating_list=rating_list)
    return _the_one(clubs, slug, "club")


def find_list(slug: str | None) -> RatingList:
    """The list a command works on: ``--list SLUG``, or the only list there is."""
    return _the_one(RatingList.objects.order_by("slug"), slug, "list")


def find_list_or_club(list_slug: str | None, club_slug: str | None) -> tuple[RatingList, Club | None]:
    """``--list`` and/or ``--club`` of a command that acts on a list, or on the
    games of one of its clubs: the club's list, checked against ``--list``."""
    if club_slug:
        club = find_club(club_slug)
        if list_slug and club.rating_list.slug != list_slug:
            raise CommitteeError(
                f"--club: {club.slug} is a club of the list {club.rating_list.slug}, not {list_slug}"
            )
        return club.rating_list, club
    return find_list(list_slug), None


def _the_one(choices: QuerySet[M], slug: str | None, what: str) -> M:
    known = ", ".join(choices.values_list("slug", flat=True)) or "none yet"
    if slug:
        found = choices.filter(slug=slug).first()
        if found is None:
            raise CommitteeError(f"--{what}: no {what} {slug!r} ({what}s: {known})")
        return found
    first_two = list(choices[:2])
    if len(first_two) == 1:
        return first_two[0]
    if not first_two:
        raise CommitteeError(f"there is no {what} yet")
    raise CommitteeError(f"there are several {what}s: give --{what} (one of: {known})")
