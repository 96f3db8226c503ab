"""Forms of record-sheet entry, game corrections, rank adjustments and list settings.

Forms turn what a volunteer typed into domain values (players, ranks on the
engine's scale, komi) and put every problem next to the field it concerns;
the domain rules themselves live in :mod:`ratings.services` and are checked
again there when saving.
"""

from __future__ import annotations

import datetime
from datetime import date
from decimal import Decimal
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.http import QueryDict
from django.urls import reverse_lazy
from django.utils import timezone

from ratings.engine import SYSTEM_LABELS, SYSTEM_NAMES
from ratings.engine.ranks import MAX_RANK, MIN_RANK, RankError, format_rank, parse_rank
from ratings.exchange.names import clean_name, identity_key
from ratings.forms.fields import LabelledChoiceField, field_of
from ratings.models import BOARD_CHOICES, Club, Game, Kind, Player, RatingList, Winner
from ratings.names import matching
from ratings.presentation.tables import unit_of
from ratings.services import GameRow, NewPlayer, PlayerRef, date_problem, default_komi, game_problems

DATE_INPUT = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
SYSTEM_CHOICES = [(name, SYSTEM_LABELS[name]) for name in SYSTEM_NAMES]


def read_rank(text: str, *, whole: bool = False) -> float:
    """'11k' -> -11.0 with a message a volunteer can act on, or ValidationError."""
    try:
        value = parse_rank(text)
    except RankError as error:
        raise forms.ValidationError(f"{error}") from None
    if not MIN_RANK <= value <= MAX_RANK:
        raise forms.ValidationError(
            f"{text.strip()} is off the scale: ranks go from {format_rank(MIN_RANK)} to {format_rank(MAX_RANK)}"
        )
    if whole and value != int(value):
        raise forms.ValidationError(f"give a whole rank such as '11k' or '2d', not {text.strip()!r}")
    return value


