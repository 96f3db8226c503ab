"""URL map of the site.  Each area's routes live in their own block."""

from django.urls import path

from ratings.views import (
    adjustments,
    api,
    committee,
    events,
    home,
    how,
    log,
    past_games,  # a list's past from another system
    places,
    players,
    sheets,
)  # committee area
from ratings.views import feeds as feed_views  # a record sheet's Atom feed
from ratings.views import games as game_views  # a game's and an adjustment's change, explained
from ratings.views import kit as kit_views  # club-night kit
from ratings.views import notices as notice_views  # e-mails about late changes
from ratings.views import player_changes as player_change_views  # rename, merge
from ratings.views import predictions as prediction_views  # which system predicts best
from ratings.views import recompute as recompute_views  # recompute area
from ratings.views import sheet_changes as sheet_change_views  # changes to a saved sheet

urlpatterns = [
    path("", home.home, name="home"),
    path("favicon.ico", home.favicon, name="favicon"),
    # --- players, record sheets, log (ratings/views/players.py, log.py) ---
    path("players/", players.player_list, name="players"),
    path("players/<slug:slug>/", players.player_detail, name="player"),
    path("players/<slug:slug>/vs/<slug:other>/", players.head_to_head, name="head_to_head"),
    path("players/<slug:slug>/feed/", feed_views.RecordSheetFeed(), name="player_feed"),
    path("players/<slug:slug>/notices/", notice_views.player_notices, name="player_notices"),
    path("notices/unsubscribe/<str:token>/", notice_views.unsubscribe, name="notice_unsubscribe"),
    path("players/<slug:slug>/rename/", player_change_views.player_rename, name="player_rename"),
    path("players/<slug:slug>/merge/", player_change_views.player_merge, name="player_merge"),
    path("log/<int:pk>/unmerge/", player_change_views.player_unmerge, name="player_unmerge"),
    path("lists/<slug:slug>/duplicates/", player_change_views.list_duplicates, name="list_duplicates"),
    path(
        "lists/<slug:slug>/duplicates/different/",
        player_change_views.list_duplicates_different,
        name="list_duplicates_different",
    ),
    path("me/", players.my_sheet, name="my_sheet"),
    path("log/", log.log, name="log"),
    # --- a rating change explained (ratings/views/games.py) ---
    path("games/<int:pk>/", game_views.game, name="game"),
    path("adjustments/<int:pk>/", game_views.adjustment, name="adjustment"),
    # --- record-sheet entry, game edit/delete (ratings/views/sheets.py) ---
    path("sheets/new/", sheets.sheet_new, name="sheet_new"),
    path("sheets/new/row/", sheets.sheet_row, name="sheet_row"),
    path("sheets/new/players/", sheets.sheet_players, name="sheet_players"),
    path("sheets/new/player-check/", sheets.sheet_player_check, name="sheet_player_check"),
    path("sheets/new/suggest/", sheets.sheet_suggest, name="sheet_suggest"),
    path("sheets/<int:pk>/", sheets.sheet_detail, name="sheet"),
    path("sheets/<int:pk>/add/", sheet_change_views.sheet_add_game, name="sheet_add_game"),
    path("sheets/<int:pk>/delete/", sheet_change_views.sheet_delete, name="sheet_delete"),
    path("log/<int:pk>/restore/", sheet_change_views.sheet_restore, name="sheet_restore"),
    path("games/<int:pk>/edit/", sheets.game_edit, name="game_edit"),
    path("games/<int:pk>/delete/", sheets.game_delete, name="game_delete"),
    path("adjustments/", adjustments.adjustment_list, name="adjustments"),
    path("adjustments/new/", adjustments.adjustment_new, name="adjustment_new"),
    # --- rating lists and clubs (ratings/views/places.py) ---
    path("lists/<slug:slug>/", places.rating_list, name="rating_list"),
    path("lists/<slug:slug>/settings/", adjustments.list_settings, name="list_settings"),
    path("lists/<slug:slug>/ranks/<str:name>", places.rank_file, name="rank_file"),
    path("lists/<slug:slug>/codes/", committee.national_codes, name="national_codes"),
    path("clubs/<slug:slug>/", places.club, name="club"),
    # --- events: a sheet's crosstable, a list's and a club's events (ratings/views/events.py) ---
    path("events/<int:pk>/", events.event, name="event"),
    path("lists/<slug:slug>/events/", events.list_events, name="list_events"),
    path("clubs/<slug:slug>/events/", events.club_events, name="club_events"),
    path("clubs/<slug:slug>/kit/", kit_views.club_kit, name="club_kit"),
    # --- recompute status and runs (ratings/views/recompute.py) ---
    path("recompute/", recompute_views.recompute_status, name="recompute_status"),
    path("recompute/<slug:slug>/", recompute_views.recompute_now, name="recompute_now"),
    # --- committee: adjustments, rank sync, import/export (ratings/views/committee.py) ---
    path("committee/ranks/", committee.rank_sync_list, name="rank_syncs"),
    path("committee/ranks/new/", committee.rank_sync_new, name="rank_sync_new"),
    path("committee/ranks/<int:pk>/", committee.rank_sync, name="rank_sync"),
    path("committee/export/", committee.export, name="export"),
    path("committee/export/token/", committee.export_token, name="export_token"),
    path("committee/import/", committee.tournament_import, name="tournament_import"),
    path("committee/past-games/", past_games.past_games_import, name="past_games"),
    path("committee/past-games/<int:pk>/", past_games.past_games_preview, name="past_games_preview"),
    path("committee/import/<int:pk>/", committee.tournament_import_preview, name="tournament_import_preview"),
    path("api/games/", api.games, name="api_games"),
    # --- which system predicts best, handicap advice (ratings/views/predictions.py) ---
    path("lists/<slug:slug>/predictions/", prediction_views.list_predictions, name="list_predictions"),
    path(
        "lists/<slug:slug>/predictions/compute/",
        prediction_views.list_predictions_compute,
        name="list_predictions_compute",
    ),
    path("handicap/", prediction_views.handicap, name="handicap"),
    path("sheets/new/advice/", prediction_views.sheet_advice, name="sheet_advice"),
    # --- how ratings work: every system's rules and terms (ratings/views/how.py) ---
    path("how/", how.how, name="how"),
    path("how/<slug:system>/", how.how_system, name="how_system"),
]
