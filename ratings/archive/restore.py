"""Importing a list's archive: all of it or nothing.

First every file's rows and checksum are checked against the manifest
(nothing is read from a file that fails); then, in one transaction, each
file in turn is read as a stream and written in chunks: every field
converted and validated by its model field (``values``: the field's name
and the line are named when one is wrong), every reference mapped to the
new row (a reference to a row the archive does not hold is refused), the
database's own rules (unique names, ranges) checked by inserting the chunk
under a savepoint; a chunk the database refuses is inserted again row by
row to name the line at fault.  The rows are written with ids drawn
beforehand, by COPY on PostgreSQL (``tables``), or by the model's
``bulk_create`` when the model has rules of its own for rows made in bulk
(a player's identity key); a file's next block is made in a thread
(``ahead``) while the database writes and checks the last (the foreign
keys checked as each block's COPY ends: every reference is to a row of an
earlier file).  Any problem rolls the whole import back.
After the commit the list is recomputed from its first game, so its
history is this site's own.

The list keeps its address unless imported ``as`` another one; an address
already taken is refused (so the same archive imported twice creates
nothing the second time).  A club or player address taken on this site by
another list gets a number ("-2"); a former address (a redirect) already
taken is left out.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, connection, transaction
from django.db.models import JSONField
from django.utils import timezone
from django.utils.text import slugify

from ratings import recompute
from ratings.archive import log_changes, tables
from ratings.archive.ahead import ahead
from ratings.archive.ids import IdMap
from ratings.archive.kinds import FILE_OF, KINDS, Kind
from ratings.archive.manifest import ArchiveError, Reader
from ratings.archive.people import People
from ratings.archive.tables import Table
from ratings.archive.values import Convert, checker, preparer
from ratings.models import Club, FormerSlug, Game, LogEntry, Player, RankAdjustment, RatingList, RecomputeRun
from ratings.places import RESERVED_SLUGS, free_slug

#: Rows written at once by the model's bulk_create, and by tables.Table.
CHUNK = 1000
BLOCK = 10_000


@dataclass
class Restored:
    """What an import made: the list, each file's rows, the accounts made
    for addresses this site did not know, the recompute's run."""

    rating_list: RatingList
    counts: dict[str, int] = field(default_factory=dict)
    accounts_created: list[str] = field(default_factory=list)
    run: RecomputeRun | None = None


def restore_archive(
    source: IO[bytes] | str, as_slug: str | None = None, *, recompute_now: bool = True
) -> Restored:
    """Import the archive ``source`` (a path or a binary file) as a new
    list, under its own address or ``as_slug``; raises ArchiveError naming
    the problem, with nothing written."""
    reader = Reader(source)
    reader.check(kind.file for kind in KINDS)
    first = next((row for _, row in reader.read(KINDS[0].file)), None)
    if first is None or reader.rows(KINDS[0].file) != 1:
        raise ArchiveError(f"{KINDS[0].file}: one list expected, {reader.rows(KINDS[0].file)} found")
    slug = as_slug if as_slug is not None else str(first.get("slug", ""))
    if slug in RESERVED_SLUGS:
        raise ArchiveError(f"{slug!r} is a word of the site's addresses, never a list's: choose another")
    if not slug or slugify(slug) != slug:
        raise ArchiveError(f"{slug!r} is not a list address (lower-case letters, digits and hyphens)")
    if RatingList.objects.filter(slug=slug).exists():
        raise ArchiveError(
            f"a list with the address {slug!r} exists already (to import the archive beside it, "
            "give another address)"
        )
    loader = _Loader(reader, slug)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            # Each block's foreign keys checked as its COPY ends, while the
            # next block is built (``ahead``), not all at the commit, alone.
            # Every reference is to a row of an earlier file.
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        for kind in KINDS:
            loader.load(kind)
        restored = Restored(loader.rating_list, loader.counts, loader.people.created)
        start = _first_event(restored.rating_list)
        if start is not None:
            recompute.mark_dirty(restored.rating_list, start)
    if recompute_now and start is not None:
        run = recompute.recompute_list(restored.rating_list.pk, full=True, trigger="import")
        # None: the commit's own recompute (tasks run in-process) did it already.
        restored.run = run or RecomputeRun.objects.filter(rating_list=restored.rating_list).first()
    return restored


