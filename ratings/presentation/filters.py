"""Filter forms of the read pages (plain Django forms over GET)."""

from __future__ import annotations

from typing import Any

from django import forms

from ratings.models import Club, RatingList


class PlayerFilterForm(forms.Form):
    q = forms.CharField(label="Name", required=False, max_length=100)
    list = forms.ModelChoiceField(
        RatingList.objects.all(), required=False, to_field_name="slug", empty_label="All lists", label="List"
    )
    club = forms.ModelChoiceField(
        Club.objects.all(), required=False, to_field_name="slug", empty_label="All clubs", label="Home club"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if RatingList.objects.count() <= 1:
            del self.fields["list"]  # one list: no need to choose it


class LogFilterForm(forms.Form):
    list = forms.ModelChoiceField(
        RatingList.objects.all(), required=False, to_field_name="slug", empty_label="All lists", label="List"
    )
    club = forms.ModelChoiceField(
        Club.objects.all(), required=False, to_field_name="slug", empty_label="All clubs", label="Entered at"
    )
    player = forms.CharField(label="Player", required=False, max_length=120, help_text="Name or part of it")
    start = forms.DateField(label="From", required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end = forms.DateField(label="To", required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if RatingList.objects.count() <= 1:
            del self.fields["list"]

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        start, end = data.get("start"), data.get("end")
        if start and end and start > end:
            raise forms.ValidationError("The 'From' date is after the 'To' date.")
        return data
