"""``/record/``: a hand recorded from one seat (docs/recorder.md)."""

from django.urls import path

from replays.recorder import views

urlpatterns = [
    path("record/", views.start, name="record_start"),
    path("record/<str:public_id>/", views.page, name="record_page"),
    path("record/<str:public_id>/events/", views.save_event, name="record_event"),
    path("record/<str:public_id>/finish/", views.finish, name="record_finish"),
    path("record/<str:public_id>/discard/", views.discard, name="record_discard"),
]
