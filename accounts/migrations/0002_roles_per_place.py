"""Roles per place (issue 11): the site-wide groups "volunteer" and
"committee" become memberships.  Before, a volunteer could enter games at any
club, so each volunteer becomes a volunteer of every club, and each committee
member a committee member of every list (after ratings' migration 0009 each
old club is a list of its own): nobody loses a right they had.  The groups go."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.backends.base.schema import BaseDatabaseSchemaEditor
from django.db.migrations.state import StateApps


def groups_become_memberships(apps: StateApps, schema_editor: BaseDatabaseSchemaEditor) -> None:
    Group = apps.get_model("auth", "Group")
    Volunteer = apps.get_model("accounts", "Volunteer")
    CommitteeMember = apps.get_model("accounts", "CommitteeMember")
    Club = apps.get_model("ratings", "Club")
    RatingList = apps.get_model("ratings", "RatingList")
    groups = {group.name: group for group in Group.objects.filter(name__in=("volunteer", "committee"))}
    if "volunteer" in groups:
        users = list(groups["volunteer"].user_set.all())
        Volunteer.objects.bulk_create(Volunteer(user=u, club=c) for u in users for c in Club.objects.all())
    if "committee" in groups:
        users = list(groups["committee"].user_set.all())
        CommitteeMember.objects.bulk_create(
            CommitteeMember(user=u, rating_list=r) for u in users for r in RatingList.objects.all()
        )
    Group.objects.filter(pk__in=[g.pk for g in groups.values()]).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_role_groups"),
        ("ratings", "0009_rating_lists"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="CommitteeMember",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("granted_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("granted_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("rating_list", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="committee", to="ratings.ratinglist")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="committees", to=settings.AUTH_USER_MODEL)),
            ],
            options={"constraints": [models.UniqueConstraint(fields=("user", "rating_list"), name="committee_once_per_list")]},
        ),
        migrations.CreateModel(
            name="Volunteer",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("granted_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="volunteers", to="ratings.club")),
                ("granted_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="volunteering", to=settings.AUTH_USER_MODEL)),
            ],
            options={"constraints": [models.UniqueConstraint(fields=("user", "club"), name="volunteer_once_per_club")]},
        ),
        migrations.RunPython(groups_become_memberships, migrations.RunPython.noop, elidable=False),
    ]
