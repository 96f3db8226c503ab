"""Accounts by e-mail address: an archive names the person who entered a
game or holds a role by their address only.  On import an address is the
account of this site that has it (case aside); an address no account has
becomes an inactive account with a random password the person never saw
(a site admin activates it; the person sets a password with "Forgot your
password?")."""

from __future__ import annotations

import secrets

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser


class People:
    """The account of each address met during one import, found or made."""

    def __init__(self) -> None:
        self.known: dict[str, int] = {}
        self.created: list[str] = []

    def account(self, email: str | None) -> int | None:
        if not email:
            return None
        key = email.strip().lower()
        if key not in self.known:
            user = get_user_model()
            found = user.objects.filter(email__iexact=key).order_by("pk").values_list("pk", flat=True).first()
            if found is None:
                found = self._create(email.strip()).pk
                self.created.append(email.strip())
            self.known[key] = found
        return self.known[key]

    def _create(self, email: str) -> AbstractBaseUser:
        user = get_user_model()
        base = email.split("@")[0][:140] or "member"
        name, n = base, 2
        while user.objects.filter(username=name).exists():
            name, n = f"{base}-{n}", n + 1
        account = user(username=name, email=email, is_active=False)
        account.set_password(secrets.token_urlsafe(32))
        account.save()
        return account
