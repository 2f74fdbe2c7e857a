"""The match ledger (issue 30; docs/ledger.md)."""

from django.urls import path

from replays.ledger import views

urlpatterns = [
    path("ledger/", views.index, name="ledgers"),
    path("ledger/new", views.create, name="ledger_new"),
    path("ledger/s/<str:token>/", views.shared, name="ledger_shared"),
    path("ledger/<slug:public_id>/", views.page, name="ledger"),
    path("ledger/<slug:public_id>/rows", views.add_row, name="ledger_row"),
    path("ledger/<slug:public_id>/undo", views.undo, name="ledger_undo"),
    path("ledger/<slug:public_id>/delete", views.delete, name="ledger_delete"),
]
