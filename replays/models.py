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
from django.utils.translation import pgettext_lazy


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
    # match (replays/library/services.py).
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

        return shown_title(self.title) if self.title else (
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


class Puzzle(models.Model):
    """A position and the engine's answer, of one kind (docs/puzzles.md): "what wins
    here?" (``games.training.puzzles``), "how much does it pay?" (``games.training.pay_puzzles``) or "what
    to discard?" (``games.training.discard_puzzles``).

    Generated puzzles are keyed by their seed, so rolling the same day twice finds the
    same row; puzzles from replays are credited to the match, hand, event and seat, and so
    are those from the finished played matches of a player who lets the site make them
    (``PLAYED``: the player's own seat only, credited to the match's stored replay).
    """

    class Kind(models.TextChoices):
        WINS = "wins", _("What wins here?")
        PAY = "pay", _("How much does it pay?")
        DISCARD = "discard", _("What to discard?")

    class Source(models.TextChoices):
        GENERATED = "generated", _("generated")
        REPLAY = "replay", _("from a replay")
        PLAYED = "played", _("from a match played against the bots")

    class Difficulty(models.IntegerChoices):
        EASY = 1, _("easy")
        MEDIUM = 2, _("medium")
        HARD = 3, _("hard")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    variant = models.CharField(max_length=8, choices=Match.Variant.choices)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.WINS,
                            db_index=True)
    difficulty = models.PositiveSmallIntegerField(choices=Difficulty.choices)
    position = models.JSONField(help_text="The position as ENGINE-CLI.md reads it (a pay "
                                          "puzzle: its position, table and source)")
    answer = models.JSONField(help_text="The engine's answer for the puzzle's kind")
    engine_version = models.CharField(max_length=20)
    source = models.CharField(max_length=10, choices=Source.choices, default=Source.GENERATED)
    seed = models.CharField(max_length=40, blank=True)
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                              related_name="puzzles")
    hand_number = models.PositiveIntegerField(null=True, blank=True)
    event_number = models.PositiveIntegerField(null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Training (issue 18, docs/puzzles.md): the puzzle's Glicko-2 rating, started from its
    # difficulty (games.training.rating.Rating.for_puzzle), and the themes the engine tagged.
    rating = models.FloatField(default=1500.0, db_index=True)
    rating_deviation = models.FloatField(default=250.0)
    rating_volatility = models.FloatField(default=0.06)
    themes = models.JSONField(default=list, blank=True,
                              help_text="games.training.themes.themes_of(position, answer)")
    position_key = models.CharField(max_length=64, blank=True, db_index=True,
                                    help_text="games.training.themes.position_key: one puzzle per "
                                              "position, whatever its source")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["variant", "difficulty", "seed"],
                                    condition=models.Q(source="generated"),
                                    name="one_generated_puzzle_per_seed"),
            models.UniqueConstraint(fields=["match", "hand_number", "event_number", "seat",
                                            "kind"],
                                    condition=models.Q(source="replay"),
                                    name="one_puzzle_of_a_kind_per_replay_spot"),
            models.UniqueConstraint(fields=["match", "hand_number", "event_number", "seat",
                                            "kind"],
                                    condition=models.Q(source="played"),
                                    name="one_puzzle_of_a_kind_per_played_spot"),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} puzzle {self.public_id} ({self.get_difficulty_display()})"

    def get_absolute_url(self) -> str:
        return reverse("puzzle", args=[self.public_id])


def shown_puzzles() -> models.QuerySet[Puzzle]:
    """Puzzles anyone may see: generated ones, those of public replays not hidden (a
    replay taken down takes its puzzles with it, issue 16), and those of played matches
    whose player lets the site make puzzles of them (turned off, they are hidden again;
    their replays stay private either way)."""
    return Puzzle.objects.filter(
        models.Q(source=Puzzle.Source.GENERATED)
        | models.Q(source=Puzzle.Source.REPLAY, match__visibility=Match.Visibility.PUBLIC,
                   match__hidden=False)
        | models.Q(source=Puzzle.Source.PLAYED, match__hidden=False,
                   match__owner__play_settings__puzzles_from_play=True))


class DailyPuzzle(models.Model):
    """The puzzle of one variant on one day: the same for everyone (docs/puzzles.md)."""

    day = models.DateField()
    variant = models.CharField(max_length=8, choices=Match.Variant.choices)
    puzzle = models.ForeignKey(Puzzle, on_delete=models.PROTECT, related_name="dailies")
    pinned_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                  on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-day", "variant"]
        constraints = [models.UniqueConstraint(fields=["day", "variant"],
                                               name="one_daily_puzzle_per_variant_and_day")]

    def __str__(self) -> str:
        return f"{self.day} {self.variant}"


