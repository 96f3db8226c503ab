"""A partial index of the tournament sheets with an event, by club: the
sheets whose games form a rating period of their own, read by every
recompute (twice a late game) and every game page (recompute.sheet_events).
At a million games (6,667 sheets a list, 1,667 of them tournaments with an
event) the read took 4-5 ms through sheet_club_entered, filtering out three
sheets in four, and 1 ms through this index (measured, loaded machine;
docs/recompute.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0014_checkpoint_lz4"),
    ]

    operations = [
        migrations.AddIndex(
            model_name="recordsheet",
            index=models.Index(
                condition=models.Q(("kind", "tournament"), models.Q(("event", ""), _negated=True)),
                fields=["club"],
                name="sheet_tournament_events",
            ),
        ),
    ]
