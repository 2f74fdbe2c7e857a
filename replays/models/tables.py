"""Tables with friends (issue 28, docs/tables.md): a room of four seats, people and bots.

The room holds the secret seed from its creation (its SHA-256, the commitment, is shown at
once) and, once started, the engine's ``mahjong-room/1`` row (``RoomMatch.to_json``): only
the server reads them; pages, JSON and socket messages see a seat's view. Each seat has a
ticket, kept in its player's session as the seat's credential, and its own timer: the
deadline of its open decision (``deadline``, for the decision opened at ``decision_step``),
applied once by whoever clears it first (a conditional UPDATE).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from replays.models.matches import Match, new_public_id


class Room(models.Model):
    public_id = models.CharField(max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                on_delete=models.SET_NULL, related_name="rooms")
    visitor = models.CharField(max_length=32, blank=True, db_index=True,
                               help_text="The creator's session id when not signed in")
    variant = models.CharField(max_length=8, choices=Match.Variant.choices)
    rules = models.JSONField(default=dict, blank=True)
    hands = models.PositiveIntegerField()
    humans = models.PositiveSmallIntegerField(help_text="Seats for people, 1 to 4")
    level = models.CharField(max_length=16, default="basic")
    decision_seconds = models.PositiveIntegerField(default=20)
    bank_seconds = models.PositiveIntegerField(default=60)
    private = models.BooleanField(default=True, help_text="Only by the invite link; else "
                                                          "listed in the lobby")
    spectators = models.BooleanField(default=False)
    seed = models.CharField(max_length=64, help_text="Secret until the match is over")
    commitment = models.CharField(max_length=64)
    started = models.BooleanField(default=False)
    over = models.BooleanField(default=False, db_index=True)
    state = models.JSONField(null=True, blank=True,
                             help_text="RoomMatch.to_json() once started, as last written "
                                       "whole (what changed since is in moves): holds the "
                                       "seed")
    step = models.PositiveIntegerField(default=0)
    moves = models.JSONField(
        null=True, blank=True,
        help_text="The changes since the state was last written whole, and the last few "
                  "before: each the inputs it applied (answers, the bot taking or giving back "
                  "a seat, a leave) from one step to the next, a digest of what they "
                  "recorded, and what it added to the state (its events, the step, who is "
                  "asked); {state_at: the stored state's step, changes: [...]}")
    replay = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+", help_text="The replay of an anonymous "
                                                           "player (unlisted)")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} table {self.public_id}"

    def get_absolute_url(self) -> str:
        return reverse("table_room", args=[self.public_id])


class Seat(models.Model):
    class Kind(models.TextChoices):
        HUMAN = "human", _("person")
        BOT = "bot", _("bot")

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    name = models.CharField(max_length=40, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="+")
    ticket = models.CharField(max_length=64, blank=True, db_index=True,
                              help_text="The seat's credential, kept in its player's session")
    taken = models.BooleanField(default=False)
    connected = models.BooleanField(default=False)
    last_seen = models.DateTimeField(null=True, blank=True)
    disconnected_at = models.DateTimeField(null=True, blank=True)
    bank_left = models.FloatField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    decision_step = models.PositiveIntegerField(null=True, blank=True)
    decision_started = models.DateTimeField(null=True, blank=True)
    replay = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")

    class Meta:
        ordering = ["room", "number"]
        constraints = [models.UniqueConstraint(fields=["room", "number"],
                                               name="one_seat_per_number")]

    def __str__(self) -> str:
        return f"seat {self.number} of {self.room_id}"
