"""What the tests of entry checks share: the POST of a correction and the
digest of the "yes, save anyway" tick of an improbable result."""

from __future__ import annotations

import re
from typing import Any

from ratings.models import Game


def correction_data(game: Game, **changes: object) -> dict[str, str]:
    """The POST of "Correct a game" that changes ``changes`` of ``game`` (players by name)."""
    data = {
        "date": game.date.isoformat(),
        "white": game.white.display_name,
        "black": game.black.display_name,
        "handicap": str(game.handicap),
        "komi": str(game.komi),
        "winner": game.winner,
        "kind": game.kind,
        "board": str(game.board),
        "minutes": "" if game.minutes is None else str(game.minutes),
        "comments": game.comments,
    }
    data.update({k: str(v) for k, v in changes.items()})
    return data


def improbable_tick(response: Any) -> str:
    """The digest the "yes, save anyway" tick of the page carries."""
    found = re.search(r'name="confirm_improbable" value="([0-9a-f]+)"', response.content.decode())
    assert found, "no confirmation tick on the page"
    return found.group(1)
