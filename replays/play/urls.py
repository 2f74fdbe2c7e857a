"""Playing against the bots (issue 14; docs/play.md, "The site")."""

from django.urls import path

from replays.play import views

urlpatterns = [
    path("play/", views.index, name="play"),
    path("bots/", views.bots_page, name="bots"),
    path("play/puzzle-consent", views.puzzles_consent, name="play_puzzles_consent"),
    path("play/<slug:public_id>/", views.table_page, name="play_table"),
    path("play/<slug:public_id>/state.json", views.state, name="play_state"),
    path("play/<slug:public_id>/act", views.act, name="play_act"),
    path("play/<slug:public_id>/hint", views.hint, name="play_hint"),
    path("play/<slug:public_id>/leave", views.leave, name="play_leave"),
    path("play/<slug:public_id>/keep", views.keep, name="play_keep"),
]
