"""Importing a list's archive: all of it or nothing.

First every file's rows and checksum are checked against the manifest
(nothing is read from a file that fails); then, in one transaction, each
file in turn is read as a stream and written in chunks: every field
converted and validated by its model field (the field's name and the
line are named when one is wrong), every reference mapped to the new row
(a reference to a row the archive does not hold is refused), the
database's own rules (unique names, ranges) checked by inserting the chunk
under a savepoint; a chunk the database refuses is inserted again row by
row to name the line at fault.  Any problem rolls the whole import back.
After the commit the list is recomputed from its first game, so its
history is this site's own.

The list keeps its address unless imported ``as`` another one; an address
already taken is refused (so the same archive imported twice creates
nothing the second time).  A club or player address taken on this site by
another list gets a number ("-2"); a former address (a redirect) already
taken is left out.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.db import DatabaseError, models, transaction
from django.utils.text import slugify

from ratings import recompute
from ratings.archive import log_changes
from ratings.archive.ids import IdMap
from ratings.archive.kinds import FILE_OF, KINDS, Kind
from ratings.archive.manifest import ArchiveError, Reader
from ratings.archive.people import People
from ratings.models import Club, FormerSlug, Game, LogEntry, Player, RankAdjustment, RatingList, RecomputeRun
from ratings.places import RESERVED_SLUGS, free_slug

CHUNK = 1000


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


def _chunks(rows: Iterator[tuple[int, dict[str, Any]]]) -> Iterator[list[tuple[int, dict[str, Any]]]]:
    while chunk := list(islice(rows, CHUNK)):
        yield chunk


class _Loader:
    def __init__(self, reader: Reader, slug: str) -> None:
        self.reader = reader
        self.slug = slug
        self.maps = {file: IdMap() for file in FILE_OF.values()}
        self.people = People()
        self.counts: dict[str, int] = {}
        self.rating_list: RatingList

    def lookup(self, file: str, old: Any) -> int | None:
        return self.maps[file].get(old) if isinstance(old, int) else None

    def load(self, kind: Kind) -> None:
        written = 0
        for chunk in _chunks(self.reader.read(kind.file)):
            built = [
                (number, row["id"] if isinstance(row, dict) else None, self.build(kind, number, row))
                for number, row in chunk
            ]
            built = self.adjust(kind, built)
            self.insert(kind, built)
            target = self.maps.get(kind.file)
            for number, old, obj in built:
                if target is not None:
                    try:
                        target.add(old, obj.pk)
                    except ValueError as error:
                        raise ArchiveError(f"{kind.file} line {number}: id: {error}") from None
            written += len(built)
        self.counts[kind.file] = written
        if kind.model is RatingList:
            self.rating_list = RatingList.objects.get(slug=self.slug)

    def build(self, kind: Kind, number: int, row: dict[str, Any]) -> models.Model:
        where = f"{kind.file} line {number}"
        if not isinstance(row.get("id"), int):
            raise ArchiveError(f"{where}: id: not a whole number")
        values: dict[str, Any] = {}
        for f in kind.plain:
            if f.name not in row:
                if f.has_default() or f.null:
                    continue
                raise ArchiveError(f"{where}: {f.name}: missing")
            try:
                values[f.attname] = f.clean(row[f.name], None)
            except ValidationError as error:
                raise ArchiveError(f"{where}: {f.name}: {' '.join(error.messages)}") from None
        for name, target in kind.refs:
            old = row.get(name)
            if old is None:
                if not getattr(kind.model._meta.get_field(name), "null", False):
                    raise ArchiveError(f"{where}: {name}: missing")
                values[f"{name}_id"] = None
                continue
            new = self.lookup(target, old)
            if new is None:
                raise ArchiveError(f"{where}: {name}: {old!r} is not a row of {target}")
            values[f"{name}_id"] = new
        for name in kind.people:
            email = row.get(name)
            if email is not None and not isinstance(email, str):
                raise ArchiveError(f"{where}: {name}: not an e-mail address")
            values[f"{name}_id"] = self.people.account(email)
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
        return kind.model(**values)

    def adjust(self, kind: Kind, built: list[tuple[int, Any, Any]]) -> list[tuple[int, Any, Any]]:
        """Addresses taken on this site: a player's gets a number, a former
        one (a redirect) is left out."""
        if kind.model not in (Player, FormerSlug):
            return built
        wanted = [obj.slug for _, _, obj in built]
        taken = set(Player.objects.filter(slug__in=wanted).values_list("slug", flat=True))
        taken |= set(FormerSlug.objects.filter(slug__in=wanted).values_list("slug", flat=True))
        if kind.model is FormerSlug:
            return [item for item in built if item[2].slug not in taken]
        for _, _, obj in built:
            if obj.slug in taken:
                obj.slug = self.free_player_slug(obj.slug)
        return built

    def free_player_slug(self, slug: str) -> str:
        n = 2
        while Player.objects.filter(slug=f"{slug[:110]}-{n}").exists():
            n += 1
        return f"{slug[:110]}-{n}"

    def insert(self, kind: Kind, built: list[tuple[int, Any, Any]]) -> None:
        objs = [obj for _, _, obj in built]
        try:
            with transaction.atomic():
                kind.model._default_manager.bulk_create(objs)
            return
        except DatabaseError as error:
            refused = error
        fields = [f.attname for f in kind.model._meta.concrete_fields if not f.primary_key]
        for number, _, obj in built:  # again one by one, to name the line
            again = kind.model(**{name: getattr(obj, name) for name in fields})
            try:
                with transaction.atomic():
                    again.save(force_insert=True)
            except DatabaseError as error:
                raise ArchiveError(f"{kind.file} line {number}: refused by the database: {error}") from None
        lines = f"{built[0][0]}-{built[-1][0]}" if built else "?"
        raise ArchiveError(f"{kind.file} lines {lines}: refused by the database: {refused}")
