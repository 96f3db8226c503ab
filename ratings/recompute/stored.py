"""Players' engine states at a point of a list's timeline, rebuilt from
the stored history instead of a checkpoint and a replay (a game's
explanation, ratings/explain/games.py).

A player's state at the start of a day in a system is what their last
history row before it left them (rank and rating after), and, for the
systems whose state holds more, what the games of their last few rows say
(each system's ``history_games`` and ``state_from_history``: SAGC's
opponents of the last ten games, a French ladder's known flag).  Every
system writes a row for each event of a player, at the event's seq, so one
query reads, by the (player, system, seq) index, each player's last rows in
the list's first system with their games, and their row at the last of
those seqs in each other system.

A part of a state that, once set, never changes back (a French ladder's
known flag: ``earlier_settles``) may come from an earlier checkpoint
instead (earlier_states): then the players it settles need their last row
only, without its game.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from datetime import date
from operator import itemgetter
from typing import Any

from django.db import transaction

from ratings import models as m
from ratings.engine import base
from ratings.recompute.columns import day_seq
from ratings.recompute.replay import resume_date
from ratings.recompute.timeline import GAME_COLUMNS, games_of, session_setting


def states_before(
    systems: Sequence[tuple[str, base.RatingSystem]],
    day: date,
    players: Collection[int],
    starts: Mapping[Any, base.Start],
    earlier: Mapping[str, Mapping[int, Any]] | None = None,
) -> dict[str, dict[int, Any] | None]:
    """The state of each of ``players`` with a history row before ``day``
    (a day no rating period straddles), by system name (a player without
    one enters at their start).  None for a system whose rows do not settle
    some player's state (the caller replays that system from a checkpoint
    instead).

    ``earlier``: by system, the players' states at a checkpoint at or
    before ``day`` (earlier_states), for systems whose ``earlier_settles``.
    Then each player's last row is read first, without games; only the
    players it and their checkpoint state do not settle have their last
    rows' games read and replayed."""
    seq = day_seq(day)
    names = [name for name, _ in systems]
    count = max(1, *(system.history_games for _, system in systems))
    todo = sorted(players)
    first: dict[str, dict[int, Any]] = {name: {} for name in names}
    if earlier:
        settled, unsettled = _settle(systems, _read(names, 1, seq, todo, games=False), 1, starts, earlier)
        again = set().union(*unsettled.values())
        for name, states in settled.items():
            first[name] = {player: state for player, state in states.items() if player not in again}
        todo = sorted(again)
    if not todo:
        return dict(first)
    settled, unsettled = _settle(systems, _read(names, count, seq, todo), count, starts, earlier or {})
    return {name: None if unsettled[name] else first[name] | settled[name] for name in names}


def earlier_states(
    rating_list: m.RatingList,
    systems: Sequence[tuple[str, base.RatingSystem]],
    day: date,
    players: Collection[int],
) -> dict[str, dict[int, Any]]:
    """The states of ``players`` at the latest checkpoint at or before
    ``day`` of the systems of ``systems`` whose ``earlier_settles``, by
    system name (for states_before; empty without such a system or
    checkpoint).  Only those players' states leave the database (the JSON
    function ``json_each``, ``jsonb_each`` on PostgreSQL): a checkpoint
    holds every player of the list."""
    names = [name for name, system in systems if system.earlier_settles]
    resume = resume_date(rating_list, names, day) if players else None
    if resume is None:
        return {}
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    each = "jsonb_each" if conn.vendor == "postgresql" else "json_each"
    keys = [str(player) for player in players]
    sql = (
        f"SELECT c.system, e.key, e.value FROM {quote(m.RatingCheckpoint._meta.db_table)} c, {each}(c.states) e "
        f"WHERE c.rating_list_id = %s AND c.date = %s AND c.system IN ({', '.join(['%s'] * len(names))}) "
        f"AND e.key IN ({', '.join(['%s'] * len(keys))})"
    )
    with conn.cursor() as cursor:
        cursor.execute(sql, [rating_list.pk, resume.isoformat(), *names, *keys])
        rows = cursor.fetchall()
    by_name = dict(systems)
    found: dict[str, dict[int, Any]] = {name: {} for name in names}
    for name, key, value in rows:
        data = json.loads(value) if isinstance(value, str) else value
        found[name][int(key)] = by_name[name].state_from_json(data)
    return found


