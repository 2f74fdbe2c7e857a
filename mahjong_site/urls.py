"""URL routes: the replays app (its library, annotation, puzzles and operations parts),
accounts, the admin and the language switcher.

Accounts: log in, log out and change a password; failed log-ins, the admin's included, are
counted per (name, address) and per address by django-axes (replays/lockouts.py). Resetting
a forgotten password is not offered: the site keeps no verified e-mail addresses to send a
reset to (issue 16).
"""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("", include("replays.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/password_change/", auth_views.PasswordChangeView.as_view(),
         name="password_change"),
    path("accounts/password_change/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
