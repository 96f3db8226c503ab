"""Which rows go in which file of the archive, and how each field is
written: every concrete field of the model, read from the model itself (a
field added later is archived without a change here), except

- the row's own id (``id``), kept so other rows can refer to it;
- a foreign key to another archived model: the old id, mapped to the new
  row's id on import;
- a foreign key to an account: the account's e-mail address, never its
  password or any token;
- what is derived or secret (``SKIPPED``): identity keys, the API token's
  hash, the recompute's bookkeeping.

The files are listed in the order an import writes them (a row refers only
to rows of files before it, or of its own file).  What a list holds but the
archive leaves out is named in ``LEFT_OUT`` with the reason; a test holds
every model of the project to one of the two.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models

from accounts.models import CommitteeMember, Invitation, LinkRequest, Volunteer
from ratings.models import (
    ChangeNotice,
    Club,
    DifferentPeople,
    EventEntry,
    FormerSlug,
    Game,
    HistoryEntry,
    ImportPreview,
    ListEvaluation,
    LogEntry,
    Player,
    RankAdjustment,
    RankSync,
    RankSyncLine,
    RatingCheckpoint,
    RatingList,
    RecomputeRun,
    RecordSheet,
    ResultChange,
)

#: Fields never written: derived again on import, or secret.
SKIPPED = {
    RatingList: {"api_token_hash", "dirty_from", "dirty_generation", "clean_generation"},
    Player: {"name_key", "search_key"},
}


@dataclass(frozen=True)
class Kind:
    """One file of the archive: the rows of ``model`` that belong to the
    list (``scope`` is the lookup from the model to the list)."""

    file: str
    model: type[models.Model]
    scope: str
    #: Plain fields: their attribute names.
    plain: tuple[models.Field[Any, Any], ...] = field(default=())
    #: Foreign keys to archived rows: (field name, file of the target).
    refs: tuple[tuple[str, str], ...] = field(default=())
    #: Foreign keys to accounts, written as e-mail addresses.
    people: tuple[str, ...] = field(default=())


def _kind(file: str, model: type[models.Model], scope: str) -> Kind:
    user = get_user_model()
    plain: list[models.Field[Any, Any]] = []
    refs: list[tuple[str, str]] = []
    people: list[str] = []
    for f in model._meta.concrete_fields:
        if f.primary_key or f.name in SKIPPED.get(model, ()):
            continue
        if f.is_relation:
            if f.related_model is user:
                people.append(f.name)
            else:
                refs.append((f.name, FILE_OF[f.related_model]))
        else:
            plain.append(f)
    return Kind(file, model, scope, tuple(plain), tuple(refs), tuple(people))


FILE_OF: dict[Any, str] = {
    RatingList: "list.jsonl",
    Club: "clubs.jsonl",
    Player: "players.jsonl",
    RecordSheet: "sheets.jsonl",
    Game: "games.jsonl",
    RankAdjustment: "adjustments.jsonl",
    RankSync: "rank_syncs.jsonl",
    RankSyncLine: "rank_sync_lines.jsonl",
    LogEntry: "log.jsonl",
    RecomputeRun: "recompute_runs.jsonl",
}

LOG_PLAYERS = LogEntry.players.through
RUN_CAUSES = RecomputeRun.causes.through

KINDS: tuple[Kind, ...] = (
    _kind("list.jsonl", RatingList, "pk"),
    _kind("clubs.jsonl", Club, "rating_list"),
    _kind("players.jsonl", Player, "rating_list"),
    _kind("former_slugs.jsonl", FormerSlug, "player__rating_list"),
    _kind("different_people.jsonl", DifferentPeople, "rating_list"),
    _kind("sheets.jsonl", RecordSheet, "club__rating_list"),
    _kind("games.jsonl", Game, "rating_list"),
    _kind("event_entries.jsonl", EventEntry, "sheet__club__rating_list"),
    _kind("adjustments.jsonl", RankAdjustment, "rating_list"),
    _kind("rank_syncs.jsonl", RankSync, "rating_list"),
    _kind("rank_sync_lines.jsonl", RankSyncLine, "sync__rating_list"),
    _kind("log.jsonl", LogEntry, "rating_list"),
    _kind("log_players.jsonl", LOG_PLAYERS, "logentry__rating_list"),
    _kind("recompute_runs.jsonl", RecomputeRun, "rating_list"),
    _kind("recompute_run_causes.jsonl", RUN_CAUSES, "recomputerun__rating_list"),
    _kind("ripple.jsonl", ResultChange, "rating_list"),
    _kind("committee.jsonl", CommitteeMember, "rating_list"),
    _kind("volunteers.jsonl", Volunteer, "club__rating_list"),
)

#: What a list holds that the archive leaves out, and why.
LEFT_OUT: dict[Any, str] = {
    HistoryEntry: "the history: the import's recompute writes it again from the games",
    RatingCheckpoint: "the recompute's checkpoints: written again by the import's recompute",
    ListEvaluation: "the predictions' figures: computed again after the import's recompute",
    ImportPreview: "a tournament file waiting for Save: work in progress, a day at most",
    Invitation: "an invitation carries a secret token: the committee invites again",
    LinkRequest: "a user's request to be a player: tied to an account of the old site",
    ChangeNotice: "a player's wish for e-mails about late changes: tied to the account and to the old "
    "site's recompute runs; the player asks again",
}
