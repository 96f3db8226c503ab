"""A forgotten password is reset in the browser: a one-time link by e-mail
(Django's reset views), no shell and no committee needed."""

from __future__ import annotations

import re

from django.contrib.auth.models import User
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.support import Personas

NEW = "a-brand-new-secret-42"


def test_a_user_resets_a_forgotten_password_by_the_e_mailed_link(personas: Personas) -> None:
    client = Client()
    assert reverse("password_reset") in client.get(reverse("login")).content.decode()
    response = client.post(reverse("password_reset"), {"email": "volunteer@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["volunteer@example.org"]
    link = re.search(
        r"http://testserver(/accounts/password/reset/[^/\s]+/[^/\s]+/)", str(mail.outbox[0].body)
    )
    assert link, mail.outbox[0].body
    form_page = client.get(link.group(1), follow=True)
    assert "Choose a new password" in form_page.content.decode()
    done = client.post(form_page.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW})
    assert done.status_code == 302 and done["Location"] == reverse("password_reset_complete")
    assert User.objects.get(username="volunteer").check_password(NEW)
    again = Client().get(link.group(1), follow=True).content.decode()
    assert "can't be used" in again, "the link works once"


def test_an_unknown_address_sends_nothing_and_says_the_same(db: None) -> None:
    response = Client().post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert response.status_code == 302 and response["Location"] == reverse("password_reset_done")
    assert not mail.outbox
