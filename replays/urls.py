from django.urls import path

from replays import views

urlpatterns = [
    path("", views.browse, name="browse"),
    path("upload/", views.upload, name="upload"),
    path("replays/<str:public_id>/", views.viewer, name="viewer"),
    path("replays/<str:public_id>/download/", views.download, name="download"),
    path("rules/<str:variant>/", views.rules, name="rules"),
    path("accounts/signup/", views.signup, name="signup"),
]
