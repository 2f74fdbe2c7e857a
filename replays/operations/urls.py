"""Operations: the staff dashboard and the load balancer's health check (docs/deploy.md)."""

from django.urls import path

from replays.operations import views

urlpatterns = [
    path("dashboard/", views.dashboard, name="dashboard"),
    path("dashboard/retry/<int:match_id>/", views.retry, name="dashboard_retry"),
    path("healthz", views.healthz, name="healthz"),
]
