"""Request limits of the whole site (docs/limits.md): what is refused before
any view runs, and the pages that say why.

- :class:`RequestLimitsMiddleware`: a body larger than MAX_REQUEST_BYTES is
  refused with 413 before it is read; a NUL character in a query or form
  field (never valid in text, and refused by PostgreSQL) gets 400.
- :func:`bad_request`: the 400 page (handler400) names the reason Django
  refused a request: too many form fields (a record sheet far over its
  limit), a body over DATA_UPLOAD_MAX_MEMORY_SIZE, a bad multipart body.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def _megabytes(size: int) -> str:
    return f"{size / (1024 * 1024):.0f} MB"


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path:
        return True
    fields = [request.GET]
    if request.method == "POST" and request.content_type in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        fields.append(request.POST)
    return any("\x00" in key or any("\x00" in v for v in q.getlist(key)) for q in fields for key in q)


def refusal(request: HttpRequest, status: int, title: str, reason: str) -> HttpResponse:
    """The page saying why; for the JSON API, its usual {"error": ...} (docs/api.md)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"error": reason}, status=status)
    return render(request, "400.html", {"title": title, "reason": reason}, status=status)


class RequestLimitsMiddleware:
    """Refuse oversized bodies (413) and NUL characters (400) with a page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = request.META.get("CONTENT_LENGTH") or ""
        if length.isdigit() and int(length) > settings.MAX_REQUEST_BYTES:
            return refusal(
                request,
                413,
                "Too large",
                f"What you sent is {_megabytes(int(length))}; the site takes at most "
                f"{_megabytes(settings.MAX_REQUEST_BYTES)} in one request. Nothing was saved.",
            )
        if _has_nul(request):
            return refusal(
                request,
                400,
                "Bad request",
                "A field contains a NUL character (\\0), which no name, date or comment can hold. "
                "Nothing was saved; type the text again rather than pasting it.",
            )
        return self.get_response(request)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    """handler400: Django refused the request before the view; say why."""
    if isinstance(exception, TooManyFieldsSent):
        reason = (
            f"The form sent more than {settings.DATA_UPLOAD_MAX_NUMBER_FIELDS} fields. A record sheet "
            "holds at most 200 games: split the games over several sheets. Nothing was saved."
        )
    elif isinstance(exception, RequestDataTooBig):
        reason = (
            f"The form is bigger than {_megabytes(settings.DATA_UPLOAD_MAX_MEMORY_SIZE)} (files apart). "
            "Nothing was saved."
        )
    else:
        reason = "The request could not be read. Nothing was saved."
    return refusal(request, 400, "Bad request", reason)
