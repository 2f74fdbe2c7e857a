"""URL routes: the replays app, accounts, the admin, the language switcher, and operations
(the staff dashboard and the load balancer's health check, docs/deploy.md)."""

from django.contrib import admin
from django.urls import include, path

from replays import dashboard, health

urlpatterns = [
    path("", include("replays.urls")),
    path("dashboard/", dashboard.dashboard, name="dashboard"),
    path("dashboard/retry/<int:match_id>/", dashboard.retry, name="dashboard_retry"),
    path("healthz", health.healthz, name="healthz"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
