"""Following a ledger live (issue 30): when a row is added or undone, every reader of its
share link is told, through the channel layer the tables use (``CHANNEL_LAYERS``), once the
change is committed; their page then fetches the ledger again. Without a channel layer, or
with it down, nothing is pushed and pages still reload.

>>> group("AbC_d-1")
'ledger.AbC_d-1'
>>> message(5)
{'type': 'ledger.changed', 'rows': 5}
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from replays.models.ledger import Ledger

log = logging.getLogger(__name__)


def group(token: str) -> str:
    """The channel layer's group of the sockets following a ledger (its share token is made
    of letters, digits, '-' and '_', which group names allow)."""
    return f"ledger.{token}"


def message(rows: int) -> dict[str, object]:
    return {"type": "ledger.changed", "rows": rows}


def changed(ledger: Ledger, rows: int) -> None:
    """Tell the ledger's followers, once the change is committed, how many rows it has now."""
    layer = get_channel_layer()
    if layer is None:
        return
    token = ledger.share_token

    def committed() -> None:
        try:
            async_to_sync(layer.group_send)(group(token), message(rows))
        except Exception as error:  # noqa: BLE001 - the layer is down: pages still reload
            log.warning("ledger %s: no push (%s: %s)", token, type(error).__name__, error)

    transaction.on_commit(committed)