def _first_event(rating_list: RatingList) -> Any:
    dates = [
        Game.objects.filter(rating_list=rating_list).order_by("date").values_list("date", flat=True).first(),
        RankAdjustment.objects.filter(rating_list=rating_list)
        .order_by("date")
        .values_list("date", flat=True)
        .first(),
    ]
    return min((d for d in dates if d is not None), default=None)


def _chunks(
    rows: Iterator[tuple[int, dict[str, Any]]], size: int
) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    while chunk := list(islice(rows, size)):
        yield chunk


def _set_when_added(f: Any) -> bool:
    """Whether the ORM sets ``f`` to the time a row is added (auto_now, auto_now_add)."""
    return bool(getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False))


def _default(f: Any, now: Any) -> Callable[[], Any]:
    """The database's value of ``f`` in a row that does not give it: the
    time of the import for a field the ORM sets when a row is added, else
    the field's default."""
    prepare = preparer(f)
    if _set_when_added(f):
        value = prepare(now)
        return lambda: value
    return lambda: prepare(f.get_default())


#: (line number, old id, the new row's values by attribute name)
Built = list[tuple[int, Any, dict[str, Any]]]
#: (line number, old id, new id)
Written = list[tuple[int, Any, int]]
#: (line number, old id, the row for the table, its id left None)
Made = list[tuple[int, Any, list[Any]]]


