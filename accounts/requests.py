"""The request of a signed-in user, as the type checker sees it.

``HttpRequest.user`` is a User or an AnonymousUser.  Behind
``login_required`` it is always a User: views there take an
``AuthenticatedHttpRequest`` (the pattern the django-stubs documentation
gives), and views open to everybody ask ``signed_in_user`` who is there.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.http import HttpRequest


class AuthenticatedHttpRequest(HttpRequest):
    """A request behind ``login_required``: its user is signed in."""

    user: User


def signed_in_user(request: HttpRequest) -> User | None:
    """The request's user when signed in, None for an anonymous visitor."""
    user: User | AnonymousUser = request.user
    return user if isinstance(user, User) and user.is_authenticated else None
