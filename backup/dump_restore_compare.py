"""Prove that a PostgreSQL backup of the site restores: dump the database
with ``pg_dump``, drop it, create it again, restore the dump with
``pg_restore``, and compare every table (its rows and a checksum of their
contents) and every sequence with what they were before.

    python backup/dump_restore_compare.py --database-url postgres://USER@HOST:5432/NAME --drop

It drops the database it is given (``--drop`` says you mean it): run it on a
copy, or on a test site (CI runs it on a scratch database,
tests/site/test_backup_restore.py; docs/administration.md, "Backups").
Prints each table that differs and exits 1, or prints "identical" and
exits 0.  Needs ``pg_dump`` and ``pg_restore`` of the server's major version.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

#: table or sequence name -> (rows, checksum) or (last value, 0).
Digest = dict[str, tuple[int, str]]


def digest(url: str) -> Digest:
    """Every table's number of rows and an MD5 of its rows (order-free), and
    every sequence's last value."""
    found: Digest = {}
    with psycopg.connect(url, autocommit=True) as connection:
        tables = connection.execute(
            "SELECT table_name FROM information_schema.tables "
            "WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name"
        ).fetchall()
        for (table,) in tables:
            query = sql.SQL(
                "SELECT count(*), coalesce(md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))), '') "
                "FROM {} AS t"
            ).format(sql.Identifier(table))
            row = connection.execute(query).fetchone()
            assert row is not None
            found[table] = (int(row[0]), str(row[1]))
        sequences = connection.execute(
            "SELECT sequencename, coalesce(last_value, 0) FROM pg_sequences WHERE schemaname = 'public'"
        ).fetchall()
        for name, value in sequences:
            found[f"sequence {name}"] = (int(value), "")
    return found


def compare(before: Digest, after: Digest) -> list[str]:
    """What differs, a line a table or sequence; empty when identical."""
    problems = []
    for name in sorted(set(before) | set(after)):
        if name not in after:
            problems.append(f"{name}: missing after the restore")
        elif name not in before:
            problems.append(f"{name}: not there before the restore")
        elif before[name] != after[name]:
            (rows, check), (rows2, check2) = before[name], after[name]
            what = "rows" if rows != rows2 else "contents"
            problems.append(f"{name}: {what} differ ({rows} {check[:8]} before, {rows2} {check2[:8]} after)")
    return problems


def _maintenance(url: str) -> tuple[str, str]:
    """The URL of the server's ``postgres`` database, and the name of ``url``'s."""
    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name:
        raise SystemExit(f"{url}: no database name")
    return urlunsplit(parts._replace(path="/postgres")), name


def _run(*argv: str) -> None:
    done = subprocess.run(argv, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {done.stderr.strip()}")


def dump_drop_restore(url: str, dump: Path) -> None:
    _run("pg_dump", "--format=custom", f"--file={dump}", f"--dbname={url}")
    server, name = _maintenance(url)
    with psycopg.connect(server, autocommit=True) as connection:
        connection.execute(sql.SQL("DROP DATABASE {} WITH (FORCE)").format(sql.Identifier(name)))
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    _run("pg_restore", "--no-owner", "--exit-on-error", f"--dbname={url}", str(dump))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL", ""))
    parser.add_argument("--dump", type=Path, help="keep the dump here (default: a temporary file)")
    parser.add_argument("--drop", action="store_true", help="yes: drop the database and restore it")
    options = parser.parse_args(argv)
    if not options.database_url.startswith(("postgres://", "postgresql://")):
        parser.error("--database-url (or DATABASE_URL) must name a PostgreSQL database")
    if not options.drop:
        parser.error("this drops the database before restoring it: say --drop")
    before = digest(options.database_url)
    with tempfile.TemporaryDirectory() as folder:
        dump = options.dump or Path(folder) / "site.dump"
        dump_drop_restore(options.database_url, dump)
        print(f"dumped ({dump.stat().st_size} bytes), dropped, restored")
    problems = compare(before, digest(options.database_url))
    for line in problems:
        print(line)
    tables = sum(1 for name in before if not name.startswith("sequence "))
    print("different" if problems else f"identical: {tables} tables, {len(before) - tables} sequences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