class Attempt(models.Model):
    """A player's first answer to a puzzle: a user's, or an anonymous visitor's (kept in
    their session until they log in, then merged)."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="puzzle_attempts")
    visitor = models.CharField(max_length=32, blank=True, db_index=True)
    picked = models.JSONField()
    bonus = models.CharField(max_length=4, blank=True)
    solved = models.BooleanField()
    bonus_right = models.BooleanField(null=True)
    points = models.PositiveIntegerField(default=0)
    daily_day = models.DateField(null=True, blank=True, db_index=True,
                                 help_text="Set when answered as that day's daily puzzle, "
                                           "on that day (streaks)")
    ranked = models.BooleanField(
        default=True, help_text="Counts on the leaderboard (with a user): not when the answer "
                                "was shown to the same visitor before, nor when it was given "
                                "anonymously and merged at log-in")
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    mode = models.CharField(max_length=8, blank=True,
                            help_text="The training mode it was given in (blank: a puzzle page)")
    run = models.ForeignKey("TrainingRun", null=True, blank=True, on_delete=models.SET_NULL,
                            related_name="attempts")
    retried_at = models.DateTimeField(null=True, blank=True,
                                      help_text="A missed puzzle solved again in the retry "
                                                "mode (practice: the first answer stands)")

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["puzzle", "user"],
                                    condition=models.Q(user__isnull=False),
                                    name="one_attempt_per_user"),
            models.UniqueConstraint(fields=["puzzle", "visitor"],
                                    condition=models.Q(user__isnull=True),
                                    name="one_attempt_per_visitor"),
        ]

    def __str__(self) -> str:
        return f"{self.puzzle} by {self.user or self.visitor}"


class PuzzleReveal(models.Model):
    """A puzzle's answer was shown to a visitor (their session's visitor id, account and
    address): a later answer from any of them no longer counts on the leaderboard."""

    puzzle = models.ForeignKey(Puzzle, on_delete=models.CASCADE, related_name="reveals")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="+")
    visitor = models.CharField(max_length=32, blank=True, db_index=True)
    address = models.GenericIPAddressField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.puzzle} shown to {self.user or self.visitor or self.address}"


class PlayerRating(models.Model):
    """A player's Glicko-2 puzzle rating (games.training.rating): moved only by ranked answers."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="puzzle_rating")
    rating = models.FloatField(default=1500.0, db_index=True)
    deviation = models.FloatField(default=350.0)
    volatility = models.FloatField(default=0.06)
    rated_answers = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.user} {self.rating:.0f}±{self.deviation:.0f}"


class RatingChange(models.Model):
    """One ranked answer's effect on a player's and its puzzle's ratings (the history)."""

    attempt = models.OneToOneField(Attempt, on_delete=models.CASCADE, related_name="rating_change")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="puzzle_rating_changes")
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    puzzle_before = models.FloatField()
    puzzle_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.user} {self.rating_before:.0f} → {self.rating_after:.0f}"


class TrainingRun(models.Model):
    """A streak run (until the first miss) or a timed run (three minutes, timed by the
    server): its puzzles are ordinary first answers (Attempt, with the run's mode)."""

    class Mode(models.TextChoices):
        STREAK = "streak", pgettext_lazy("training mode", "Streak")
        TIMED = "timed", pgettext_lazy("training mode", "Timed")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    mode = models.CharField(max_length=8, choices=Mode.choices)
    variant = models.CharField(max_length=8, choices=Match.Variant.choices, blank=True)
    kind = models.CharField(max_length=8, choices=Puzzle.Kind.choices, blank=True,
                            help_text="The kind of puzzle the run serves (blank: any)")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.CASCADE, related_name="training_runs")
    visitor = models.CharField(max_length=32, blank=True, db_index=True)
    current = models.ForeignKey(Puzzle, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    solved = models.PositiveIntegerField(default=0)
    missed = models.PositiveIntegerField(default=0)
    started_at = models.DateTimeField(auto_now_add=True)
    ends_at = models.DateTimeField(null=True, blank=True, help_text="Timed runs: the deadline")
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"{self.mode} run {self.public_id}"


class WorkerHeartbeat(models.Model):
    """A Celery worker's last sign of life, written by its signals (at most every
    ``WORKER_HEARTBEAT_SECONDS``) and shown on the staff dashboard."""

    hostname = models.CharField(max_length=200, unique=True)
    started_at = models.DateTimeField(null=True, blank=True)
    last_seen = models.DateTimeField(db_index=True)
    stopped_at = models.DateTimeField(null=True, blank=True,
                                      help_text="Set when the worker shut down cleanly")
    processed = models.PositiveBigIntegerField(default=0,
                                               help_text="Tasks taken since it started")
    active = models.PositiveIntegerField(default=0, help_text="Tasks running when last seen")

    class Meta:
        ordering = ["-last_seen"]

    def __str__(self) -> str:
        return self.hostname


# The played matches (issue 14) and the uploads checked by a worker (issue 24) live with
# their parts; imported here so Django finds them.
from replays.library.models import UploadCheck  # noqa: E402, F401
from replays.play.models import PlayedMatch, PlaySettings  # noqa: E402, F401
