"""Forms of list administration: new lists and clubs, invitations, roles,
player links, and the newcomer's account on an invitation link."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm, UsernameField
from django.contrib.auth.models import User

from accounts.models import Role
from ratings.models import SYSTEM_CHOICES, Club, Player, RatingList

COMMITTEE_PLACE = "committee"


def place_choices(rating_list: RatingList) -> list[tuple[str, str]]:
    """The roles the committee of a list gives: a volunteer seat at each of
    its clubs, a committee seat on the list."""
    clubs = [(f"club:{club.pk}", f"Volunteer at {club.name}") for club in rating_list.clubs.order_by("name")]
    return [*clubs, (COMMITTEE_PLACE, f"Committee of {rating_list.name}")]


class PlaceField(forms.ChoiceField):
    """A role and place: cleans to (role, club or None)."""

    def __init__(self, rating_list: RatingList, **kwargs: Any) -> None:
        super().__init__(choices=place_choices(rating_list), label="Role", **kwargs)
        self.rating_list = rating_list

    def clean(self, value: Any) -> tuple[str, Club | None]:
        value = super().clean(value)
        if value == COMMITTEE_PLACE:
            return Role.COMMITTEE, None
        club = self.rating_list.clubs.get(pk=int(value.removeprefix("club:")))
        return Role.VOLUNTEER, club


class ListForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="For example “South African Go Clubs”.")
    primary_system = forms.ChoiceField(choices=SYSTEM_CHOICES, initial="sagc", label="Rating system")


class ClubForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="Its web address is made from the name.")


class InviteForm(forms.Form):
    email = forms.EmailField(label="E-mail address")

    def __init__(self, *args: Any, rating_list: RatingList, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["place"] = PlaceField(rating_list)


def _user_named(username: str) -> User:
    user = User.objects.filter(username=username.strip()).first()
    if user is None:
        raise forms.ValidationError(
            f"No user is called “{username.strip()}”. Someone new? Send them an invitation instead."
        )
    return user


class GiveRoleForm(forms.Form):
    username = forms.CharField(max_length=150, label="Username")

    def __init__(self, *args: Any, rating_list: RatingList, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["place"] = PlaceField(rating_list)

    def clean_username(self) -> User:
        return _user_named(self.cleaned_data["username"])


class LinkForm(forms.Form):
    """The committee links a user to a player of its list."""

    username = forms.CharField(max_length=150, label="Username")

    def __init__(self, *args: Any, rating_list: RatingList, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"] = forms.ModelChoiceField(
            queryset=Player.objects.filter(rating_list=rating_list, user__isnull=True).order_by(
                "name", "suffix"
            ),
            label="Player",
        )
        self.order_fields(["player", "username"])

    def clean_username(self) -> User:
        return _user_named(self.cleaned_data["username"])


class NewcomerForm(UserCreationForm[User]):
    """The invitee's new account: a username and a password (twice)."""

    class Meta:
        # Django's UserCreationForm.Meta, written out: the type stubs do not
        # declare that inner class, so it cannot be subclassed here.
        model = User
        fields = ("username",)
        field_classes = {"username": UsernameField}


class ListImportForm(forms.Form):
    archive = forms.FileField(
        label="List archive (.zip)",
        help_text="A file made by “Download the archive” or manage.py export_list.",
    )
    slug = forms.SlugField(
        label="Address of the new list",
        max_length=60,
        required=False,
        help_text="Leave empty to keep the archive's own; a list of this site must not have it already.",
    )
