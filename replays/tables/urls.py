"""Tables with friends (issue 28; docs/tables.md)."""

from django.urls import path

from replays.tables import views

urlpatterns = [
    path("tables/", views.index, name="tables"),  # GET the lobby, POST creates a room
    path("tables/new", views.new, name="table_new"),
    path("tables/<slug:public_id>/", views.room_page, name="table_room"),
    path("tables/<slug:public_id>/state.json", views.state, name="table_state"),
    path("tables/<slug:public_id>/join", views.join, name="table_join"),
    path("tables/<slug:public_id>/start", views.start, name="table_start"),
    path("tables/<slug:public_id>/act", views.act, name="table_act"),
    path("tables/<slug:public_id>/leave", views.leave, name="table_leave"),
]
