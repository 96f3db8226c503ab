"""`manage.py setup`: a fresh site in one command, interactive or
not, idempotent, all or nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from pytest_django import Settings

from accounts.models import CommitteeMember
from ratings.models import Club, RatingList

SECRET = "a-long-enough-admin-secret"
ARGS = [
    "--list", "South African Go Clubs", "--club", "Stellenbosch Go Club", "--club", "Cape Town Go Club",
    "--admin", "root", "--email", "root@example.org", "--no-input",
]  # fmt: skip


def run(*args: str) -> str:
    out = StringIO()
    call_command("setup", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


@pytest.fixture
def password(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("CLUBRATING_ADMIN_PASSWORD", SECRET)
    return SECRET


def state() -> tuple[Any, ...]:
    return (
        sorted(User.objects.values_list("username", "email", "is_superuser", "is_staff", "password")),
        sorted(RatingList.objects.values_list("name", "slug", "primary_system")),
        sorted(Club.objects.values_list("rating_list__slug", "name", "slug")),
        sorted(CommitteeMember.objects.values_list("user__username", "rating_list__slug")),
    )


@pytest.mark.django_db
def test_it_creates_the_admin_the_list_its_clubs_and_the_committee_seat(password: str) -> None:
    out = run(*ARGS)
    admin = User.objects.get(username="root")
    assert admin.is_superuser and admin.is_staff and admin.email == "root@example.org"
    assert admin.check_password(SECRET), "the password comes from CLUBRATING_ADMIN_PASSWORD"
    rating_list = RatingList.objects.get()
    assert (rating_list.name, rating_list.slug, rating_list.primary_system) == (
        "South African Go Clubs", "south-african-go-clubs", "sagc",
    )  # fmt: skip
    assert sorted(rating_list.clubs.values_list("slug", flat=True)) == [
        "cape-town-go-club",
        "stellenbosch-go-club",
    ]
    assert CommitteeMember.objects.filter(user=admin, rating_list=rating_list).exists()
    assert "Club Stellenbosch Go Club: slug stellenbosch-go-club" in out
    assert "Club Cape Town Go Club: slug cape-town-go-club" in out


@pytest.mark.django_db
def test_running_it_twice_changes_nothing_and_says_so(password: str, monkeypatch: pytest.MonkeyPatch) -> None:
    run(*ARGS)
    before = state()
    monkeypatch.delenv("CLUBRATING_ADMIN_PASSWORD")  # an existing admin needs none
    out = run(*ARGS)
    assert state() == before
    assert "Nothing changed" in out
    assert "Club Cape Town Go Club: slug cape-town-go-club" in out, "it still prints the slugs"


@pytest.mark.django_db
def test_a_second_run_with_one_more_club_adds_only_that_club(password: str) -> None:
    run(*ARGS)
    out = run(*ARGS, "--club", "Pretoria Go Club")
    assert Club.objects.count() == 3 and RatingList.objects.count() == 1
    assert "Created the club Pretoria Go Club." in out and "Nothing changed" not in out


@pytest.mark.django_db
def test_the_system_option_picks_the_primary_system(password: str) -> None:
    run(*ARGS, "--system", "west-surrey")
    assert RatingList.objects.get().primary_system == "west-surrey"


@pytest.mark.django_db
def test_an_existing_list_keeps_its_system(password: str) -> None:
    run(*ARGS)
    out = run(*ARGS, "--system", "egf")
    assert RatingList.objects.get().primary_system == "sagc"
    assert "left as it is" in out


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("drop", "named"),
    [("--list", "--list"), ("--club", "--club"), ("--admin", "--admin"), ("--email", "--email")],
)
def test_without_input_a_missing_option_is_a_clear_error_and_nothing_is_made(
    password: str, drop: str, named: str
) -> None:
    args = list(ARGS)
    while drop in args:
        i = args.index(drop)
        del args[i : i + 2]
    with pytest.raises(CommandError, match=named):
        run(*args)
    assert state() == ([], [], [], [])


@pytest.mark.django_db
def test_without_input_a_new_admin_needs_the_password_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLUBRATING_ADMIN_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="CLUBRATING_ADMIN_PASSWORD"):
        run(*ARGS)
    assert state() == ([], [], [], [])


@pytest.mark.django_db
def test_a_weak_password_is_refused_and_nothing_is_half_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLUBRATING_ADMIN_PASSWORD", "123")
    with pytest.raises(CommandError, match="password"):
        run(*ARGS)
    assert state() == ([], [], [], [])


@pytest.mark.django_db
def test_an_unknown_system_is_refused() -> None:
    with pytest.raises(CommandError, match="system"):
        run(*ARGS, "--system", "elo")


@pytest.mark.django_db
def test_the_options_may_come_from_the_environment_through_the_settings(
    password: str, settings: Settings
) -> None:
    settings.SETUP_LIST = "Guildford Ladder"
    settings.SETUP_CLUBS = ["Guildford Go Club", "Woking Go Club"]
    settings.SETUP_ADMIN = "ladder"
    settings.SETUP_ADMIN_EMAIL = "ladder@example.org"
    settings.SETUP_SYSTEM = "west-surrey"
    out = run("--no-input")
    assert RatingList.objects.get().primary_system == "west-surrey"
    assert "Club Woking Go Club: slug woking-go-club" in out
    assert User.objects.get(username="ladder").check_password(SECRET)


@pytest.mark.django_db
def test_interactive_it_asks_for_what_is_missing_and_the_password_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CLUBRATING_ADMIN_PASSWORD", raising=False)
    answers = iter(["Guildford Ladder", "Guildford Go Club", "", "ladder", "ladder@example.org"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    secrets = iter(["first-try-secret-1", "typo", SECRET, SECRET])
    monkeypatch.setattr("accounts.management.commands.setup.getpass.getpass", lambda prompt="": next(secrets))
    out = run()
    assert User.objects.get(username="ladder").check_password(SECRET), "a mismatched pair is asked again"
    assert "Club Guildford Go Club: slug guildford-go-club" in out


@pytest.mark.django_db
def test_an_existing_non_admin_user_becomes_site_admin_and_keeps_their_password(password: str) -> None:
    User.objects.create_user("root", "root@example.org", "their-own-password-99")
    out = run(*ARGS)
    root = User.objects.get(username="root")
    assert root.is_superuser and root.check_password("their-own-password-99")
    assert "Made root a site admin." in out


@pytest.mark.django_db
def test_a_club_slug_taken_in_another_list_gets_a_number(password: str) -> None:
    other = RatingList.objects.create(name="Other", slug="other")
    Club.objects.create(rating_list=other, name="Cape Town Go Club", slug="cape-town-go-club")
    out = run(*ARGS)
    assert "Club Cape Town Go Club: slug cape-town-go-club-2" in out
