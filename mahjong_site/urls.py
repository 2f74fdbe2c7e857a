"""URL routes: the replays app (its library, annotation, puzzles and operations parts),
accounts, the admin and the language switcher."""

from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("", include("replays.urls")),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
