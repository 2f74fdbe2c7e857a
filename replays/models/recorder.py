"""A hand being recorded from one seat at the table (``/record/``, docs/recorder.md).

The row is the draft: the setup and the events saved so far, each saved once by its
client sequence number (a retry after a network drop repeats the number and is not saved
twice). Finishing checks the seat-view document and stores it as a
:class:`~replays.models.Match`, which the row then points to.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from replays.models.matches import Match, new_public_id


class SeatRecord(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="+")
    visitor = models.CharField(max_length=40, blank=True,
                               help_text="An anonymous recorder's session key")
    variant = models.CharField(max_length=16)
    rules = models.JSONField(default=dict)
    players = models.JSONField(default=list)
    seat = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    dice = models.JSONField(default=list)
    deal = models.JSONField(default=list, help_text="The recorder's own starting tiles")
    events = models.JSONField(default=list)
    last_seq = models.PositiveIntegerField(default=0)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]

    @property
    def variant_label(self) -> str:
        """The game's name in the reader's language."""
        return str(Match.Variant(self.variant).label)

    @property
    def seat_name(self) -> str:
        """The recorder's name, as the setup gave it."""
        return str(self.players[self.seat]) if self.seat < len(self.players) else str(self.seat)

    def __str__(self) -> str:
        return f"{self.variant} from seat {self.seat} ({len(self.events)} events)"
