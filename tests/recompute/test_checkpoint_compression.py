"""The checkpoints' JSON is compressed with lz4 on PostgreSQL (migration
0014): pglz took most of the server's time of a late game's checkpoints."""

from __future__ import annotations

import pytest
from django.db import connection

from ratings.models import RatingCheckpoint

pytestmark = [pytest.mark.postgresql, pytest.mark.django_db]


def test_the_checkpoints_json_columns_are_compressed_with_lz4() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT attname, attcompression FROM pg_attribute WHERE attrelid = %s::regclass "
            "AND attname IN ('states', 'games') ORDER BY attname",
            [RatingCheckpoint._meta.db_table],
        )
        assert cursor.fetchall() == [("games", "l"), ("states", "l")]
