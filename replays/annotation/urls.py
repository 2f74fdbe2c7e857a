"""The annotation's progress, polled by the viewer."""

from django.urls import path

from replays.annotation import views

urlpatterns = [
    path("replays/<slug:public_id>/progress/", views.progress, name="progress"),
    path("replays/<slug:public_id>/values/", views.values_progress, name="values_progress"),
    path("replays/<slug:public_id>/values/all-seats/", views.value_all_seats,
         name="value_all_seats"),
    path("me/trends/", views.my_trends, name="my_trends"),
]
