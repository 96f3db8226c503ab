"""The players' cached rank, rating and games count after a recompute."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from ratings import models as m


def update_players(rating_list: m.RatingList, state: Mapping[Any, Any], games: Mapping[int, int]) -> None:
    """Cache rank, rating and games count from the primary system, writing
    only the players whose values changed."""
    changed: list[tuple[int, float, float, int]] = []
    stored = (
        m.Player.objects.filter(rating_list=rating_list)
        .order_by()
        .values_list("id", "start_rank", "rank", "rating", "games_count")
    )  # tuples, not model instances: 5,000 players a run; in any order (no sort)
    for pk, start_rank, *cached in stored:
        own = state.get(pk)
        rank = float(own.rank) if own is not None else float(start_rank)
        rating = float(own.rating) if own is not None else 0.0
        count = games.get(pk, 0)
        if cached != [rank, rating, count]:
            changed.append((pk, rank, rating, count))
    if changed:
        # Lock the rows in primary-key order first, so this never deadlocks
        # with a sheet being saved that updates the same players; then one
        # executemany (bulk_update's CASE expressions cost seconds to build
        # for thousands of players).
        pks, ranks, ratings, counts = (list(column) for column in zip(*changed, strict=True))
        list(m.Player.objects.select_for_update().filter(pk__in=pks).order_by("pk").values_list("pk"))
        conn = transaction.get_connection()
        quote = conn.ops.quote_name
        table = quote(m.Player._meta.db_table)
        with conn.cursor() as cursor:
            if conn.vendor == "postgresql":
                # One statement over arrays: an executemany sends one UPDATE
                # per player (5,000 at a federation's full recompute).
                cursor.execute(
                    f"UPDATE {table} SET {quote('rank')} = v.rank, {quote('rating')} = v.rating, "
                    f"{quote('games_count')} = v.games FROM unnest(%s::bigint[], %s::float8[], "
                    f"%s::float8[], %s::integer[]) AS v(id, rank, rating, games) WHERE {table}.{quote('id')} = v.id",
                    [pks, ranks, ratings, counts],
                )
                return
            cursor.executemany(
                f"UPDATE {table} SET {quote('rank')} = %s, {quote('rating')} = %s, "
                f"{quote('games_count')} = %s WHERE {quote('id')} = %s",
                [(rank, rating, count, pk) for pk, rank, rating, count in changed],
            )
