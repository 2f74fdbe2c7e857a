"""The tables' WebSocket routes (mahjong_site/asgi.py)."""

from django.urls import path

from replays.tables.consumers import TableConsumer

websocket_urlpatterns = [
    path("tables/<slug:public_id>/ws", TableConsumer.as_asgi()),
]
