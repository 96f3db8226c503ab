"""URL map of the site.  Each area's routes live in their own block."""

from django.urls import path

from ratings.views import home
from ratings.views import log, players

urlpatterns = [
    path("", home.home, name="home"),
    # --- players, record sheets, log (ratings/views/players.py, log.py) ---
    path("players/", players.player_list, name="players"),
    path("players/<slug:slug>/", players.player_detail, name="player"),
    path("me/", players.my_sheet, name="my_sheet"),
    path("log/", log.log, name="log"),
    # --- record-sheet entry, game edit/delete (ratings/views/sheets.py) ---
    # --- recompute status and runs (ratings/views/recompute.py) ---
    # --- committee: adjustments, rank sync, import/export (ratings/views/committee.py) ---
]
