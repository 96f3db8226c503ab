"""The ids inside log entries: a merge's record (what moved, so it can be
undone) and a deleted sheet's snapshot (so it can be restored) name rows by
id; on import they are mapped to the new rows' ids.  What has no new id
(the merged-away player, a deleted sheet, an account, a link request)
becomes None or is left out: undoing the merge gives the player back under
a new id; restoring the sheet makes a new one, as it does anyway."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ratings.services.player_changes import MERGED
from ratings.services.sheet_changes import DELETED_SHEET, RESTORED_AS

#: The file's map: old id -> new id, or None.
Lookup = Callable[[str, Any], int | None]


def _all(lookup: Lookup, file: str, ids: Iterable[Any]) -> list[int]:
    return [new for new in (lookup(file, old) for old in ids) if new is not None]


def remap(changes: Any, lookup: Lookup) -> Any:
    """``changes`` (a log entry's JSON) with the ids it holds mapped."""
    if not isinstance(changes, dict):
        return changes
    changes = dict(changes)
    merged = changes.get(MERGED)
    if isinstance(merged, dict):
        record = dict(merged.get("record") or {})
        record["home_club_id"] = lookup("clubs.jsonl", record.get("home_club_id"))
        record["user_id"] = None
        changes[MERGED] = {
            **merged,
            "duplicate": None,
            "kept": lookup("players.jsonl", merged.get("kept")),
            "record": record,
            "white": _all(lookup, "games.jsonl", merged.get("white", [])),
            "black": _all(lookup, "games.jsonl", merged.get("black", [])),
            "adjustments": _all(lookup, "adjustments.jsonl", merged.get("adjustments", [])),
            "log_entries": _all(lookup, "log.jsonl", merged.get("log_entries", [])),
            "sync_lines": _all(lookup, "rank_sync_lines.jsonl", merged.get("sync_lines", [])),
            "link_requests": [],
        }
    sheet = changes.get(DELETED_SHEET)
    if isinstance(sheet, dict):
        changes[DELETED_SHEET] = {
            **sheet,
            "sheet": None,
            "club": lookup("clubs.jsonl", sheet.get("club")),
            "entered_by": None,
            "games": [
                {
                    **game,
                    "white": lookup("players.jsonl", game.get("white")),
                    "black": lookup("players.jsonl", game.get("black")),
                }
                for game in sheet.get("games", [])
                if isinstance(game, dict)
            ],
        }
    if RESTORED_AS in changes:
        changes[RESTORED_AS] = lookup("sheets.jsonl", changes[RESTORED_AS])
    return changes
