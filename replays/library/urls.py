"""The replay library: browse, upload, the viewer, downloads, rules pages, sign-up."""

from django.urls import path

from replays.library import views

urlpatterns = [
    path("", views.browse, name="browse"),
    path("upload/", views.upload, name="upload"),
    path("upload/checks/<slug:public_id>/", views.upload_check, name="upload_check"),
    path("replays/<slug:public_id>/", views.viewer, name="viewer"),
    path("replays/<slug:public_id>/hands/", views.overview, name="overview"),
    path("replays/<slug:public_id>/download/", views.download, name="download"),
    path("replays/<slug:public_id>/visibility/", views.change_visibility,
         name="change_visibility"),
    path("replays/<slug:public_id>/delete/", views.delete_match, name="delete_match"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
    path("accounts/signup/", views.signup, name="signup"),
]
