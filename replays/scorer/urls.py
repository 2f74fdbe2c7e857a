"""The hand scorer (issue 30; docs/scorer.md)."""

from django.urls import path

from replays.scorer import views

urlpatterns = [
    path("score/", views.score, name="score"),
    path("score/sw.js", views.service_worker, name="score_sw"),
    path("score/manifest.webmanifest", views.manifest, name="score_manifest"),
]
