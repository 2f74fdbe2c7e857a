"""The ledger's WebSocket route (mahjong_site/asgi.py)."""

from django.urls import path

from replays.ledger.consumers import LedgerConsumer

websocket_urlpatterns = [
    path("ledger/s/<str:token>/ws", LedgerConsumer.as_asgi()),
]
