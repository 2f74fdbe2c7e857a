"""Puzzles and training: the puzzles (made from generated hands, public replays and played
matches), the daily ones, the answers and reveals, ratings and training runs
(docs/puzzles.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from replays.models.matches import Match, new_public_id


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
        EXCHANGE = "exchange", _("Which three to pass? (换三张)")

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