class SheetHeaderForm(forms.Form):
    """The top of a paper record sheet: the club it was entered at (one of
    those where the volunteer enters sheets), event, date and kind."""

    club = LabelledChoiceField(
        queryset=Club.objects.none(),
        empty_label=None,
        # A club of another list: the name autocomplete offers that list's players.
        widget=forms.Select(
            attrs={
                "hx-get": reverse_lazy("sheet_players"),
                "hx-trigger": "change",
                "hx-target": "#players-list",
            }
        ),
    )
    event = forms.CharField(max_length=200, required=False, help_text="e.g. Tuesday club night")
    date = forms.DateField(widget=DATE_INPUT)
    kind = forms.ChoiceField(
        choices=Kind.choices,
        initial=Kind.CLUB,
        label="Kind of games",
        help_text="Club games unless the paper sheet says otherwise.",
    )
    comments = forms.CharField(max_length=1000, required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, clubs: QuerySet[Club], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate
        club = field_of(self, "club", LabelledChoiceField)
        club.queryset = clubs
        club.label_of = lambda c: (
            f"{c.name} ({c.rating_list})" if len({x.rating_list_id for x in clubs}) > 1 else c.name
        )
        first = clubs.first()
        if first is not None and "club" not in self.initial:
            self.fields["club"].initial = first.pk

    def clean_date(self) -> datetime.date:
        value: date = self.cleaned_data["date"]
        if (problem := date_problem(value)) is not None:
            raise forms.ValidationError(problem)
        return value


def sheet_new_players(data: Any, prefixes: list[str]) -> dict[str, tuple[int, int]]:
    """The new players a sheet's rows introduce: identity key -> (rank, the
    position, from 1, of the first row that gives a valid starting rank).

    A later row that names the same new player needs no rank of its own: it
    is the same NewPlayer (ratings.services.save_sheet makes one player per
    name).  ``prefixes`` are the rows' form prefixes in page order."""
    found: dict[str, tuple[int, int]] = {}
    for position, prefix in enumerate(prefixes, start=1):
        for colour in ("white", "black"):
            name = str(data.get(f"{prefix}-{colour}", "")).strip()
            rank_text = str(data.get(f"{prefix}-{colour}_rank", "")).strip()
            if not name or not rank_text or identity_key(name) in found:
                continue
            try:
                found[identity_key(name)] = (int(read_rank(rank_text, whole=True)), position)
            except forms.ValidationError:
                continue
    return found


class GameRowForm(forms.Form):
    """One game row.  Players are typed by name (with autocomplete); a name
    the list does not know needs a starting rank, which adds the player,
    unless an earlier row of the sheet gave that new player's rank."""

    white = forms.CharField(max_length=100, required=False)
    white_rank = forms.CharField(max_length=8, required=False, label="White's starting rank")
    black = forms.CharField(max_length=100, required=False)
    black_rank = forms.CharField(max_length=8, required=False, label="Black's starting rank")
    #: "A different person": a new name alike an existing player's (did you mean) is meant.
    white_new = forms.BooleanField(required=False, label="White is a different person")
    black_new = forms.BooleanField(required=False, label="Black is a different person")
    handicap = forms.IntegerField(initial=0, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    komi = forms.DecimalField(
        max_digits=4,
        decimal_places=1,
        required=False,
        initial=Decimal("6.5"),
        help_text="Points to White; negative: to Black",
        widget=forms.NumberInput(attrs={"step": "0.5", "inputmode": "decimal"}),
    )
    winner = forms.ChoiceField(
        choices=Winner.choices,
        required=False,
        widget=forms.RadioSelect,
    )
    kind = forms.ChoiceField(choices=[("", "As sheet"), *Kind.choices], required=False, label="Kind")
    date = forms.DateField(required=False, widget=DATE_INPUT, help_text="Blank: the sheet's date")
    comments = forms.CharField(max_length=200, required=False)

    def __init__(
        self,
        *args: Any,
        club: Club | None = None,
        sheet_date: datetime.date | None = None,
        earlier_new: dict[str, tuple[int, int]] | None = None,
        position: int = 1,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.club = club
        self.sheet_date = sheet_date
        #: New players of the sheet (sheet_new_players) and this row's position.
        self.earlier_new = earlier_new or {}
        self.position = position
        self.players: dict[str, PlayerRef] = {}
        #: Which colours need a starting rank (an unknown name): the template shows those fields.
        self.new_player: dict[str, bool] = {"white": False, "black": False}
        #: The list's players the names were found to be (shown with their rank).
        self.known: dict[str, Player] = {}
        #: Existing players alike a new name (did you mean), by colour.
        self.similar: dict[str, list[Player]] = {}
        #: New players whose rank an earlier row gave: (rank, that row's position).
        self.earlier: dict[str, tuple[str, int]] = {}

    def _clean_player_name(self, colour: str) -> str:
        text: str = self.cleaned_data.get(colour, "")
        if not text.strip():
            return ""
        try:
            return clean_name(text)
        except ValueError as error:
            raise forms.ValidationError(f"{colour.title()}: {error}") from None

    def clean_white(self) -> str:
        return self._clean_player_name("white")

    def clean_black(self) -> str:
        return self._clean_player_name("black")

    def is_blank(self) -> bool:
        """A row left empty (the trailing row of a phone form): ignored."""
        if not self.is_bound:
            return True
        data = {
            name: self.data.get(self.add_prefix(name), "").strip() for name in ("white", "black", "winner")
        }
        return not any(data.values())

    def _player(self, colour: str) -> PlayerRef | None:
        if colour in self.errors:
            return None  # a name refused by clean_name
        name: str = self.cleaned_data.get(colour, "").strip()
        rank_text: str = self.cleaned_data.get(f"{colour}_rank", "").strip()
        if not name:
            self.add_error(colour, f"give {colour.title()}'s name")
            return None
        found = Player.objects.named(self.club.rating_list_id, name).first() if self.club else None
        if found is not None:
            self.known[colour] = found
            return found
        earlier = self.earlier_new.get(identity_key(name))
        if not rank_text and earlier is not None and earlier[1] < self.position:
            self.earlier[colour] = (format_rank(earlier[0]), earlier[1])
            return NewPlayer(name, earlier[0])  # new on an earlier row of this sheet
        self.new_player[colour] = True
        if self.club is not None and (
            similar := matching.alike(self.club.rating_list_id, name, club=self.club)
        ):
            self.similar[colour] = similar
            if not self.cleaned_data.get(f"{colour}_new"):
                offers = " or ".join(matching.describe(p) for p in similar)
                self.add_error(
                    colour,
                    f"did you mean {offers}? Pick them from the list, "
                    f"or tick “a different person” to add {name} as a new player",
                )
                return None
        if not rank_text:
            where = self.club.rating_list.name if self.club else "the list"
            self.add_error(
                colour,
                f"unknown player: {name} is not a player of {where}; "
                "give their starting rank (e.g. 11k) to add them, or pick a name from the list",
            )
            return None
        try:
            rank = read_rank(rank_text, whole=True)
        except forms.ValidationError as error:
            self.add_error(f"{colour}_rank", error)
            return None
        return NewPlayer(name, int(rank))

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        white = self._player("white")
        black = self._player("black")
        if not cleaned.get("winner"):
            self.add_error("winner", "choose the winner: White, Black or jigo")
        handicap = cleaned.get("handicap")
        komi = cleaned.get("komi")
        if komi is None and handicap is not None:
            cleaned["komi"] = komi = default_komi(handicap)
        problems = game_problems(
            white=white,
            black=black,
            winner=cleaned.get("winner") or Winner.WHITE,  # missing winner reported above
            handicap=handicap if "handicap" in cleaned else 0,
            komi=komi,
            game_date=cleaned.get("date") or self.sheet_date,
            rating_list=self.club.rating_list if self.club else None,
        )
        if not cleaned.get("date") and "date" in problems:
            problems.pop("date")  # the header's date error says it already
        for name, message in problems.items():
            if name not in self.errors:
                self.add_error(name, message)
        cleaned["white_player"], cleaned["black_player"] = white, black
        return cleaned

    def to_row(self) -> GameRow:
        data = self.cleaned_data
        return GameRow(
            white=data["white_player"],
            black=data["black_player"],
            winner=data["winner"],
            handicap=data["handicap"],
            komi=data["komi"],
            date=data.get("date"),
            kind=data.get("kind") or None,  # None: the sheet's kind
            comments=data.get("comments", ""),
        )


#: The fields of a correction that make a sheet's row (GameEditForm.corrected_row).
CORRECTED_ROW = (
    "white",
    "black",
    "winner",
    "handicap",
    "komi",
    "date",
    "kind",
    "board",
    "minutes",
    "forfeit",
)


class GameEditForm(forms.Form):
    """A correction to one saved game.  The players are typed by name, as on
    a new sheet (the same autocomplete and "did you mean"), and must be
    players of the game's list: a correction makes no new player."""

    date = forms.DateField(widget=DATE_INPUT)
    white = forms.CharField(max_length=100)
    black = forms.CharField(max_length=100)
    handicap = forms.IntegerField(widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    komi = forms.DecimalField(
        max_digits=4,
        decimal_places=1,
        help_text="Points to White; negative: to Black",
        widget=forms.NumberInput(attrs={"step": "0.5", "inputmode": "decimal"}),
    )
    winner = forms.ChoiceField(choices=Winner.choices, widget=forms.RadioSelect)
    kind = forms.ChoiceField(choices=Kind.choices, label="Kind of game")
    board = forms.TypedChoiceField(choices=BOARD_CHOICES, coerce=int, label="Board size")
    minutes = forms.IntegerField(
        required=False, min_value=0, max_value=32767, label="Minutes", help_text="Main time per player"
    )
    forfeit = forms.BooleanField(required=False, help_text="Not played: it does not count for the ratings")
    comments = forms.CharField(max_length=200, required=False)
    #: Kept in the log with the correction, never on the game.
    reason = forms.CharField(
        max_length=100,
        required=False,
        label="Reason (optional)",
        help_text="Kept in the log, e.g. winner swapped",
    )

    def __init__(self, data: QueryDict | None = None, *, game: Game, **kwargs: Any) -> None:
        initial = {name: getattr(game, name) for name in self.base_fields if name != "reason"}
        initial["white"], initial["black"] = game.white.display_name, game.black.display_name
        super().__init__(data, initial=initial, **kwargs)
        self.game = game
        #: The players the names were found to be, and those alike a name not found.
        self.known: dict[str, Player] = {} if self.is_bound else {"white": game.white, "black": game.black}
        self.similar: dict[str, list[Player]] = {}

    def _existing_player(self, colour: str) -> Player:
        try:
            name = clean_name(self.cleaned_data[colour])
        except ValueError as error:
            raise forms.ValidationError(f"{colour.title()}: {error}") from None
        rating_list = self.game.rating_list
        found = Player.objects.named(rating_list.pk, name).first()
        if found is not None:
            self.known[colour] = found
            return found
        self.similar[colour] = similar = matching.alike(rating_list.pk, name, club=self.game.club_id)
        if similar:
            offers = " or ".join(matching.describe(p) for p in similar)
            raise forms.ValidationError(f"{name} is not a player of {rating_list}: did you mean {offers}?")
        raise forms.ValidationError(
            f"{name} is not a player of {rating_list}; pick a name from the list "
            "(a new player is added by entering their game on a sheet)"
        )

    def clean_white(self) -> Player:
        return self._existing_player("white")

    def clean_black(self) -> Player:
        return self._existing_player("black")

    def changes(self) -> dict[str, Any]:
        """{field: new value} of what the form changed (the reason is not a field of the game)."""
        return {name: self.cleaned_data[name] for name in self.changed_data if name != "reason"}

    def corrected_row(self) -> GameRow:
        """The game as corrected, as a sheet's row (for the checks of a new sheet)."""
        return GameRow(**{name: self.cleaned_data[name] for name in CORRECTED_ROW})

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if self.errors:
            return cleaned
        problems = game_problems(
            white=cleaned.get("white"),
            black=cleaned.get("black"),
            winner=cleaned.get("winner"),
            handicap=cleaned.get("handicap"),
            komi=cleaned.get("komi"),
            game_date=cleaned.get("date"),
            rating_list=self.game.rating_list,
        )
        for name, message in problems.items():
            self.add_error(name, message)
        return cleaned


class AdjustmentForm(forms.Form):
    """The committee sets a player's rank from a date (the SAGC FAQ: a record-sheet
    row with the player's own name as opponent)."""

    player = LabelledChoiceField(queryset=Player.objects.none(), empty_label="Choose a player")
    date = forms.DateField(widget=DATE_INPUT)
    rank = forms.CharField(max_length=8, help_text="e.g. 11k, 2d")
    rating = forms.FloatField(
        required=False,
        label="New index (optional)",
        help_text="In the unit of the list's primary system (SAGC: an index from -999 to 999 within the rank). "
        "Blank: the start of the rank.",
    )
    reason = forms.CharField(max_length=200, required=False, help_text="e.g. SAGA rank list of 2024-06")

    def __init__(self, *args: Any, rating_lists: QuerySet[RatingList], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].initial = timezone.localdate
        # Only players of the lists whose committee the user is on.
        player = field_of(self, "player", LabelledChoiceField)
        player.queryset = (
            Player.objects.filter(rating_list__in=rating_lists)
            .select_related("rating_list")
            .order_by("name", "suffix")
        )
        # "New index" / "New GoR" / "New level": the unit of the lists' primary system.
        units = {unit_of(name) for name in rating_lists.values_list("primary_system", flat=True).distinct()}
        unit = units.pop() if len(units) == 1 else "rating"
        self.fields["rating"].label = f"New {unit} (optional)"
        several = rating_lists.count() > 1
        player.label_of = lambda p: (
            f"{p} ({format_rank(p.rank)}{', ' + p.rating_list.name if several else ''})"
        )

    def clean_rank(self) -> float:
        return read_rank(self.cleaned_data["rank"])

    def clean_date(self) -> datetime.date:
        value: date = self.cleaned_data["date"]
        if (problem := date_problem(value)) is not None:
            raise forms.ValidationError(problem)
        return value

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        player, day, rating = cleaned.get("player"), cleaned.get("date"), cleaned.get("rating")
        if player is not None and day is not None and day < player.since:
            self.add_error("date", f"{player} joined on {player.since:%Y-%m-%d}; this is before that")
        sagc = player is not None and player.rating_list.primary_system == "sagc"
        if sagc and rating is not None and (not -999 <= rating <= 999 or rating != int(rating)):
            self.add_error("rating", "a SAGC index is a whole number from -999 to 999")
        return cleaned


class ListSettingsForm(forms.Form):
    primary_system = forms.ChoiceField(
        choices=SYSTEM_CHOICES, help_text="Shown on the players list and record sheets."
    )
    compared_systems = forms.MultipleChoiceField(
        choices=SYSTEM_CHOICES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="Also computed on the same games; a record sheet can switch to them. "
        "The primary system is always computed: ticking it here changes nothing.",
    )
    # Improbable results at entry (ratings/entry/improbable.py).
    improbable_below = forms.DecimalField(
        min_value=0,
        max_value=50,
        max_digits=4,
        decimal_places=1,
        required=False,
        initial=Decimal("5"),
        label="Ask to confirm a result below (%)",
        help_text="A game whose result the primary system gave less than this chance, before the game, "
        "is shown back to the volunteer to confirm before saving (a swapped winner is the commonest "
        "mistake). 0 never asks; blank keeps the current value.",
        widget=forms.NumberInput(attrs={"step": "0.5", "inputmode": "decimal"}),
    )
    check_handicap = forms.BooleanField(
        required=False,
        initial=True,
        label="Ask to confirm a handicap off the rule",
        help_text="A game whose handicap or komi is not what the primary system's rule gives for the two players.",
    )
