"""History rows lose their engine-state column: nothing wrote or read it (a
recompute resumes from its checkpoints, ``RatingCheckpoint``)."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('ratings', '0001_squashed_0013_former_slugs'),
    ]

    operations = [
        migrations.RemoveField(
            model_name='historyentry',
            name='state',
        ),
    ]
