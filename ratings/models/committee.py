"""The committee's work in progress and results: rank syncs and their lines,
the evaluation of which system predicts best, tournament import previews."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from ratings.engine.ranks import format_rank
from ratings.exchange import Rejected
from ratings.models.games import RankAdjustment
from ratings.models.lists import Club, RatingList
from ratings.models.players import Player


class RankSync(models.Model):
    """One import of a national rank list: the proposal, then what was applied.
    Listed for the committee with who, when, file and counts."""

    FORMAT_CHOICES = [
        ("ffg", "FFG ladder"),
        ("aga", "AGA TD list"),
        ("egd", "EGD rating list"),
        ("csv", "CSV"),
    ]

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="rank_syncs")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    filename = models.CharField(max_length=200, blank=True)
    format = models.CharField(max_length=3, choices=FORMAT_CHOICES)
    encoding = models.CharField(max_length=20, blank=True)
    #: The list's own date, when it gives one.
    as_of = models.DateField(null=True, blank=True)
    read = models.PositiveIntegerField(default=0)
    matched = models.PositiveIntegerField(default=0)
    ambiguous = models.PositiveIntegerField(default=0)
    unmatched = models.PositiveIntegerField(default=0)
    changes = models.PositiveIntegerField(default=0)
    #: The list's lines that did not read, not imported: each
    #: {"line", "reason", "text", "column"}, shown in the preview.
    rejected = models.JSONField(default=list, blank=True)
    #: The entries names were matched against (docs/committee.md): a country
    #: code and club codes as the list writes them; blank, every entry.
    country = models.CharField(max_length=8, blank=True)
    clubs = models.CharField(max_length=200, blank=True)
    #: How many entries the country and clubs kept (``read`` when none is given).
    selected = models.PositiveIntegerField(null=True, blank=True)
    applied = models.PositiveIntegerField(default=0)
    effective = models.DateField(null=True, blank=True)
    applied_at = models.DateTimeField(null=True, blank=True)
    applied_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    #: Not stored: the rejected lines as read, on a sync just previewed
    #: (committee.preview_rank_sync sets it).
    rejected_lines: tuple[Rejected, ...]

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_format_display()} list {self.filename} ({self.created_at:%Y-%m-%d})"

    def get_absolute_url(self) -> str:
        return reverse("rank_sync", args=[self.pk])


class RankSyncLine(models.Model):
    """One player of the list in a rank sync: how they matched and what is proposed."""

    MATCH_CHOICES = [
        ("id", "national id"),
        ("name", "name"),
        ("confirmed", "confirmed"),
        ("ambiguous", "ambiguous"),
        ("missing", "not in the list"),
    ]
    ID_OUTCOMES = [
        ("kept", "id kept"),
        ("stored", "id stored"),
        ("replaced", "id replaced"),
        ("none", "no id in the list"),
    ]

    sync = models.ForeignKey(RankSync, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    match = models.CharField(max_length=9, choices=MATCH_CHOICES)
    line = models.PositiveIntegerField(null=True, blank=True)
    national_name = models.CharField(max_length=200, blank=True)
    national_id = models.CharField(max_length=20, blank=True)
    national_rank = models.FloatField(null=True, blank=True)
    #: The player's rank and rating on this list when the sync was read.
    list_rank = models.FloatField()
    list_rating = models.FloatField()
    #: For an ambiguous match: the entries that carry the player's name,
    #: and why the committee must choose.
    candidates = models.JSONField(default=list, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    applied = models.BooleanField(default=False)
    #: Once applied: what became of the player's national id, and the id
    #: they had before (blank when none).
    id_outcome = models.CharField(max_length=8, choices=ID_OUTCOMES, blank=True)
    previous_id = models.CharField(max_length=20, blank=True)
    adjustment = models.ForeignKey(
        RankAdjustment, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    #: Not stored: does the line propose a rank change (committee.proposes_change)?
    #: Set by the rank sync page for its template.
    changes: bool

    class Meta:
        ordering = ["player__name", "player__suffix"]

    def __str__(self) -> str:
        return f"sync #{self.sync_id}: {self.player_id} ({self.match})"

    @property
    def list_rank_label(self) -> str:
        return format_rank(self.list_rank)

    @property
    def national_rank_label(self) -> str:
        return format_rank(self.national_rank) if self.national_rank is not None else ""


class ListEvaluation(models.Model):
    """Which system predicts the list's results best, computed after a
    recompute (ratings/predictions.py, docs/evaluation.md): the tables of
    ``ratings.evaluation.report.summary``, the calibration bins and the
    curves fitted on every game (what entry and the handicap advice use)."""

    rating_list = models.OneToOneField(RatingList, on_delete=models.CASCADE, related_name="evaluation")
    #: The list's clean generation the figures were computed from.
    generation = models.PositiveBigIntegerField(default=0)
    computed_at = models.DateTimeField(default=timezone.now)
    seconds = models.FloatField(default=0.0)
    games = models.PositiveIntegerField(default=0)
    systems = models.JSONField(default=list)
    #: {scope: {predictor: {games, decisive, log_loss, brier, accuracy}}}.
    tables = models.JSONField(default=dict)
    #: {predictor: [[low, high, games, predicted, observed], ...]}.
    calibration = models.JSONField(default=dict)
    #: {predictor: [intercept, slope]}.
    curves = models.JSONField(default=dict)

    def __str__(self) -> str:
        return f"{self.rating_list}: {self.games} games predicted"


class ImportPreviewQuerySet(models.QuerySet["ImportPreview"]):
    def expired(self) -> ImportPreviewQuerySet:
        return self.filter(created_at__lt=timezone.now() - ImportPreview.LIFETIME)


class ImportPreview(models.Model):
    """A tournament file uploaded in the browser, read and previewed, waiting
    for the committee's "Save" (ratings/committee/import_preview.py).

    The bytes are kept so that saving re-reads the very file that was
    previewed; ``report`` is what the preview showed (ImportReport.summary),
    compared with the import made at saving.  Deleted when saved, or once
    older than LIFETIME.
    """

    LIFETIME = timedelta(days=1)

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    filename = models.CharField(max_length=200, blank=True)
    #: The format the file was read as (detected, or as the uploader forced it).
    format = models.CharField(max_length=4)
    data = models.BinaryField()
    report = models.JSONField(default=dict)

    objects = ImportPreviewQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"preview of {self.filename or 'a tournament file'} for {self.club_id}"

    def get_absolute_url(self) -> str:
        return reverse("tournament_import_preview", args=[self.pk])

    @property
    def expired(self) -> bool:
        return self.created_at < timezone.now() - self.LIFETIME
