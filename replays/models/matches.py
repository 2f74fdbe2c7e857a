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
    # Not unique: someone else's private or unlisted copy must neither block an upload nor
    # reveal that it exists (issue 16); a duplicate is one of the uploader's own or a public
    # match (replays/matches/services.py).
    sha256 = models.CharField(max_length=64, db_index=True)
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
    annotation_queued_at = models.DateTimeField(
        null=True, blank=True, db_index=True,
        help_text="When the match's hands were last queued (requeue_stuck looks at it); "
                  "empty while a queued match waits for the broker")
    annotation_run = models.PositiveIntegerField(
        default=0, help_text="Which annotation run counts: a re-run's progress counts the "
                             "hands annotated in that run only")
    annotation_sent = models.PositiveIntegerField(
        default=0, help_text="The highest hand number of this run sent to the workers (hands "
                             "are sent a few at a time, so big matches don't hold others up)")

    # The second pass (issue 17): what each choice was worth (replays/annotation/values.py).
    uploader_seat = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The seat the uploader played (0-3), if they said; "
                                         "values are computed for it by default")
    values_status = models.CharField(max_length=8, choices=Status.choices, blank=True,
                                     default="", help_text="Empty: never valued")
    values_seats = models.JSONField(default=list, blank=True,
                                    help_text="The seats the current values run prices")
    values_run = models.PositiveIntegerField(
        default=0, help_text="Counts the requests that added to the values (a new one changes "
                             "what the viewer keeps of them)")
    values_hands = models.PositiveIntegerField(
        null=True, blank=True, help_text="Only the first this many hands are valued (a match "
                                         "without an owner, unless staff asks); empty: every "
                                         "hand")
    values_sent = models.PositiveIntegerField(
        default=0, help_text="The last (hand, seat) of the values sent to the workers, as hand "
                             "number × 4 + seat (sent a few at a time, as hands are)")
    values_error = models.TextField(blank=True)
    values_queued_at = models.DateTimeField(
        null=True, blank=True,
        help_text="When the match's values tasks were last sent (requeue_stuck_values "
                  "looks at it)")

    uploader_key = models.CharField(
        max_length=32, blank=True, db_index=True,
        help_text="An anonymous upload's address group, as a keyed hash: the anonymous "
                  "storage quota counts by it (replays/limits.py Payer.storage_key)")

    # Set by the upload that stored it when the broker could not be reached (not a column:
    # the row says so by having no annotation_queued_at while queued).
    waiting_for_broker = False

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        indexes = [models.Index(fields=["variant", "visibility", "-uploaded_at"])]
        permissions = [("view_private_match",
                        "Can see private and hidden replays on the site")]

    def __str__(self) -> str:
        from replays.titles import shown_title

        return shown_title(self.title, self.variant, self.hand_count,
                           self.played_at or self.uploaded_at) if self.title else (
            f"{self.get_variant_display()}: {', '.join(self.players)}")

    def get_absolute_url(self) -> str:
        return reverse("viewer", args=[self.public_id])

    def visible_to(self, user: object) -> bool:
        """Public and unlisted: anyone with the link; private or hidden: the owner, and
        staff with the ``view_private_match`` permission (other staff get 404 too)."""
        if self.visibility != self.Visibility.PRIVATE and not self.hidden:
            return True
        if self.owned_by(user):
            return True
        return bool(getattr(user, "is_staff", False) and getattr(user, "is_active", False)
                    and user.has_perm("replays.view_private_match"))  # type: ignore[attr-defined]

    def owned_by(self, user: object) -> bool:
        return bool(getattr(user, "is_authenticated", False) and self.owner_id is not None
                    and self.owner_id == getattr(user, "pk", None))

    @property
    def commitment(self) -> str | None:
        """A played match's walls' commitment (the SHA-256 of its seed), else None."""
        from replays.titles import played_commitment

        return played_commitment(self.title)

    @property
    def publishable(self) -> bool:
        """Puzzles are public pages: only a public replay not hidden by staff gives them,
        and shows them."""
        return self.visibility == self.Visibility.PUBLIC and not self.hidden


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
    """One hand's decision analysis by one engine version (``games.analysis.annotation``).

    ``data`` is the whole analysis as the engine wrote it; the viewer reads only the small
    ``index`` (each shown decision's event, seat and whether it is a mistake), the
    ``summary`` and the one :class:`AnnotationStep` of the step it shows, so that a step
    costs the same whatever the hand's size (docs/analysis.md). Annotations stored before
    the index existed have it derived on first read.
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="annotations")
    engine_version = models.CharField(max_length=20)
    data = models.JSONField()
    created_at = models.DateTimeField(auto_now=True)
    run = models.PositiveIntegerField(default=0, help_text="The match's annotation run that "
                                                           "wrote it (progress counts these)")
    index = models.JSONField(
        null=True, blank=True,
        help_text="[[event, seat, mistake], …] of the decisions the viewer shows; "
                  "null until derived from data")
    summary = models.JSONField(null=True, blank=True,
                               help_text="Per seat: decisions, agreed, mistakes")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["hand", "engine_version"],
                                               name="one_annotation_per_hand_and_version")]

    def __str__(self) -> str:
        return f"{self.hand} (engine {self.engine_version})"


class AnnotationStep(models.Model):
    """The decisions of one annotation that lead to one event (``event`` is 1-based, as in
    the analysis): what the viewer shows at step ``event - 1``."""

    annotation = models.ForeignKey(Annotation, on_delete=models.CASCADE, related_name="steps")
    event = models.PositiveIntegerField()
    decisions = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["annotation", "event"],
                                               name="one_annotation_step_per_event")]

    def __str__(self) -> str:
        return f"{self.annotation} event {self.event}"


class HandValues(models.Model):
    """What each choice of one seat in one hand was worth (``games.analysis.value_pass``), keyed by
    the engine's and the value model's versions; ``data`` holds the valued decisions,
    ``summary`` the seat's figures for the hand."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="values")
    seat = models.PositiveSmallIntegerField()
    engine_version = models.CharField(max_length=20)
    value_version = models.CharField(max_length=20)
    run = models.PositiveIntegerField(default=0)
    data = models.JSONField()
    summary = models.JSONField()
    created_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(
            fields=["hand", "seat", "engine_version", "value_version"],
            name="one_hand_values_per_seat_and_version")]

    def __str__(self) -> str:
        return f"{self.hand} seat {self.seat} values"
