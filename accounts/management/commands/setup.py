"""Set up a fresh site: the site admin, a rating list and its clubs.

    python manage.py setup --list NAME --club NAME [--club NAME ...] \\
        --admin USERNAME --email EMAIL [--system sagc] [--no-input]

Interactive by default: asks for what is missing (the password with a
hidden prompt, unless CLUBRATING_ADMIN_PASSWORD is set).  With --no-input
(scripts, docker-compose) everything must be given, on the command line or
in the environment (CLUBRATING_LIST, CLUBRATING_CLUBS comma-separated,
CLUBRATING_ADMIN, CLUBRATING_ADMIN_EMAIL, CLUBRATING_SYSTEM, read by
clubrating/settings.py).  Running it again with the same names changes
nothing and says so.  Prints the clubs' slugs.
"""

from __future__ import annotations

import getpass
import os
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services.site_setup import SetupError, admin_exists, set_up
from ratings.engine import SYSTEM_LABELS


class Command(BaseCommand):
    help = "Set up a fresh site: the site admin, a rating list and its clubs (idempotent)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--list", dest="list_name", help="the rating list's name")
        parser.add_argument(
            "--club", dest="clubs", action="append", default=[], help="a club's name (repeat)"
        )
        parser.add_argument("--admin", help="the site admin's username")
        parser.add_argument("--email", help="the site admin's e-mail address")
        parser.add_argument(
            "--system", choices=sorted(SYSTEM_LABELS), help="the list's primary system (sagc)"
        )
        parser.add_argument(
            "--no-input", "--noinput", action="store_false", dest="interactive",
            help="never prompt; fail with an error naming what is missing",
        )  # fmt: skip

    def handle(self, *args: Any, **options: Any) -> None:
        interactive = options["interactive"]
        list_name = options["list_name"] or settings.SETUP_LIST
        clubs = options["clubs"] or list(settings.SETUP_CLUBS)
        admin = options["admin"] or settings.SETUP_ADMIN
        email = options["email"] or settings.SETUP_ADMIN_EMAIL
        system = options["system"] or settings.SETUP_SYSTEM or "sagc"
        password = os.environ.get(settings.SETUP_PASSWORD_VARIABLE, "")

        if interactive:
            list_name = list_name or self._ask("Rating list name")
            if not clubs:
                self.stdout.write("Clubs of the list, one a line (an empty line ends):")
                while name := input("  Club name: ").strip():
                    clubs.append(name)
            admin = admin or self._ask("Site admin username")
        missing = [
            option
            for option, value in (("--list", list_name), ("--club", clubs), ("--admin", admin))
            if not value
        ]
        if missing:
            raise CommandError(f"missing {', '.join(missing)} (see manage.py setup --help)")
        if not admin_exists(admin):
            if interactive:
                email = email or self._ask("Site admin e-mail")
                password = password or self._ask_password()
            if not email:
                raise CommandError(f"missing --email for the new site admin {admin!r}")
            if not password:
                raise CommandError(
                    f"no password for the new site admin {admin!r}: set {settings.SETUP_PASSWORD_VARIABLE}"
                )
        try:
            result = set_up(
                list_name=list_name, club_names=clubs, admin=admin, email=email or "", password=password,
                system=system,
            )  # fmt: skip
        except SetupError as error:
            raise CommandError(str(error)) from error

        for line in result.done:
            self.stdout.write(self.style.SUCCESS(line))
        for line in result.found:
            self.stdout.write(line)
        if not result.changed:
            self.stdout.write("Nothing changed: the site was already set up like this.")
        self.stdout.write(f"List {result.rating_list.name}: slug {result.rating_list.slug}")
        for club in result.clubs:
            self.stdout.write(f"Club {club.name}: slug {club.slug}")

    def _ask(self, prompt: str) -> str:
        answer = ""
        while not answer:
            answer = input(f"{prompt}: ").strip()
        return answer

    def _ask_password(self) -> str:
        while True:
            first = getpass.getpass("Site admin password: ")
            if first and first == getpass.getpass("Password (again): "):
                return first
            self.stderr.write("The passwords were empty or did not match; try again.")
