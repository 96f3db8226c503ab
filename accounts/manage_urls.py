"""URLs of list administration, mounted at the site root before ratings'
(so /lists/new/ and /lists/import/ are not taken for a list's page; "new" and
"import" are never slugs)."""

from django.urls import path

from accounts.views import archive, invitations, members, places

urlpatterns = [
    path("lists/new/", places.list_new, name="list_new"),
    path("lists/import/", archive.list_import, name="list_import"),
    path("lists/<slug:slug>/archive/", archive.list_archive, name="list_archive"),
    path("lists/<slug:slug>/archive/download/", archive.list_archive_download, name="list_archive_download"),
    path("lists/<slug:slug>/clubs/new/", places.club_new, name="club_new"),
    path("lists/<slug:slug>/members/", members.members, name="list_members"),
    path("lists/<slug:slug>/members/link/", members.link_player, name="link_player"),
    path("lists/<slug:slug>/invitations/", invitations.invitation_list, name="invitations"),
    path("lists/<slug:slug>/link-requests/", members.link_requests, name="link_requests"),
    path("seats/volunteer/<int:pk>/remove/", members.volunteer_remove, name="volunteer_remove"),
    path("seats/committee/<int:pk>/remove/", members.committee_remove, name="committee_remove"),
    path("invitations/<int:pk>/withdraw/", invitations.invitation_withdraw, name="invitation_withdraw"),
    path(
        "link-requests/<int:pk>/approve/",
        members.link_request_decide,
        {"decision": "approve"},
        name="link_request_approve",
    ),
    path(
        "link-requests/<int:pk>/refuse/",
        members.link_request_decide,
        {"decision": "refuse"},
        name="link_request_refuse",
    ),
    path("players/<slug:slug>/unlink/", members.unlink_player, name="unlink_player"),
    path("players/<slug:slug>/claim/", members.claim_player, name="claim_player"),
]
