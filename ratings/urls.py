"""URL map of the site.  Each area's routes live in their own block."""

from django.urls import path

from ratings.views import home

urlpatterns = [
    path("", home.home, name="home"),
    # --- players, record sheets, log (ratings/views/players.py, log.py) ---
    # --- record-sheet entry, game edit/delete (ratings/views/sheets.py) ---
    # --- recompute status and runs (ratings/views/recompute.py) ---
    # --- committee: adjustments, rank sync, import/export (ratings/views/committee.py) ---
]
