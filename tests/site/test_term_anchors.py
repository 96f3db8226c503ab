"""Every term a game page can link to has its anchor on the system's "How
ratings work" page: the game page links ``how/<system>/#term-<key>`` for each
term the engine names, with the words of ratings/explain/terms.py."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from ratings.explain.terms import WORDS


@pytest.mark.django_db
@pytest.mark.parametrize("system", sorted(WORDS))
def test_each_described_term_has_its_anchor_on_the_how_page(system: str, client: Client) -> None:
    page = client.get(reverse("how_system", args=[system]))
    assert page.status_code == 200
    anchors = set(re.findall(r'id="term-([^"]+)"', page.content.decode()))
    missing = sorted(set(WORDS[system]) - anchors)
    assert not missing, (
        f"{system}: terms described for the game page without an anchor on how/{system}/: {missing}"
    )
