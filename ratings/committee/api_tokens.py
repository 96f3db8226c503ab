"""The token of a list's read-only games API: stored as its hash only."""

from __future__ import annotations

import hashlib
import secrets

from ratings.models import RatingList


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_api_token(rating_list: RatingList) -> str:
    """(Re)generate the token a national body sends as "Authorization: Token
    <token>"; the old one stops working at once.  Only its SHA-256 is stored:
    the token is shown once, to the committee member who made it."""
    token = secrets.token_urlsafe(32)
    digest = _token_hash(token)
    RatingList.objects.filter(pk=rating_list.pk).update(api_token_hash=digest)
    rating_list.api_token_hash = digest
    return token


def list_for_token(token: str) -> RatingList | None:
    if not token:
        return None
    digest = _token_hash(token)
    found = RatingList.objects.filter(api_token_hash=digest).first()
    if found is None or not secrets.compare_digest(found.api_token_hash, digest):
        return None
    return found
