"""Puzzles: the daily one, one puzzle and its answer, the archive, progress, leaders."""

from django.urls import path

from replays.puzzles import views

urlpatterns = [
    path("puzzles/", views.archive, name="puzzle_archive"),
    path("puzzles/daily/", views.daily, name="puzzle_daily"),
    path("puzzles/me/", views.profile, name="puzzle_profile"),
    path("puzzles/leaderboard/", views.leaderboard, name="puzzle_leaderboard"),
    path("puzzles/<slug:public_id>/", views.puzzle, name="puzzle"),
    path("puzzles/<slug:public_id>/answer/", views.answer, name="puzzle_answer"),
]