def _settle(
    systems: Sequence[tuple[str, base.RatingSystem]],
    read: list[tuple[str, int, int, float, float, base.Game | None]],
    count: int,
    starts: Mapping[Any, base.Start],
    earlier: Mapping[str, Mapping[int, Any]],
) -> tuple[dict[str, dict[int, Any]], dict[str, set[int]]]:
    """The states that ``read`` (each player's last ``count`` rows in the
    first system, and their row at the last of those in the others: _read)
    settles, by system, and the players it does not."""
    # player -> their last rows in the first system, oldest first: (seq, rank after, rating after, game)
    last: dict[int, list[tuple[int, float, float, base.Game | None]]] = defaultdict(list)
    # (system, player) -> (seq, rank after, rating after) of their last row in the other systems
    others: dict[tuple[str, int], tuple[int, float, float]] = {}
    for name, player, row_seq, rank, rating, game in read:
        if name == systems[0][0]:
            last[player].append((row_seq, rank, rating, game))
        else:
            others[(name, player)] = (row_seq, rank, rating)
    for each in last.values():
        each.sort(key=itemgetter(0))
    settled: dict[str, dict[int, Any]] = {}
    unsettled: dict[str, set[int]] = {}
    for number, (name, system) in enumerate(systems):
        # The games of the player's last rows that this system reads (no more:
        # a ladder's replay of them rates them, periods and all).
        wanted = system.history_games
        alone: dict[base.PlayerId, Any] = {}
        if wanted:
            games: dict[base.PlayerId, Sequence[base.Game]] = {
                player: [row[3] for row in rows[-wanted:] if row[3] is not None]
                for player, rows in last.items()
            }
            if any(games.values()):  # none when the rows were read without their games
                alone = base.replayed_states(system, games)
        before = earlier.get(name, {})
        states: dict[int, Any] = {}
        missed: set[int] = set()
        for player, rows in last.items():
            at, rank, rating, _ = rows[-1]
            if number:
                found = others.get((name, player))
                if found is None or found[0] != at:
                    missed.add(player)  # not the row of the same event: replay
                    continue
                _, rank, rating = found
            # Complete: the rows read are all the player's rows before seq.
            complete = len(rows) < count and len(rows) <= wanted
            state = system.state_from_history(
                base.Stored(
                    player, rank, rating, alone.get(player), complete, starts.get(player), before.get(player)
                )
            )
            if state is None:
                missed.add(player)
            else:
                states[player] = state
        settled[name] = states
        unsettled[name] = missed
    return settled, unsettled


def _read(
    names: Sequence[str], count: int, seq: int, players: list[int], games: bool = True
) -> list[tuple[str, int, int, float, float, base.Game | None]]:
    """(system, player, seq, rank after, rating after, game) of each
    player's last ``count`` rows before ``seq`` in the first system of
    ``names`` (their games read, unless ``games`` is false), and of their
    row at the last of those seqs in each other system (game None): one
    statement."""
    if not players:
        return []
    conn = transaction.get_connection()
    quote = conn.ops.quote_name
    history = quote(m.HistoryEntry._meta.db_table)
    columns = "h.system, h.player_id, h.seq, h.rank_after, h.rating_after"

    def nth(offset: int) -> str:
        # The seq of the player's offset-th row from the end before seq in the first system.
        return (
            f"(SELECT x.seq FROM {history} x WHERE x.player_id = p.id AND x.system = %s AND x.seq < %s "
            f"ORDER BY x.seq DESC LIMIT 1 OFFSET {offset})"
        )

    nulls = ", ".join(["NULL"] * (GAME_COLUMNS.count(",") + 1))
    joined = f"LEFT JOIN {quote(m.Game._meta.db_table)} g ON g.id = h.game_id" if games else ""
    sql = (
        f"WITH p AS (SELECT id FROM {quote(m.Player._meta.db_table)} "
        f"WHERE id IN ({', '.join(['%s'] * len(players))})) "
        f"SELECT {columns}, {GAME_COLUMNS.format(entered='NULL') if games else nulls} "
        f"FROM p JOIN {history} h ON h.player_id = p.id AND h.system = %s AND h.seq < %s "
        f"AND h.seq >= COALESCE({nth(int(count) - 1)}, 0) {joined}"
    )
    params: list[Any] = [*players, names[0], seq, names[0], seq]
    if len(names) > 1:
        sql += (
            f" UNION ALL SELECT {columns}, {nulls} FROM p JOIN {history} h ON h.player_id = p.id "
            f"AND h.system IN ({', '.join(['%s'] * (len(names) - 1))}) AND h.seq = {nth(0)}"
        )
        params += [*names[1:], names[0], seq]
    # PostgreSQL would compile this statement (JIT: its cost estimate is
    # high, its run a few milliseconds): 40-80 ms, measured at 1M games.
    with conn.cursor() as cursor, session_setting(cursor, conn.vendor, "jit", "off"):
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    read = [row[5:] for row in rows if row[7] is not None]
    by_id: dict[int, Any] = dict(zip((row[2] for row in read), games_of(read).events, strict=True))
    return [(row[0], row[1], row[2], row[3], row[4], by_id.get(row[7])) for row in rows]