class _Loader:
    def __init__(self, reader: Reader, slug: str) -> None:
        self.reader = reader
        self.slug = slug
        self.maps = {file: IdMap() for file in FILE_OF.values()}
        self.people = People()
        self.counts: dict[str, int] = {}
        self.rating_list: RatingList
        #: Each file's plain fields: (name, attribute, checker, may be left out).
        self.plain: dict[str, list[tuple[str, str, Convert, bool]]] = {}
        #: Each file's references: (name, attribute, file referred to, its map's get).
        self.refs: dict[str, list[tuple[str, str, str, Callable[[int], int | None]]]] = {}
        self.given: set[str] = set()  # player addresses given by this import
        self.prepared: dict[str, list[tuple[str, Convert | None, Callable[[], Any]]]] = {}

    def lookup(self, file: str, old: Any) -> int | None:
        return self.maps[file].get(old) if isinstance(old, int) else None

    def load(self, kind: Kind) -> None:
        table = Table(kind.model) if tables.fits(kind.model) else None
        self.refs[kind.file] = [(name, f"{name}_id", to, self.maps[to].get) for name, to in kind.refs]
        self.plain[kind.file] = [  # the database's values at once when the rows go to the table
            (f.name, f.attname, checker(f, prepared=table is not None), f.has_default() or f.null)
            for f in kind.plain
        ]
        target = self.maps.get(kind.file)
        written = 0
        blocks: Iterator[Written]
        ready: Generator[Made, None, None] | None = None
        if table is None:
            blocks = (self.insert(kind, self.built(kind, chunk)) for chunk in self.chunks(kind, CHUNK))
        elif kind.model in (RatingList, Club, FormerSlug):  # building a row asks the database
            blocks = (self.write(kind, table, self.built(kind, chunk)) for chunk in self.chunks(kind, BLOCK))
        else:  # the next block made while the database writes this one
            self.columns(table)
            ready = ahead(self.made(kind, table, chunk) for chunk in self.chunks(kind, BLOCK))
            blocks = (self.send(kind, table, made) for made in ready)
        try:
            for new in blocks:
                if target is not None:
                    for number, old, pk in new:
                        try:
                            target.add(old, pk)
                        except ValueError as error:
                            raise ArchiveError(f"{kind.file} line {number}: id: {error}") from None
                written += len(new)
        finally:
            if ready is not None:
                ready.close()  # the thread stopped, whatever happened
        self.counts[kind.file] = written
        if kind.model is RatingList:
            self.rating_list = RatingList.objects.get(slug=self.slug)

    def build(self, kind: Kind, number: int, row: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(row.get("id"), int):
            raise ArchiveError(f"{kind.file} line {number}: id: not a whole number")
        values: dict[str, Any] = {}
        for name, attname, check, optional in self.plain[kind.file]:
            if name not in row:
                if optional:
                    continue
                raise ArchiveError(f"{kind.file} line {number}: {name}: missing")
            try:
                values[attname] = check(row[name])
            except ValidationError as error:
                raise ArchiveError(f"{kind.file} line {number}: {name}: {' '.join(error.messages)}") from None
        for name, attname, target, get in self.refs[kind.file]:
            old = row.get(name)
            if old is None:
                if not getattr(kind.model._meta.get_field(name), "null", False):
                    raise ArchiveError(f"{kind.file} line {number}: {name}: missing")
                values[attname] = None
                continue
            new = get(old) if isinstance(old, int) else None
            if new is None:
                raise ArchiveError(f"{kind.file} line {number}: {name}: {old!r} is not a row of {target}")
            values[attname] = new
        for name in kind.people:
            email = row.get(name)
            if email is not None and not isinstance(email, str):
                raise ArchiveError(f"{kind.file} line {number}: {name}: not an e-mail address")
            values[f"{name}_id"] = email  # the account's id: by ``accounts``, which may ask the database
        if kind.model is RatingList:
            values["slug"] = self.slug
            if RatingList.objects.filter(name=values["name"]).exists():
                values["name"] = f"{values['name']} ({self.slug})"[:100]
        elif kind.model is Club and Club.objects.filter(slug=values["slug"]).exists():
            values["slug"] = free_slug(Club, values["name"], "club")
        elif kind.model is LogEntry:
            values["changes"] = log_changes.remap(values.get("changes"), self.lookup)
        elif kind.model is RecomputeRun and values.get("status") == RecomputeRun.Status.RUNNING:
            values["status"] = RecomputeRun.Status.ABANDONED  # it runs nowhere here
        return values

    def adjust(self, kind: Kind, built: Built) -> Built:
        """Addresses taken on this site: a player's gets a number, a former
        one (a redirect) is left out."""
        if kind.model not in (Player, FormerSlug):
            return built
        wanted = [values.get("slug", "") for _, _, values in built]
        taken = set(Player.objects.filter(slug__in=wanted).values_list("slug", flat=True))
        taken |= set(FormerSlug.objects.filter(slug__in=wanted).values_list("slug", flat=True))
        if kind.model is FormerSlug:
            return [item for item in built if item[2].get("slug", "") not in taken]
        self.given.update(wanted)
        free = self.free_player_slugs([slug for slug in wanted if slug in taken])
        for _, _, values in built:
            values["slug"] = free.get(values.get("slug", ""), values.get("slug", ""))
        return built

    def free_player_slugs(self, slugs: list[str]) -> dict[str, str]:
        """A free address for each of ``slugs`` (each taken): the first of
        "-2", "-3"... that no player has and this import has not given, one
        query for each number tried."""
        free: dict[str, str] = {}
        n, pending = 2, slugs
        while pending:
            tries = {slug: f"{slug[:110]}-{n}" for slug in pending}
            used = set(Player.objects.filter(slug__in=list(tries.values())).values_list("slug", flat=True))
            pending = []
            for slug, attempt in tries.items():
                if attempt in used or attempt in self.given:
                    pending.append(slug)
                else:
                    free[slug] = attempt
                    self.given.add(attempt)
            n += 1
        return free

    def chunks(self, kind: Kind, size: int) -> Iterator[list[tuple[int, dict[str, Any]]]]:
        return _chunks(self.reader.read(kind.file), size)

    def built(self, kind: Kind, chunk: list[tuple[int, dict[str, Any]]]) -> Built:
        """The rows of ``chunk`` built; asks the database only for a list,
        a club or a taken address (``adjust``)."""
        return self.adjust(kind, [(n, row.get("id"), self.build(kind, n, row)) for n, row in chunk])

    def accounts(self, kind: Kind, built: Built) -> None:
        """The e-mail addresses of ``built`` made the accounts' ids."""
        for name in kind.people:
            attname = f"{name}_id"
            for _, _, values in built:
                values[attname] = self.people.account(values[attname])

    def write(self, kind: Kind, table: Table, built: Built) -> Written:
        """Write the rows ``built`` by ``table``; returns (line, old id, new
        id) of each row written."""
        return self.send(
            kind, table, [(number, old, self.row(table, values)) for number, old, values in built]
        )

    def made(self, kind: Kind, table: Table, chunk: list[tuple[int, dict[str, Any]]]) -> Made:
        """The rows of ``chunk`` built and made ``table``'s rows, without
        asking the database (``ahead`` runs this in its thread): the ids
        are drawn and the accounts found by ``send``."""
        return [
            (number, row.get("id"), self.row(table, self.build(kind, number, row))) for number, row in chunk
        ]

    def row(self, table: Table, values: dict[str, Any]) -> list[Any]:
        """The row of ``table`` (its id left None) for the fields' values:
        every column, the ORM's default for a field left out, the time of
        the import for a field the ORM sets when a row is added."""
        row: list[Any] = [None]
        for name, finish, default in self.columns(table):
            if name in values:
                row.append(finish(values[name]) if finish else values[name])
            else:
                row.append(default())
        return row

    def send(self, kind: Kind, table: Table, made: Made) -> Written:
        """Write the rows ``made`` by ``table``, with their new ids and
        their accounts (found or made here: the rows hold their e-mail
        addresses); returns (line, old id, new id) of each row written."""
        people = {f"{name}_id" for name in kind.people}
        for column, f in enumerate(table.fields, start=1):
            if f.attname in people:
                for _, _, row in made:
                    row[column] = self.people.account(row[column])
        ids = table.new_ids(len(made))
        new: Written = []

        def rows() -> Iterator[tuple[int, list[Any]]]:
            for pk, (number, old, row) in zip(ids, made, strict=True):
                row[0] = pk
                new.append((number, old, pk))
                yield number, row

        table.write(kind.file, rows())
        return new

    def columns(self, table: Table) -> list[tuple[str, Convert | None, Callable[[], Any]]]:
        """For each of ``table``'s fields: its attribute ("" for a field
        whose value is the time of the import), how its value is finished
        (a JSON field's, prepared after it is changed; None: ready), and its
        default (the database's value)."""
        if table.name not in self.prepared:
            now = timezone.now()
            self.prepared[table.name] = [
                (
                    "" if _set_when_added(f) else f.attname,
                    preparer(f) if isinstance(f, JSONField) else None,
                    _default(f, now),
                )
                for f in table.fields
            ]
        return self.prepared[table.name]

    def insert(self, kind: Kind, built: Built) -> Written:
        """Write the rows ``built`` by the model's ``bulk_create`` (its own
        rules for rows made in bulk kept); returns (line, old id, new id)
        of each row written."""
        self.accounts(kind, built)
        objs = [kind.model(**values) for _, _, values in built]
        try:
            with transaction.atomic():
                kind.model._default_manager.bulk_create(objs)
            return [(number, old, obj.pk) for (number, old, _), obj in zip(built, objs, strict=True)]
        except DatabaseError as error:
            refused = error
        fields = [f.attname for f in kind.model._meta.concrete_fields if not f.primary_key]
        for (number, _, _), obj in zip(built, objs, strict=True):  # again one by one, to name the line
            again = kind.model(**{name: getattr(obj, name) for name in fields})
            try:
                with transaction.atomic():
                    again.save(force_insert=True)
            except DatabaseError as error:
                raise ArchiveError(f"{kind.file} line {number}: refused by the database: {error}") from None
        lines = f"{built[0][0]}-{built[-1][0]}" if built else "?"
        raise ArchiveError(f"{kind.file} lines {lines}: refused by the database: {refused}")
