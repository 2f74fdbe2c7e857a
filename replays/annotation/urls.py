"""The annotation's progress, polled by the viewer."""

from django.urls import path

from replays.annotation import views

urlpatterns = [
    path("replays/<slug:public_id>/progress/", views.progress, name="progress"),
]
