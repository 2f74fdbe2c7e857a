"""A match played against the bots, stored as the engine's ``mahjong-play/1`` row.

The row holds the secret seed and the walls (``PlayMatch.to_json``): only the server reads
it; pages and JSON see the seat's view (docs/play.md). ``step`` and ``over`` are copies kept
as columns so lists and the step check need not read the state.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from replays.models.matches import Match, new_public_id


class PlayedMatch(models.Model):
    class Speed(models.IntegerChoices):
        INSTANT = 0, _("instant")
        FAST = 250, _("fast")
        NORMAL = 600, _("normal")
        SLOW = 1200, _("slow")

    public_id = models.CharField(max_length=16, unique=True, default=new_public_id,
                                 editable=False)
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.CASCADE, related_name="played_matches")
    visitor = models.CharField(max_length=32, blank=True, db_index=True,
                               help_text="An anonymous player's session id (until log-in)")
    variant = models.CharField(max_length=8, choices=Match.Variant.choices)
    state = models.JSONField(help_text="PlayMatch.to_json(): holds the seed, never shown")
    step = models.PositiveIntegerField(default=0)
    hand_number = models.PositiveIntegerField(default=1)
    hands = models.PositiveIntegerField()
    over = models.BooleanField(default=False, db_index=True)
    speed = models.PositiveIntegerField(choices=Speed.choices, default=Speed.NORMAL)
    level = models.CharField(
        max_length=16, default="basic",
        help_text="The bots' level (games.bots.levels.LEVELS), a copy of the state's: matches "
                  "stored before levels existed were played by basic bots (issue 26)")
    commitment = models.CharField(max_length=64)
    moves_from = models.JSONField(default=list, blank=True,
                                  help_text="[hand, index] of the player's last move: the page "
                                            "replays the entries from there")
    left = models.BooleanField(default=False, help_text="The player left the table: the match "
                                                        "ended there (JX-10.6, SC-6.6)")
    points_won = models.PositiveIntegerField(default=0, help_text="For the JX-11 ladder")
    net = models.IntegerField(default=0)
    replay = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    signed_in = models.BooleanField(
        default=False, help_text="Started by a signed-in player: only such matches may become "
                                 "puzzles (with the player's consent); an anonymous player's "
                                 "never do, even once given to an account at log-in")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True, db_index=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} played match {self.public_id}"

    def get_absolute_url(self) -> str:
        return reverse("play_table", args=[self.public_id])


class PlaySettings(models.Model):
    """A signed-in player's choices about their played matches (issue 18, "Sources")."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="play_settings")
    puzzles_from_play = models.BooleanField(
        default=False, help_text="Let the site make puzzles from my finished played matches "
                                 "(my own seat only); off hides the puzzles already made")
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "play settings"

    def __str__(self) -> str:
        return f"{self.user} play settings"
