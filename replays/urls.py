from django.urls import path

from replays import views

urlpatterns = [
    path("", views.browse, name="browse"),
    path("upload/", views.upload, name="upload"),
    path("replays/<slug:public_id>/", views.viewer, name="viewer"),
    path("replays/<slug:public_id>/download/", views.download, name="download"),
    path("replays/<slug:public_id>/progress/", views.progress, name="progress"),
    path("rules/<slug:variant>/", views.rules, name="rules"),
    path("accounts/signup/", views.signup, name="signup"),
]
