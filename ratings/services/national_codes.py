"""A list's national codes, set by its committee: the list's country, each
club's EGD club code, each player's country and national ids (EGD PIN, FFG
licence, AGA id).  The game exports and the published rank files write them
(docs/formats.md, "Codes in the exports")."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction

from ratings.models import Club, Player, RatingList

#: A player's fields this page sets.
PLAYER_CODES = ("country", "egd_pin", "ffg_licence", "aga_id")
#: The ids a player of a list holds alone: two players with one id would be one person twice.
UNIQUE_IDS = ("egd_pin", "ffg_licence", "aga_id")
ID_LABELS = {"egd_pin": "EGD PIN", "ffg_licence": "FFG licence", "aga_id": "AGA id"}

#: The form of each national id, as its body writes it (docs/formats.md).
ID_FORMS = {
    "egd_pin": (re.compile(r"\d{8}"), "an EGD PIN is eight digits"),
    "ffg_licence": (re.compile(r"\d{7}"), "an FFG licence is seven digits"),
    "aga_id": (re.compile(r"\d{1,10}"), "an AGA id is digits"),
}


class CodesError(ValueError):
    """Codes that cannot be saved; ``problems`` maps (kind, id, field) to the message."""

    def __init__(self, problems: dict[tuple[str, int, str], str]) -> None:
        super().__init__("; ".join(problems.values()))
        self.problems = problems


@dataclass
class CodeChanges:
    """What a save changed: the list's country, and the clubs and players whose codes changed."""

    country: bool = False
    clubs: list[Club] = field(default_factory=list)
    players: list[Player] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.country or bool(self.clubs) or bool(self.players)


def _check(obj: RatingList | Club | Player, fields: tuple[str, ...]) -> dict[str, str]:
    found: dict[str, str] = {}
    try:
        obj.clean_fields(exclude=[f.name for f in obj._meta.fields if f.name not in fields])
    except ValidationError as error:
        found = {name: " ".join(messages) for name, messages in error.message_dict.items()}
    for name in fields:
        value = getattr(obj, name)
        if name in ID_FORMS and value and not ID_FORMS[name][0].fullmatch(value):
            found.setdefault(name, f"{value!r}: {ID_FORMS[name][1]}")
    return found


def set_national_codes(
    rating_list: RatingList,
    *,
    country: str,
    club_codes: Mapping[int, str],
    player_codes: Mapping[int, Mapping[str, str]],
) -> CodeChanges:
    """Save the codes given (clubs and players by id, only those given);
    all or nothing.  Refused with :class:`CodesError` naming each problem: a
    code of the wrong form, or an id stored on two players of the list."""
    problems: dict[tuple[str, int, str], str] = {}
    changes = CodeChanges()
    with transaction.atomic():
        current = RatingList.objects.select_for_update().get(pk=rating_list.pk)
        if current.country != country:
            current.country = country
            for name, message in _check(current, ("country",)).items():
                problems[("list", current.pk, name)] = message
            changes.country = True
        for club in Club.objects.filter(rating_list=current, pk__in=list(club_codes)):
            if club.egd_code != club_codes[club.pk]:
                club.egd_code = club_codes[club.pk]
                for name, message in _check(club, ("egd_code",)).items():
                    problems[("club", club.pk, name)] = f"{club}: {message}"
                changes.clubs.append(club)
        players = {p.pk: p for p in Player.objects.filter(rating_list=current, pk__in=list(player_codes))}
        for pk, player in players.items():
            wanted = player_codes[pk]
            if all(getattr(player, name) == wanted.get(name, getattr(player, name)) for name in PLAYER_CODES):
                continue
            for name in PLAYER_CODES:
                setattr(player, name, wanted.get(name, getattr(player, name)))
            for name, message in _check(player, PLAYER_CODES).items():
                problems[("player", pk, name)] = f"{player.display_name}: {message}"
            changes.players.append(player)
        _check_unique_ids(current, players, problems)
        if problems:
            raise CodesError(problems)
        if changes.country:
            current.save(update_fields=["country"])
            rating_list.country = country
        for club in changes.clubs:
            club.save(update_fields=["egd_code"])
        for player in changes.players:
            player.save(update_fields=list(PLAYER_CODES))
    return changes


def _check_unique_ids(
    rating_list: RatingList, changed: Mapping[int, Player], problems: dict[tuple[str, int, str], str]
) -> None:
    """An id on two players of the list (as they will be) is a problem on each changed one, naming the other."""
    others = Player.objects.filter(rating_list=rating_list).exclude(pk__in=list(changed))
    for name in UNIQUE_IDS:
        holders: dict[str, list[Player]] = {}
        for player in [*changed.values(), *others.exclude(**{name: ""})]:
            value = getattr(player, name)
            if value:
                holders.setdefault(value, []).append(player)
        for value, players in holders.items():
            if len(players) < 2:
                continue
            for player in players:
                if player.pk in changed:
                    rest = ", ".join(p.display_name for p in players if p.pk != player.pk)
                    label = ID_LABELS[name]
                    problems[("player", player.pk, name)] = (
                        f"{player.display_name}: {label} {value} is also {rest}'s"
                    )
