"""The one place that writes games, record sheets and rank adjustments.

Every function here is atomic (one transaction), writes the log-file of
the SAGC FAQ ("You can then verify that the details are correct by visiting the
site and checking the log-file") as :class:`~ratings.models.LogEntry` rows,
keeps :attr:`Player.last_updated` and, inside the same transaction, calls
:func:`ratings.recompute.mark_dirty` with the earliest date whose ratings the
change affects.  The recompute pipeline arranges the ratings update after
commit, so a refused or failed write never triggers one.

Views and forms call these functions; nothing else writes games.  The
functions check the domain rules themselves (same player twice, handicap,
komi, dates) so a caller that skips the forms (an import, a shell) cannot
store a game the forms would refuse; the forms reuse :func:`game_problems`
to show the same messages next to the row and field.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db import IntegrityError, transaction
from django.db.models import Case, Value, When
from django.utils import timezone
from django.utils.text import slugify

from ratings.engine import SYSTEM_NAMES
from ratings.engine.ranks import MAX_RANK, MIN_RANK, format_rank
from ratings.exchange.names import clean_name, identity_key
from ratings.models import (
    Club,
    FormerSlug,
    Game,
    Kind,
    LogEntry,
    Player,
    RankAdjustment,
    RatingList,
    RecordSheet,
    Winner,
)

MAX_HANDICAP = 9
#: Komi bounds of the data model (Game.komi).  The West Surrey ladder page counts one handicap
#: stone as 10 komi ("One handicap stone is equivalent to 10 komi"), so a
#: nine-stone handicap given as komi is 90 points; beyond 99.5 it is a typo.
MAX_KOMI = Decimal("99.5")

#: Komi when the sheet leaves it blank.  Decision: 6.5 to White for an even
#: game and 0.5 for a handicap game.  The West Surrey ladder page gives White 6 komi in an even
#: game and "For a handicap of 1, either black starts with no komi"; the SAGC FAQ's
#: effective handicap ``int(handicap - (komi - 6) / 10)`` reads both 6.5/0 and
#: 0.5/h as exactly the stones played (int(-0.05) = 0, int(h + 0.55) = h), and
#: the half point avoids a jigo.
EVEN_KOMI = Decimal("6.5")
HANDICAP_KOMI = Decimal("0.5")


def default_komi(handicap: int) -> Decimal:
    """The komi a sheet means when it gives none (see :data:`EVEN_KOMI`)."""
    return EVEN_KOMI if handicap == 0 else HANDICAP_KOMI


#: Who made a change: a user, or nobody (a command, the demo data).
Actor = User | AnonymousUser | None


class SheetError(ValueError):
    """Rows of a sheet that cannot be saved: {row number (1-based): {field: message}}.

    Row 0 holds the sheet header's problems.
    """

    def __init__(self, problems: Mapping[int, Mapping[str, str]]) -> None:
        self.problems = {row: dict(fields) for row, fields in problems.items()}
        lines = [
            f"{'sheet' if row == 0 else f'row {row}'}: {name}: {message}"
            for row, fields in sorted(self.problems.items())
            for name, message in fields.items()
        ]
        super().__init__("; ".join(lines))


@dataclass(frozen=True)
class NewPlayer:
    """A player created by the sheet that first records them (the SAGC FAQ, "How
    do I get a SAGC rank?": "play a game, and then record it.  Your name and
    rank will be added onto the system")."""

    name: str
    rank: int
    #: Tells apart two real people of the same name (Player.suffix).
    suffix: str = ""

    @property
    def display_name(self) -> str:
        return f"{self.name} ({self.suffix})" if self.suffix else self.name


PlayerRef = Player | NewPlayer


@dataclass(frozen=True)
class GameRow:
    """One game row of a record sheet.  ``date`` None = the sheet's date,
    ``kind`` None = the sheet's kind, ``komi`` None = :func:`default_komi`."""

    white: PlayerRef
    black: PlayerRef
    winner: str
    handicap: int = 0
    komi: Decimal | None = None
    date: date | None = None
    kind: str | None = None
    board: int = 19
    minutes: int | None = None
    forfeit: bool = False
    comments: str = ""


# --- checks shared with the forms ---------------------------------------------


def _name(ref: PlayerRef) -> str:
    return ref.display_name


def _since(ref: PlayerRef) -> date | None:
    return ref.since if isinstance(ref, Player) else None


def game_problems(
    *,
    white: PlayerRef | None,
    black: PlayerRef | None,
    winner: str | None,
    handicap: int | None,
    komi: Decimal | None,
    game_date: date | None,
    rating_list: RatingList | None = None,
    today: date | None = None,
) -> dict[str, str]:
    """What is wrong with one game, by field name; empty when nothing is.

    Any two players of a list may meet at any of its clubs; a player of
    another list may not (lists never mix)."""
    today = today or timezone.localdate()
    problems: dict[str, str] = {}
    if white is not None and black is not None and identity_key(_name(white)) == identity_key(_name(black)):
        problems["black"] = f"{_name(black)} cannot play both White and Black in one game"
    for colour, ref in (("white", white), ("black", black)):
        if ref is None:
            continue
        if rating_list is not None and isinstance(ref, Player) and ref.rating_list_id != rating_list.pk:
            problems[colour] = (
                f"{ref} is a player of the list {ref.rating_list}, not of {rating_list}: "
                "games between players of two lists are not rated"
            )
        since = _since(ref)
        if game_date is not None and since is not None and game_date < since and colour not in problems:
            problems[colour] = (
                f"{ref} joined on {since:%Y-%m-%d}; a game dated {game_date:%Y-%m-%d} is before that"
            )
    if winner not in Winner.values:
        problems["winner"] = "choose the winner: White, Black or jigo"
    if handicap is None or not 0 <= handicap <= MAX_HANDICAP:
        problems["handicap"] = f"handicap must be 0 to {MAX_HANDICAP} stones, not {handicap}"
    if komi is not None:
        if not -MAX_KOMI <= komi <= MAX_KOMI:
            problems["komi"] = (
                f"komi must be between -{MAX_KOMI} and {MAX_KOMI} (negative = to Black), not {komi}"
            )
        elif (komi * 2) % 1 != 0:
            problems["komi"] = f"komi is counted in half points, not {komi}"
    if game_date is not None and (problem := date_problem(game_date, today)) is not None:
        problems["date"] = problem
    return problems


#: The earliest date a game, sheet or adjustment may carry.  Go was played
#: in European clubs from the early twentieth century; anything before 1900
#: is a typing slip (year 0001, 0204 for 2024), not a record.
EARLIEST_DATE = date(1900, 1, 1)


def date_problem(value: date, today: date | None = None) -> str | None:
    """Why a game or sheet date is not plausible (before 1900, after today), or None."""
    if value < EARLIEST_DATE:
        return (
            f"{value.isoformat()} is before {EARLIEST_DATE.isoformat()}, the earliest date the site records"
        )
    if value > (today or timezone.localdate()):
        return f"{value.isoformat()} is in the future"
    return None


def _name_problem(name: str) -> str | None:
    """What exchange.clean_name refuses in a new player's name: the forms
    and imports clean names first; this refuses one that slipped past them."""
    try:
        clean_name(name)
    except ValueError as error:
        return f"{name!r}: {error}"
    return None


def _rank_problem(rank: int) -> str | None:
    if not MIN_RANK <= rank <= MAX_RANK:
        return f"a starting rank is between {format_rank(MIN_RANK)} and {format_rank(MAX_RANK)}"
    return None


# --- helpers ------------------------------------------------------------------


def _mark_dirty(rating_list: RatingList | int, from_date: date) -> None:
    """Tell the recompute pipeline (inside the caller's transaction)."""
    from ratings import recompute

    recompute.mark_dirty(rating_list, from_date)


def unique_slug(name: str, club: Club) -> str:
    """A free Player.slug for ``name``: 'jan-de-wet', then with the club, then numbered."""
    base = slugify(name)[:100] or "player"
    candidates = [base, f"{base}-{club.slug}"[:110]]
    for candidate in candidates:
        if not _slug_taken(candidate):
            return candidate
    n = 2
    while _slug_taken(f"{base}-{n}"):
        n += 1
    return f"{base}-{n}"


def _slug_taken(slug: str) -> bool:
    """A player's address, current or former (a renamed or merged player's old address redirects)."""
    return Player.objects.filter(slug=slug).exists() or FormerSlug.objects.filter(slug=slug).exists()


def refresh_last_updated(players: Iterable[Player]) -> None:
    """Player.last_updated = date of the player's most recently *added* game,
    not the most recently played (the SAGC FAQ, "My last updated date has gone
    backwards": "the last-updated column is actually only the date of the
    most recently added game")."""
    # In primary-key order: two sheets saved at once lock the same player
    # rows in the same order, so they queue instead of deadlocking.
    for _pk, player in sorted({p.pk: p for p in players}.items()):
        latest = (
            Game.objects.of_player(player)
            .order_by("-entered_at", "-id")
            .values_list("date", flat=True)
            .first()
        )
        if player.last_updated != latest:
            player.last_updated = latest
            Player.objects.filter(pk=player.pk).update(last_updated=latest)


def describe_game(game: Game) -> str:
    """One line for the log: who played whom, how, and who won."""
    handicap = f"H{game.handicap}" if game.handicap else "even"
    winner = {"white": f"{game.white} won", "black": f"{game.black} won", "jigo": "jigo"}[game.winner]
    return (
        f"{game.date:%Y-%m-%d} {game.white} (W) v {game.black} (B), {handicap}, komi {game.komi}, "
        f"{winner}, {game.get_kind_display().lower()}"
    )


def _log(
    *,
    rating_list: RatingList | int,
    club: Club | None,
    actor: Actor,
    action: str,
    event_date: date,
    summary: str,
    players: Sequence[Player],
    game: Game | None = None,
    sheet: RecordSheet | None = None,
    adjustment: RankAdjustment | None = None,
    changes: dict[str, Any] | None = None,
) -> LogEntry:
    entry = LogEntry.objects.create(
        rating_list_id=rating_list if isinstance(rating_list, int) else rating_list.pk,
        club=club,
        actor=_user(actor),
        action=action,
        event_date=event_date,
        summary=summary[:300],
        game=game,
        sheet=sheet,
        adjustment=adjustment,
        changes=changes or {},
    )
    entry.players.set(players)
    return entry


# --- record sheets ------------------------------------------------------------


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
            elif (problem := _name_problem(ref.name)) is not None:
                found[colour] = problem
            elif (problem := _rank_problem(ref.rank)) is not None:
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
            entered_by=_user(actor),
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
                    comments=row.comments,
                    entered_by=_user(actor),
                    entered_at=now,
                )
            )
        _lock_players(player.pk for game in games for player in (game.white, game.black))
        Game.objects.bulk_create(games)
        entries = LogEntry.objects.bulk_create(
            LogEntry(
                rating_list=rating_list,
                club=club,
                actor=_user(actor),
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
        _mark_dirty(rating_list, earliest)
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


def _user(actor: Actor) -> User | None:
    """The signed-in user who acted (None for nobody or an anonymous visitor)."""
    return actor if isinstance(actor, User) and actor.is_authenticated else None


# --- editing and deleting a game ------------------------------------------------

#: Fields a correction may change.
EDITABLE = (
    "date",
    "white",
    "black",
    "handicap",
    "komi",
    "winner",
    "kind",
    "board",
    "minutes",
    "forfeit",
    "comments",
)


def _loggable(value: Any) -> Any:
    """A value as the log stores it (JSON): players by name, dates ISO."""
    if isinstance(value, Player):
        return value.display_name
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def edit_game(
    game: Game, *, actor: Actor = None, today: date | None = None, **changes: Any
) -> dict[str, list[Any]]:
    """Correct a game; returns (and logs) {field: [old, new]} of what changed.

    The ratings are marked stale from the earlier of the old and new date: a
    game moved later still changed everything after its old place.
    """
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise ValueError(
            f"cannot edit {', '.join(sorted(unknown))}; editable fields are {', '.join(EDITABLE)}"
        )
    if changes.get("komi") is not None:
        changes["komi"] = Decimal(str(changes["komi"]))
    with transaction.atomic():
        current = (
            Game.objects.select_for_update()
            .select_related("white", "black", "club", "rating_list")
            .get(pk=game.pk)
        )
        diff: dict[str, list[Any]] = {}
        for name, new in changes.items():
            old = getattr(current, name)
            if old != new:
                diff[name] = [old, new]
        if not diff:
            return {}
        merged = {name: changes.get(name, getattr(current, name)) for name in EDITABLE}
        found = game_problems(
            white=merged["white"],
            black=merged["black"],
            winner=merged["winner"],
            handicap=merged["handicap"],
            komi=merged["komi"],
            game_date=merged["date"],
            rating_list=current.rating_list,
            today=today,
        )
        if merged["kind"] not in Kind.values:
            found["kind"] = f"unknown kind of game {merged['kind']!r}"
        if found:
            raise SheetError({1: found})
        old_date = current.date
        old_players = [current.white, current.black]
        for name, (_, new) in diff.items():
            setattr(current, name, new)
        current.full_clean(exclude=["sheet", "club", "rating_list", "entered_by"])
        current.save()
        logged = {name: [_loggable(old), _loggable(new)] for name, (old, new) in diff.items()}
        players = list({p.pk: p for p in [*old_players, current.white, current.black]}.values())
        _log(
            rating_list=current.rating_list_id,
            club=current.club,
            actor=actor,
            action=LogEntry.Action.EDIT,
            event_date=current.date,
            summary="Corrected " + ", ".join(logged) + ": " + describe_game(current),
            players=players,
            game=current,
            sheet=current.sheet,
            changes=logged,
        )
        refresh_last_updated(players)
        _mark_dirty(current.rating_list_id, min(old_date, current.date))
    game.refresh_from_db()
    return logged


def delete_game(game: Game, *, actor: Actor = None, reason: str = "") -> None:
    """Delete a game; the log keeps what it was and who deleted it."""
    with transaction.atomic():
        current = (
            Game.objects.select_for_update().select_related("white", "black", "club", "sheet").get(pk=game.pk)
        )
        players = [current.white, current.black]
        summary = "Deleted " + describe_game(current) + (f" ({reason})" if reason else "")
        snapshot = {name: [_loggable(getattr(current, name)), None] for name in EDITABLE}
        _log(
            rating_list=current.rating_list_id,
            club=current.club,
            actor=actor,
            action=LogEntry.Action.DELETE,
            event_date=current.date,
            summary=summary,
            players=players,
            sheet=current.sheet,
            changes=snapshot,
        )
        current.delete()
        refresh_last_updated(players)
        _mark_dirty(current.rating_list_id, current.date)


# --- rank adjustments and club settings ------------------------------------------


def add_adjustment(
    *,
    player: Player,
    date: date,
    rank: float,
    rating: float | None = None,
    reason: str = "",
    actor: Actor = None,
    today: date | None = None,
) -> RankAdjustment:
    """The committee sets ``player``'s rank (and optionally index) from ``date`` on."""
    today = today or timezone.localdate()
    problems: dict[str, str] = {}
    if not MIN_RANK <= rank <= MAX_RANK:
        problems["rank"] = f"a rank is between {format_rank(MIN_RANK)} and {format_rank(MAX_RANK)}"
    if (problem := date_problem(date, today)) is not None:
        problems["date"] = problem
    elif date < player.since:
        problems["date"] = f"{player.name} joined on {player.since:%Y-%m-%d}; {date:%Y-%m-%d} is before that"
    if problems:
        raise SheetError({1: problems})
    rating_list_id = player.rating_list_id
    with transaction.atomic():
        adjustment = RankAdjustment.objects.create(
            rating_list_id=rating_list_id,
            player=player,
            date=date,
            rank=rank,
            rating=rating,
            reason=reason,
            entered_by=_user(actor),
        )
        index = "" if rating is None else f", index {rating:g}"
        _log(
            rating_list=rating_list_id,
            club=None,
            actor=actor,
            action=LogEntry.Action.ADD,
            event_date=date,
            summary=f"{date:%Y-%m-%d} {player.name} set to {format_rank(rank)}{index}"
            + (f": {reason}" if reason else ""),
            players=[player],
            adjustment=adjustment,
        )
        _mark_dirty(rating_list_id, date)
    return adjustment


def set_list_systems(
    rating_list: RatingList, *, primary: str, compared: Sequence[str], actor: Actor = None
) -> bool:
    """Choose the list's primary and compared rating systems.

    A change replays the list's whole history (dirty from its first event):
    the cached ranks and record sheets follow the primary system.  Returns
    whether anything changed.

    When the primary system changes, the old primary stays computed for
    comparison: the form cannot offer it as "compared" while it is primary,
    so dropping it would silently lose the history the list used until now.
    It can be unticked afterwards.
    """
    unknown = [name for name in [primary, *compared] if name not in SYSTEM_NAMES]
    if unknown:
        raise ValueError(f"unknown rating system {', '.join(unknown)}; choose from {', '.join(SYSTEM_NAMES)}")
    wanted = [name for name in dict.fromkeys(compared) if name != primary]
    with transaction.atomic():
        current = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        if current.primary_system != primary and current.primary_system not in wanted:
            wanted.append(current.primary_system)
        if current.primary_system == primary and list(current.compared_systems) == wanted:
            return False
        current.primary_system = primary
        current.compared_systems = wanted
        current.save(update_fields=["primary_system", "compared_systems"])
        rating_list.primary_system, rating_list.compared_systems = primary, wanted
        from ratings import recompute

        first = recompute.first_event_date(current)
        if first is not None:
            _mark_dirty(current, first)
    return True
