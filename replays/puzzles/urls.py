"""Puzzles: the daily one, one puzzle and its answer, the archive, progress, leaders, and
training (the rated stream, streak and timed runs, retrying the misses)."""

from django.urls import path

from replays.puzzles import training_views, views

urlpatterns = [
    path("puzzles/", views.archive, name="puzzle_archive"),
    path("puzzles/daily/", views.daily, name="puzzle_daily"),
    path("puzzles/me/", views.profile, name="puzzle_profile"),
    path("puzzles/leaderboard/", views.leaderboard, name="puzzle_leaderboard"),
    path("puzzles/train/", training_views.hub, name="training"),
    path("puzzles/train/rated/", training_views.rated, name="training_rated"),
    path("puzzles/train/rated/<slug:public_id>/", training_views.rated_puzzle,
         name="training_rated_puzzle"),
    path("puzzles/train/start/", training_views.start, name="training_start"),
    path("puzzles/train/run/<slug:public_id>/", training_views.run_page, name="training_run"),
    path("puzzles/train/run/<slug:public_id>/answer/", training_views.run_answer,
         name="training_run_answer"),
    path("puzzles/train/missed/", training_views.missed, name="training_missed"),
    path("puzzles/train/missed/<slug:public_id>/", training_views.retry,
         name="training_retry"),
    path("puzzles/<slug:public_id>/", views.puzzle, name="puzzle"),
    path("puzzles/<slug:public_id>/answer/", views.answer, name="puzzle_answer"),
]
