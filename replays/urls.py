"""The site's parts, each with its own routes (URL names are global: tests and templates
use them as they are)."""

from django.urls import include, path

urlpatterns = [
    path("", include("replays.library.urls")),
    path("", include("replays.annotation.urls")),
    path("", include("replays.puzzles.urls")),
    path("", include("replays.operations.urls")),
    path("", include("replays.play.urls")),
    path("", include("replays.tables.urls")),
    path("", include("replays.scorer.urls")),
    path("", include("replays.recorder.urls")),
    path("", include("replays.ledger.urls")),
]
