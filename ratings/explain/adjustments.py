"""What a committee adjustment did, and why, in plain words.

An adjustment sets a player's rank (and optionally the index or rating)
from a date on: a national rank sync (ratings/committee/rank_sync.py) or a rank set
by hand with the committee's reason.  Every system of the list takes it as
its own rule says (docs/rating-systems.md); the stored history holds each
system's rank and rating before and after it, which is all there is to
explain: no replay is needed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ratings import models as m
from ratings.engine import SYSTEM_LABELS
from ratings.engine.ranks import format_rank
from ratings.explain.steps import signed_text, value_text
from ratings.presentation.tables import rank_step, unit_of


@dataclass(frozen=True, slots=True)
class AdjustedRow:
    """One system's rank and rating before and after the adjustment."""

    system: str
    label: str
    unit: str
    rank_before: float
    rating_before: float
    rank_after: float
    rating_after: float

    @property
    def before(self) -> str:
        return f"{format_rank(self.rank_before)}, {self.unit} {value_text(self.rating_before)}"

    @property
    def after(self) -> str:
        return f"{format_rank(self.rank_after)}, {self.unit} {value_text(self.rating_after)}"

    @property
    def outcome(self) -> str:
        """'demoted 1 rank', 'promoted 2 ranks', or the change of rating."""
        if self.rank_after != self.rank_before:
            return rank_step(self.rank_before, self.rank_after)
        change = self.rating_after - self.rating_before
        if change == 0:
            return "unchanged"
        return f"same rank, {self.unit} {signed_text(change)}"


@dataclass(frozen=True)
class AdjustmentExplanation:
    adjustment: m.RankAdjustment
    #: A recompute is pending from on or before the adjustment's date.
    pending: bool
    #: The national rank sync that made it, if one did.
    sync_line: m.RankSyncLine | None
    #: What happened, in one sentence.
    what: str
    #: Why, in one sentence.
    why: str
    #: Per system of the list, primary first (empty while pending).
    rows: list[AdjustedRow] = field(default_factory=list)


def explain_adjustment(adjustment: m.RankAdjustment) -> AdjustmentExplanation:
    """``adjustment`` (with its list and player loaded) in plain words."""
    rating_list = adjustment.rating_list
    line = m.RankSyncLine.objects.filter(adjustment=adjustment).select_related("sync").order_by("-pk").first()
    stored = {
        row.system: row
        for row in m.HistoryEntry.objects.filter(adjustment=adjustment, player=adjustment.player_id).only(
            "system", "rank_before", "rating_before", "rank_after", "rating_after"
        )
    }
    names = rating_list.systems
    pending = (rating_list.dirty_from is not None and rating_list.dirty_from <= adjustment.date) or any(
        name not in stored for name in names
    )
    rows = (
        []
        if pending
        else [
            AdjustedRow(
                name,
                SYSTEM_LABELS.get(name, name),
                unit_of(name),
                stored[name].rank_before,
                stored[name].rating_before,
                stored[name].rank_after,
                stored[name].rating_after,
            )
            for name in names
        ]
    )
    return AdjustmentExplanation(
        adjustment, pending, line, _what(adjustment, rows[0] if rows else None), _why(adjustment, line), rows
    )


def _what(adjustment: m.RankAdjustment, primary: AdjustedRow | None) -> str:
    player, rank = adjustment.player.display_name, format_rank(adjustment.rank)
    day = adjustment.date.isoformat()
    if adjustment.rating is None:
        text = (
            f"From {day}, the committee set {player}'s rank to {rank}, without an index or rating: each system"
            " starts the player at that rank as it would start a new player of that rank (SAGC: index 0)."
        )
    else:
        text = f"From {day}, the committee set {player}'s rank to {rank} and the index or rating to {value_text(adjustment.rating)}."
    if primary is not None and primary.rank_after != primary.rank_before:
        text += (
            f" In {primary.label} that is {primary.outcome}: from {format_rank(primary.rank_before)}"
            f" to {format_rank(primary.rank_after)}."
        )
    return text


def _why(adjustment: m.RankAdjustment, line: m.RankSyncLine | None) -> str:
    if line is not None:
        sync = line.sync
        listed = (
            f"of {sync.as_of.isoformat()}"
            if sync.as_of
            else f"imported on {sync.created_at.date().isoformat()}"
        )
        national = line.national_rank_label or "another rank"
        return (
            f"A rank sync with the national list {listed} ({sync.get_format_display()}"
            f"{', ' + sync.filename if sync.filename else ''}): it gives {adjustment.player.display_name}"
            f" {national} where this list had {line.list_rank_label}."
        )
    if adjustment.reason:
        return f"The committee's reason: {adjustment.reason}."
    return "The committee set the rank by hand and gave no reason."
