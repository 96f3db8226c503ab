"""A game as the engine holds it (ratings/engine/base.py, Game)."""

from __future__ import annotations

from dataclasses import fields, replace
from datetime import date

from ratings.engine.base import Game, Kind, Winner


def test_a_game_between_other_players_keeps_every_other_field() -> None:
    # Every field away from its default, so that a field the copy forgot
    # (one added to Game later) shows.
    game = Game(
        date(2024, 5, 4), "a", "b", Winner.BLACK, handicap=3, komi=0.5, kind=Kind.TOURNAMENT,
        board=13, minutes=40, event="Open", event_class="B", club="Cape Town", forfeit=True,
    )  # fmt: skip
    assert all(getattr(game, f.name) != f.default for f in fields(Game))
    copy = game.between("x", "y")
    assert copy == replace(game, white="x", black="y")
    assert copy is not game and game.white == "a"
