"""The 403 and 404 pages: in the site's layout, saying why and where to go."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from ratings.models import Club
from tests.support import ClientFor


@pytest.mark.parametrize("role", ["player", "volunteer"])
def test_a_refused_page_explains_which_login_it_needs(client_for: ClientFor, club: Club, role: str) -> None:
    response = client_for(role).get(reverse("adjustments"))
    html = response.content.decode()
    assert response.status_code == 403
    assert 'class="site-header"' in html  # the site's navigation, not a bare page
    assert f"logged in as <b>{role}</b>" in html
    assert "volunteer of that club" in html and "member of that list's committee" in html
    assert f'href="{reverse("players")}"' in html


def test_an_unknown_page_is_404_with_a_way_back(client: Client, db: None) -> None:
    response = client.get(reverse("player", args=["nobody-at-all"]))
    html = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in html and 'class="site-header"' in html
    assert f'href="{reverse("players")}"' in html


def test_the_server_error_page_renders_without_a_request() -> None:
    from django.template.loader import render_to_string

    html = render_to_string("500.html")
    assert "Something went wrong" in html and "css/site.css" in html
