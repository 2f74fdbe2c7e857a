"""Match ledgers (issue 30, docs/ledger.md): a game played at a real table, a row per hand.

A ledger belongs to a signed-in owner, or to a guest's device: the random device key kept in
that browser's cookie (``LEDGER_DEVICE_COOKIE``) is the guest's credential. Anyone with its
``share_token`` reads it (and follows it live); only its owner writes. A row keeps the hand
as entered (``record``: the form's fields, read again by ``replays.ledger.rows``); its
payments are the engine's, worked out again whenever the ledger is shown, never stored.
``client_id`` is the id the entering device gave the row: a row sent twice (a retry after
the network came back) is stored once.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from replays.models.matches import Match, new_public_id


def new_share_token() -> str:
    """An unguessable token for the read-only link (about 190 bits)."""
    return secrets.token_urlsafe(24)


class Ledger(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    share_token = models.CharField(max_length=40, unique=True, default=new_share_token,
                                   editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="ledgers")
    device = models.CharField(max_length=64, blank=True, db_index=True,
                              help_text="A guest's device key (its cookie) when not signed in")
    variant = models.CharField(max_length=8, choices=Match.Variant.choices)
    preset = models.CharField(max_length=20, blank=True)
    rules = models.JSONField(default=dict, blank=True)
    names = models.JSONField(help_text="The four players' names, in seat order")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} ledger {self.public_id}"

    def get_absolute_url(self) -> str:
        return reverse("ledger", args=[self.public_id])


class LedgerRow(models.Model):
    ledger = models.ForeignKey(Ledger, on_delete=models.CASCADE, related_name="rows")
    number = models.PositiveIntegerField(help_text="1, 2, … in the order entered")
    client_id = models.CharField(max_length=64, help_text="The entering device's id of the "
                                                          "row: a retry is stored once")
    record = models.JSONField(help_text="The hand as entered (the row form's fields)")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["ledger", "number"]
        constraints = [
            models.UniqueConstraint(fields=["ledger", "client_id"], name="ledger_row_once"),
            models.UniqueConstraint(fields=["ledger", "number"], name="ledger_row_number"),
        ]

    def __str__(self) -> str:
        return f"row {self.number} of {self.ledger_id}"
