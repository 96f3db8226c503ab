"""Login throttling, Content-Security-Policy and request size limits
(docs/limits.md)."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING

import pytest
import time_machine
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from pytest_django import Settings

from ratings.models import Club
from tests.support import PASSWORD, REPO, ClientFor, Personas

if TYPE_CHECKING:
    from tests.support import TestResponse

LOGIN = "/accounts/login/"


# --- login throttling -----------------------------------------------------------


def _login(client: Client, password: str) -> TestResponse:
    return client.post(LOGIN, {"username": "volunteer", "password": password})


def test_five_wrong_passwords_lock_the_username_out_even_with_the_right_one(
    personas: Personas,
) -> None:
    client = Client()
    for _ in range(4):
        assert _login(client, "wrong").status_code == 200  # the form again, with its error
    assert _login(client, "wrong").status_code == 429  # the fifth
    response = _login(client, PASSWORD)
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lockout_ends_after_the_cool_off(personas: Personas) -> None:
    client = Client()
    with time_machine.travel(timezone.now(), tick=False) as clock:
        for _ in range(5):
            _login(client, "wrong")
        assert _login(client, PASSWORD).status_code == 429
        clock.shift(timedelta(minutes=16))
        response = _login(client, PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(personas["volunteer"].pk)


def test_a_right_password_before_the_limit_resets_the_count(personas: Personas) -> None:
    client = Client()
    for _ in range(4):
        _login(client, "wrong")
    assert _login(client, PASSWORD).status_code == 302
    for _ in range(4):
        _login(Client(), "wrong")
    assert _login(Client(), PASSWORD).status_code == 302


# --- Content-Security-Policy ------------------------------------------------------


def test_every_page_carries_a_policy_without_inline_script_or_eval(client: Client, db: None) -> None:
    policy = client.get("/players/")["Content-Security-Policy"]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert directives["object-src"] == "'none'" and directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline <script>"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an on...= event handler attribute"),
    (re.compile(r"\shx-on", re.I), "hx-on (htmx evaluates it)"),
    (re.compile(r"""hx-vals=['"]\s*js:""", re.I), "hx-vals with js: (evaluated)"),
    (re.compile(r"<style", re.I), "an inline <style>"),
    (re.compile(r"""\sstyle\s*=\s*["']""", re.I), "a style attribute"),
]


def test_no_template_needs_what_the_policy_forbids() -> None:
    found = []
    for path in sorted((REPO / "templates").rglob("*.html")):
        text = path.read_text()
        found += [f"{path.relative_to(REPO)}: {what}" for pattern, what in INLINE if pattern.search(text)]
    assert found == []


# --- request size ------------------------------------------------------------------


def test_a_body_over_the_limit_is_refused_with_a_page_before_it_is_read(
    client_for: ClientFor, club: Club, settings: Settings
) -> None:
    settings.MAX_REQUEST_BYTES = 1024 * 1024
    upload = SimpleUploadedFile("big.h9", b"x" * (2 * 1024 * 1024))
    response = client_for("committee").post("/committee/import/", {"club": club.pk, "file": upload})
    html = response.content.decode()
    assert response.status_code == 413
    assert "What you sent is 2 MB; the site takes at most 1 MB in one request. Nothing was saved." in html
    assert 'class="site-header"' in html


def test_an_upload_over_the_file_limit_gets_a_form_error(
    client_for: ClientFor, club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ratings.forms import committee as forms_committee

    monkeypatch.setattr(forms_committee, "MAX_UPLOAD", 1024 * 1024)
    upload = SimpleUploadedFile("big.h9", b"x" * (3 * 1024 * 1024))
    response = client_for("committee").post("/committee/import/", {"club": club.pk, "file": upload})
    assert response.status_code == 400
    assert "big.h9 is 3 MB; the limit is 1 MB" in response.content.decode()


@pytest.mark.parametrize(
    "setting", ["DATA_UPLOAD_MAX_MEMORY_SIZE", "DATA_UPLOAD_MAX_NUMBER_FIELDS", "MAX_REQUEST_BYTES"]
)
def test_the_limits_are_set(settings: Settings, setting: str) -> None:
    assert isinstance(getattr(settings, setting), int) and getattr(settings, setting) > 0


def test_too_big_a_form_gets_a_page_that_says_why(
    client_for: ClientFor, club: Club, settings: Settings
) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    client = client_for("volunteer")
    client.raise_request_exception = False
    response = client.post("/sheets/new/", {"club": club.pk, "comments": "x" * 5000})
    assert response.status_code == 400
    assert "The form is bigger than" in response.content.decode()
