"""An upload too large to check while the page waits (issue 24): kept here, with what the
check needs, until a worker has checked it (``replays.matches.tasks.check_upload``).

The row holds the document until its check ends; then the bytes are dropped (a stored
document lives in its :class:`~replays.models.Match`) and the outcome stays for the page
that polls it: the stored match, the earlier copy of a duplicate, or the refusal with its
template and parameters, so that it is shown in the reader's language. Finished rows are
deleted after ``UPLOAD_CHECK_KEEP_HOURS`` by beat's ``tend_upload_checks``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection, models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from replays.models.matches import Match, new_public_id


class UploadCheck(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("waiting for the rules engine")
        CHECKING = "checking", _("being checked by the rules engine")
        STORED = "stored", _("stored")
        REFUSED = "refused", _("refused")
        FAILED = "failed", _("failed")

    OPEN = (Status.QUEUED, Status.CHECKING)

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="+")
    visitor = models.CharField(max_length=32, blank=True,
                               help_text="An anonymous uploader's session id: who may follow "
                                         "the check")
    payer = models.CharField(max_length=64, help_text="The address group whose upload "
                                                      "budgets the check is charged to")
    language = models.CharField(max_length=16, blank=True,
                                help_text="The uploader's language, for the site's own "
                                          "sentences written by the worker")
    name = models.CharField(max_length=200)
    title = models.CharField(max_length=200, blank=True)
    visibility = models.CharField(max_length=8, choices=Match.Visibility.choices)
    uploader_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    document = models.BinaryField(help_text="The bytes uploaded, until the check ends")
    size = models.PositiveIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED,
                              db_index=True)
    refusal = models.JSONField(null=True, blank=True,
                               help_text="Why it was refused: the message's template and "
                                         "parameters, hand, event and rule")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="+",
                              help_text="The match stored, or the earlier copy of a duplicate")
    duplicate = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    queued_at = models.DateTimeField(null=True, blank=True,
                                     help_text="When it was sent to the workers; empty while "
                                               "it waits for the broker")
    finished_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"check of {self.name} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("upload_check", args=[self.public_id])

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN


def write_document(check_id: int, raw: bytes) -> None:
    """Write a kept document's bytes. On PostgreSQL they go as a binary parameter (Django's
    client-side binding would send a 2 MB document as 4 MB of hex text for the server to
    parse) into a column stored uncompressed (migration 0016): a fifth of the time either
    way, on the web worker's path."""
    if connection.vendor != "postgresql":
        UploadCheck.objects.filter(pk=check_id).update(document=raw)
        return
    import psycopg

    connection.ensure_connection()
    with psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(f"UPDATE {UploadCheck._meta.db_table} SET document = %b WHERE id = %s",
                       [raw, check_id])
