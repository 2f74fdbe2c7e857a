"""Stored matches: the uploaded document byte for byte, its hands and their events.

Why events are stored per hand, as one ordered JSON array (docs/storage.md):
a replay always reads a whole hand (the viewer replays it up to the step
asked for), so one row per hand is one read; a row per event would multiply
rows by ~100 for no query the site needs. The document itself is kept as the
exact bytes uploaded, for download and for re-reading with a newer engine.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


def new_public_id() -> str:
    return secrets.token_urlsafe(9)


class Match(models.Model):
    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public: listed for everyone")
        UNLISTED = "unlisted", _("Unlisted: anyone with the link")
        PRIVATE = "private", _("Private: only me")

    class Variant(models.TextChoices):
        JIAXING = "jiaxing", _("Jiaxing 嘉兴")
        PUTIAN = "putian", _("Putian 莆田")
        SICHUAN = "sichuan", _("Sichuan 血战到底")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="matches")
    visibility = models.CharField(max_length=8, choices=Visibility.choices,
                                  default=Visibility.PUBLIC)
    title = models.CharField(max_length=200, blank=True)
    variant = models.CharField(max_length=8, choices=Variant.choices)
    players = models.JSONField()
    players_text = models.CharField(max_length=300, db_index=True)
    played_at = models.DateTimeField(null=True, blank=True)
    uploaded_at = models.DateTimeField(auto_now_add=True, db_index=True)
    sha256 = models.CharField(max_length=64, unique=True)
    document = models.BinaryField()
    hand_count = models.PositiveIntegerField()
    totals = models.JSONField()
    engine_version = models.CharField(max_length=20)
    hidden = models.BooleanField(default=False, help_text="Hidden by staff")

    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("annotating")
        DONE = "done", _("annotated")
        FAILED = "failed", _("failed")

    annotation_status = models.CharField(max_length=8, choices=Status.choices,
                                         default=Status.QUEUED, db_index=True)
    annotation_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        indexes = [models.Index(fields=["variant", "visibility", "-uploaded_at"])]

    def __str__(self) -> str:
        return self.title or f"{self.get_variant_display()}: {', '.join(self.players)}"

    def get_absolute_url(self) -> str:
        return reverse("viewer", args=[self.public_id])

    def visible_to(self, user: object) -> bool:
        """Private: owner and staff; public and unlisted: anyone with the link."""
        if self.visibility != self.Visibility.PRIVATE and not self.hidden:
            return True
        if getattr(user, "is_staff", False):
            return True
        return bool(getattr(user, "is_authenticated", False) and self.owner_id == getattr(
            user, "pk", None))


class Hand(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    dealer = models.PositiveSmallIntegerField()
    end_reason = models.CharField(max_length=12)
    deltas = models.JSONField()
    events = models.JSONField(help_text="The hand's events in order, as in the document")
    event_count = models.PositiveIntegerField()

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"],
                                               name="one_hand_number_per_match")]

    def __str__(self) -> str:
        return f"{self.match} hand {self.number}"


class Annotation(models.Model):
    """One hand's decision analysis by one engine version (``games.analysis``)."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="annotations")
    engine_version = models.CharField(max_length=20)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hand", "engine_version"],
                                               name="one_annotation_per_hand_and_version")]

    def __str__(self) -> str:
        return f"{self.hand} (engine {self.engine_version})"
