"""Forms of the committee's pages: rank sync upload and apply, exports, tournament imports, national codes.

Each form turns raw input into domain values (a list or club, the uploaded bytes, a
format name, dates, the committee's :class:`~ratings.committee.Choice` list)
and puts every problem next to the field it concerns, in words a committee
member can act on.  Reading the files is ratings.exchange's job; the views
put its ExchangeError (which names the line) on the file field.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone

from ratings import exchange, services
from ratings.committee import APPLICABLE, Choice, EntrySelection, proposes_change, rank_label
from ratings.committee.season_import import MAX_SEASON_BYTES, MAX_SEASON_FILES
from ratings.forms.fields import field_of
from ratings.forms.sheets import DATE_INPUT
from ratings.models import Club, RankSync, RankSyncLine, RatingList

#: Bigger than any real list (the AGA TD list is 1.4 MB, the FFG ladder 0.8 MB,
#: the EGD's whole list 4.2 MB); settings.MAX_UPLOAD_BYTES.
MAX_UPLOAD = settings.MAX_UPLOAD_BYTES

RANK_FORMAT_CHOICES = [("", "Detect from the file"), *RankSync.FORMAT_CHOICES]
GAME_FORMAT_LABELS = {
    "csv": "CSV game records",
    "json": "JSON game records",
    "h9": "EGD results (.h9, class C club ladder)",
    "tou": "FFG tournament (.tou)",
    "aga": "AGA results",
}
EXPORT_FORMAT_CHOICES = [(name, GAME_FORMAT_LABELS[name]) for name in exchange.GAME_FORMATS]
IMPORT_FORMAT_CHOICES = [("", "Detect from the file"), *EXPORT_FORMAT_CHOICES]


def _not_future(value: date | None) -> date | None:
    if value is not None and value > timezone.localdate():
        raise forms.ValidationError(f"{value:%Y-%m-%d} is in the future")
    return value


def _choose_among(form: forms.Form, name: str, choices: QuerySet[Any]) -> None:
    """Limit a place field to the places the user holds a role at (a choice
    outside them is refused like any invalid choice: nothing changes)."""
    field = field_of(form, name, forms.ModelChoiceField)
    field.queryset = choices
    first = choices.first()
    if first is not None:
        field.initial = first.pk


def _read_upload(upload: Any) -> bytes:
    """The bytes of one uploaded file, refused when over the per-file limit
    (settings.MAX_UPLOAD_BYTES) or empty, the file named in the error."""
    if upload.size > MAX_UPLOAD:
        raise forms.ValidationError(
            f"{upload.name} is {upload.size // (1024 * 1024)} MB; the limit is {MAX_UPLOAD // (1024 * 1024)} MB"
        )
    data: bytes = upload.read()
    if not data:
        raise forms.ValidationError(f"{upload.name} is empty")
    return data


class _UploadForm(forms.Form):
    """A file; ``clean_file`` gives its bytes."""

    file = forms.FileField(error_messages={"required": "choose the file to upload"})

    def clean_file(self) -> bytes:
        upload = self.cleaned_data["file"]
        self.filename = str(upload.name)
        return _read_upload(upload)

    def preview_options(self) -> dict[str, Any]:
        """What the preview takes besides the place, the file and its format."""
        return {}


def _codes_of(rating_list: RatingList) -> str:
    """'South African Go Clubs: country ZA, clubs Cape, Joha' ('' when none is known)."""
    clubs = sorted(club.egd_code for club in rating_list.clubs.all() if club.egd_code)
    parts = ([f"country {rating_list.country}"] if rating_list.country else []) + (
        [f"clubs {', '.join(clubs)}"] if clubs else []
    )
    return f"{rating_list.name}: {', '.join(parts)}" if parts else ""


class RankUploadForm(_UploadForm):
    """A national rank list for one rating list."""

    rating_list = forms.ModelChoiceField(queryset=RatingList.objects.none(), empty_label=None, label="List")
    field_order = ["rating_list", "file", "format"]

    def __init__(self, *args: Any, rating_lists: QuerySet[RatingList], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choose_among(self, "rating_list", rating_lists)
        # The codes to type, as the lists' settings know them (List settings,
        # national codes): "South African Go Clubs: country ZA, clubs Cape, Joha".
        known = [_codes_of(rating_list) for rating_list in rating_lists.prefetch_related("clubs")]
        if any(known):
            hint = "; ".join(code for code in known if code)
            self.fields["country"].help_text = f"{self.fields['country'].help_text} Known codes: {hint}."

    format = forms.ChoiceField(
        choices=RANK_FORMAT_CHOICES,
        required=False,
        help_text="FFG ladder (ech_ffg_V3.txt), AGA TD list (tdlista.txt), EGD allworld list, "
        "or a CSV with name, national id (SAGA id) and rank columns.",
    )
    country = forms.RegexField(
        regex=r"^\s*[A-Za-z]{2}\s*$",
        required=False,
        max_length=8,
        label="Country",
        help_text="Match names only among the players of this country, as the list writes it "
        "(ZA for South Africa in the EGD list). Blank: every player of the list.",
        error_messages={"invalid": "a country is two letters, as the list writes it (ZA, FR)"},
    )
    clubs = forms.CharField(
        required=False,
        max_length=200,
        label="Clubs",
        help_text="Only these clubs, codes as the list writes them, separated by commas (Cape, Joh). "
        "A player's stored national id is found wherever they are.",
    )

    def preview_options(self) -> dict[str, Any]:
        return {"selection": EntrySelection(self.cleaned_data["country"], self.cleaned_data["clubs"])}


class _MultipleFileInput(forms.FileInput):
    allow_multiple_selected = True


class _MultipleFileField(forms.FileField):
    """Several files in one field: each checked as a FileField checks one."""

    def clean(self, data: Any, initial: Any = None) -> list[Any]:
        files = list(data) if isinstance(data, (list, tuple)) else [data]
        single = super().clean
        if not files:
            files = [None]  # refused as a missing file is
        return [single(item, initial) for item in files]


class TournamentImportForm(forms.Form):
    """Tournament files played at one club, or a .zip of them (a season);
    their players are matched to the players of the club's whole list.

    ``cleaned_data["file"]`` is the list of (name, bytes) uploaded; the
    season's limits (ratings/committee/season_import.py) are checked by the
    import, the total size here."""

    file = _MultipleFileField(
        label="Files",
        widget=_MultipleFileInput(),
        error_messages={"required": "choose the file to upload, or several"},
        help_text=f"One tournament file, several, or a .zip of them: at most {MAX_SEASON_FILES} files "
        f"and {MAX_SEASON_BYTES // (1024 * 1024)} MB in all.",
    )
    club = forms.ModelChoiceField(
        queryset=Club.objects.none(),
        empty_label=None,
        help_text="Where it was played (its list's players are matched)",
    )
    field_order = ["club", "file", "format"]

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choose_among(self, "club", clubs)

    format = forms.ChoiceField(
        choices=IMPORT_FORMAT_CHOICES, required=False, help_text="Of every file, when you force it"
    )

    def clean_file(self) -> list[tuple[str, bytes]]:
        uploads = self.cleaned_data["file"]
        total = sum(upload.size or 0 for upload in uploads)
        if total > MAX_SEASON_BYTES:
            raise forms.ValidationError(
                f"the files come to {total / (1024 * 1024):.1f} MB; the limit is "
                f"{MAX_SEASON_BYTES // (1024 * 1024)} MB in all"
            )
        files = [(str(upload.name), _read_upload(upload)) for upload in uploads]
        self.filename = files[0][0] if len(files) == 1 else f"{len(files)} files"
        return files

    def preview_options(self) -> dict[str, Any]:
        return {}


class ExportForm(forms.Form):
    """A list's games of a period (or only those played at one of its clubs)."""

    rating_list = forms.ModelChoiceField(queryset=RatingList.objects.none(), empty_label=None, label="List")
    club = forms.ModelChoiceField(
        queryset=Club.objects.none(),
        required=False,
        empty_label="All clubs",
        help_text="Only the games played here",
    )
    start = forms.DateField(
        label="From", required=False, widget=DATE_INPUT, help_text="Blank: the first game"
    )
    end = forms.DateField(label="To", required=False, widget=DATE_INPUT, help_text="Blank: today")
    format = forms.ChoiceField(choices=EXPORT_FORMAT_CHOICES, initial="csv")
    event_class = forms.ChoiceField(
        label="EGD class",
        choices=[(name, f"{name}: {words}") for name, words in exchange.EGD_CLASSES.items()],
        initial="C",
        required=False,
        help_text="For the EGD results file: the EGD rates games played online only as class D.",
    )

    def __init__(self, *args: Any, rating_lists: QuerySet[RatingList], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _choose_among(self, "rating_list", rating_lists)
        field_of(self, "club", forms.ModelChoiceField).queryset = Club.objects.filter(
            rating_list__in=rating_lists
        )

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        club, rating_list = cleaned.get("club"), cleaned.get("rating_list")
        if club is not None and rating_list is not None and club.rating_list_id != rating_list.pk:
            self.add_error("club", f"{club} is a club of {club.rating_list}, not of {rating_list}")
        start, end = cleaned.get("start"), cleaned.get("end")
        if start and end and start > end:
            self.add_error("end", f"the period ends ({end:%Y-%m-%d}) before it starts ({start:%Y-%m-%d})")
        cleaned["event_class"] = cleaned.get("event_class") or "C"
        return cleaned


def _labelled(widget: type[forms.CheckboxInput], line: RankSyncLine) -> forms.CheckboxInput:
    """A line's checkbox, named for screen readers (the table shows no label)."""
    return widget(attrs={"aria-label": f"Apply {line.player}"})


class ApplySyncForm(forms.Form):
    """One checkbox per applicable line (and a candidate choice for an
    ambiguous one) plus the date the new ranks take effect.

    ``cleaned_data["choices"]`` is the list of :class:`Choice` to apply.
    """

    effective = forms.DateField(
        label="Take effect on", widget=DATE_INPUT, help_text="The adjustments are dated this day."
    )

    def __init__(self, *args: Any, sync: RankSync, lines: list[RankSyncLine], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sync = sync
        self.lines = lines
        self.fields["effective"].initial = sync.as_of or timezone.localdate()
        for line in lines:
            if line.match == "ambiguous":
                self.fields[f"apply_{line.pk}"] = forms.BooleanField(
                    required=False, label=f"Apply {line.player}", widget=_labelled(forms.CheckboxInput, line)
                )
                self.fields[f"pick_{line.pk}"] = forms.TypedChoiceField(
                    required=False,
                    coerce=int,
                    label=f"Which entry is {line.player}?",
                    widget=forms.Select(attrs={"aria-label": f"Which entry is {line.player}?"}),
                    choices=[("", "— choose —")]
                    + [
                        (
                            c["line"],
                            f"{c['name']} ({rank_label(c['rank'])}, id {c['national_id'] or 'none'}, line {c['line']})",
                        )
                        for c in line.candidates
                    ],
                )
            elif line.match in APPLICABLE:
                self.fields[f"apply_{line.pk}"] = forms.BooleanField(
                    required=False,
                    label=f"Apply {line.player}",
                    widget=_labelled(forms.CheckboxInput, line),
                    initial=line.match in ("id", "name") and proposes_change(line),
                )

    def rows(self) -> list[tuple[RankSyncLine, forms.BoundField | None, forms.BoundField | None]]:
        """(line, its checkbox, its candidate choice) for the template."""
        return [
            (
                line,
                self[f"apply_{line.pk}"] if f"apply_{line.pk}" in self.fields else None,
                self[f"pick_{line.pk}"] if f"pick_{line.pk}" in self.fields else None,
            )
            for line in self.lines
        ]

    def clean_effective(self) -> date | None:
        return _not_future(self.cleaned_data["effective"])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        choices = []
        for line in self.lines:
            if not cleaned.get(f"apply_{line.pk}"):
                continue
            pick = cleaned.get(f"pick_{line.pk}") if line.match == "ambiguous" else None
            if line.match == "ambiguous" and pick in (None, ""):
                self.add_error(
                    f"pick_{line.pk}", f"choose which entry of the list is {line.player}, or untick the line"
                )
                continue
            choices.append(Choice(line.pk, pick))
        if not choices and not self.errors:
            raise forms.ValidationError("tick at least one player to apply")
        cleaned["choices"] = choices
        return cleaned


class NationalCodesForm(forms.Form):
    """The list's country, each club's EGD code, and the country and
    national ids of the players shown (a page of them): ``country``,
    ``club_<id>``, ``p<id>_<field>``.  The service checks the codes
    (services.set_national_codes); its problems come back next to their field."""

    country = forms.CharField(
        max_length=2,
        required=False,
        label="Country of the list",
        help_text="ISO 3166 code in capitals (ZA, GB, FR): written for every player without their own.",
    )

    def __init__(
        self, *args: Any, rating_list: RatingList, clubs: list[Club], players: list[Any], **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].initial = rating_list.country
        self.clubs, self.players = clubs, players
        for club in clubs:
            self.fields[f"club_{club.pk}"] = forms.CharField(
                max_length=4, required=False, label=club.name, initial=club.egd_code
            )
        labels = {"country": "Country", **services.ID_LABELS}
        for player in players:
            for name in services.PLAYER_CODES:
                self.fields[f"p{player.pk}_{name}"] = forms.CharField(
                    max_length=10, required=False, label=labels[name], initial=getattr(player, name)
                )

    def club_fields(self) -> list[forms.BoundField]:
        return [self[f"club_{club.pk}"] for club in self.clubs]

    def player_rows(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [(p, [self[f"p{p.pk}_{name}"] for name in services.PLAYER_CODES]) for p in self.players]

    def club_codes(self) -> dict[int, str]:
        return {club.pk: self.cleaned_data[f"club_{club.pk}"].strip() for club in self.clubs}

    def player_codes(self) -> dict[int, dict[str, str]]:
        return {
            p.pk: {name: self.cleaned_data[f"p{p.pk}_{name}"].strip() for name in services.PLAYER_CODES}
            for p in self.players
        }

    def add_problems(self, problems: dict[tuple[str, int, str], str]) -> None:
        """The service's problems next to their fields."""
        for (kind, pk, name), message in problems.items():
            field = {"list": "country", "club": f"club_{pk}", "player": f"p{pk}_{name}"}[kind]
            self.add_error(field if field in self.fields else None, message)


class PastGamesForm(_UploadForm):
    """A list's past games from another system (docs/formats.md, "Past games")."""

    rating_list = forms.ModelChoiceField(queryset=RatingList.objects.none(), empty_label=None, label="List")
    field_order = ["rating_list", "file"]

    def __init__(self, *args: Any, rating_lists: QuerySet[RatingList], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["file"].label = "CSV of past games"
        self.fields[
            "file"
        ].help_text = (
            "date, white, white_rank, black, black_rank, handicap, komi, result, kind, club: a game a line"
        )
        _choose_among(self, "rating_list", rating_lists)
