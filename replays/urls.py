from django.urls import path

from replays import puzzle_views, views

urlpatterns = [
    path("", views.browse, name="browse"),
    path("upload/", views.upload, name="upload"),
    path("replays/<slug:public_id>/", views.viewer, name="viewer"),
    path("replays/<slug:public_id>/download/", views.download, name="download"),
    path("replays/<slug:public_id>/progress/", views.progress, name="progress"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
    path("accounts/signup/", views.signup, name="signup"),
    path("puzzles/", puzzle_views.archive, name="puzzle_archive"),
    path("puzzles/daily/", puzzle_views.daily, name="puzzle_daily"),
    path("puzzles/me/", puzzle_views.profile, name="puzzle_profile"),
    path("puzzles/leaderboard/", puzzle_views.leaderboard, name="puzzle_leaderboard"),
    path("puzzles/<slug:public_id>/", puzzle_views.puzzle, name="puzzle"),
    path("puzzles/<slug:public_id>/answer/", puzzle_views.answer, name="puzzle_answer"),
]
