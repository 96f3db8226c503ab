"""Read-only JSON API for national bodies (documented in docs/api.md).

``GET /api/games/?list=SLUG[&club=SLUG]&from=YYYY-MM-DD&to=YYYY-MM-DD&page_size=M[&cursor=C]``
returns ``{"next", "results"}``; each result has the fields of
ratings.exchange.GAME_FIELDS plus the game's ``id``, in timeline order: the
rating list's games (only those played at ``club``, a club of the list, when
given).  Pages by keyset (ratings/committee/exports.py): ``next`` carries the cursor of
the page's last game.  ``list`` may be left out when the site has one list,
or with a token.  Access: a logged-in member of the list's committee, or the
header ``Authorization: Token <the list's API token>`` for that list's games.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from accounts.requests import signed_in_user
from accounts.roles import is_committee_of
from ratings import committee
from ratings.committee import exports
from ratings.models import Club, RatingList

DEFAULT_PAGE_SIZE = 100
MAX_PAGE_SIZE = 1000


def _error(status: int, message: str, **headers: str) -> JsonResponse:
    response = JsonResponse({"error": message}, status=status)
    for name, value in headers.items():
        response[name] = value
    return response


def _token(request: HttpRequest) -> str | None:
    """The token of an "Authorization: Token <token>" header; None when there is none."""
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "token" else ""


class _Bad(ValueError):
    pass


def _date(request: HttpRequest, name: str) -> date | None:
    text = request.GET.get(name, "").strip()
    if not text:
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise _Bad(f"{name}: {text!r} is not a date (YYYY-MM-DD)") from None


def _number(request: HttpRequest, name: str, default: int, top: int) -> int:
    text = request.GET.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or not 1 <= int(text) <= top:
        raise _Bad(f"{name}: {text!r} must be a whole number from 1 to {top}")
    return int(text)


def _cursor(request: HttpRequest) -> exports.TimelineKey | None:
    """Where the page starts: ``cursor`` from the previous page's ``next``.
    The numbered pages of the first version (``page=N``) are gone: a client
    still asking for page 2 would get page 1 again and again, so it is told."""
    if request.GET.get("page", "1").strip() != "1":
        raise _Bad("page: this API pages with a cursor; follow the 'next' link of each page (docs/api.md)")
    text = request.GET.get("cursor", "").strip()
    if not text:
        return None
    try:
        return exports.decode_cursor(text)
    except ValueError as error:
        raise _Bad(f"cursor: {error}") from None


def _rating_list(request: HttpRequest) -> RatingList | JsonResponse:
    """The list the caller may read, or the refusal (401 / 403 / 404 / 400)."""
    slug = request.GET.get("list", "").strip()
    token = _token(request)
    if token is not None:
        found = committee.list_for_token(token)
        if found is None:
            return _error(401, "unknown API token", **{"WWW-Authenticate": "Token"})
        if slug and slug != found.slug:
            return _error(403, f"this token reads the games of {found.slug}, not of {slug}")
        return found
    user = signed_in_user(request)
    if user is None:
        return _error(
            401, "log in, or send the header 'Authorization: Token <token>'", **{"WWW-Authenticate": "Token"}
        )
    if slug:
        chosen = RatingList.objects.filter(slug=slug).first()
        if chosen is None:
            return _error(404, f"list: no list {slug!r}")
    else:
        only = list(RatingList.objects.all()[:2])
        if len(only) != 1:
            return _error(400, "list: give the rating list's slug, e.g. ?list=sagc")
        chosen = only[0]
    if not is_committee_of(user, chosen.pk):
        return _error(403, f"only the committee of {chosen} and national bodies with its token read this API")
    return chosen


def _club(request: HttpRequest, rating_list: RatingList) -> Club | None:
    slug = request.GET.get("club", "").strip()
    if not slug:
        return None
    club = Club.objects.filter(slug=slug, rating_list=rating_list).first()
    if club is None:
        raise _Bad(f"club: {rating_list} has no club {slug!r}")
    return club


def _link(request: HttpRequest, cursor: str | None) -> str | None:
    if cursor is None:
        return None
    query = request.GET.copy()
    query["cursor"] = cursor
    return request.build_absolute_uri(f"{request.path}?{query.urlencode()}")


@require_GET
def games(request: HttpRequest) -> JsonResponse:
    rating_list = _rating_list(request)
    if isinstance(rating_list, JsonResponse):
        return rating_list
    try:
        club = _club(request, rating_list)
        start, end = _date(request, "from"), _date(request, "to")
        size = _number(request, "page_size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)
        cursor = _cursor(request)
    except _Bad as error:
        return _error(400, str(error))
    if start and end and start > end:
        return _error(400, f"to: {end} is before from: {start}")
    result = exports.api_page(rating_list, start, end, cursor, size, club=club)
    body: dict[str, Any] = {"next": _link(request, result.next_cursor), "results": result.records}
    return JsonResponse(body, json_dumps_params={"ensure_ascii": False})
