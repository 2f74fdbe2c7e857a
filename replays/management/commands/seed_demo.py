"""``manage.py seed_demo``: bot-played matches of every variant, stored like uploads."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from games.bots.simulation import simulate
from games.records.log import dumps
from games.variants.registry import NAMES
from replays.matches.services import DuplicateUpload, store_document
from replays.models import Match, Puzzle
from replays.titles import demo_title


class Command(BaseCommand):
    help = "Store bot-played demo matches of each variant (idempotent)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--matches", type=int, default=2, help="matches per variant")
        parser.add_argument("--hands", type=int, default=8, help="hands per match")

    def handle(self, *args: Any, **options: Any) -> None:
        user, _ = get_user_model().objects.get_or_create(username="demo")
        stored = 0
        for variant in NAMES:
            for seed in range(1, options["matches"] + 1):
                match = simulate(variant, options["hands"], seed)
                raw = dumps(match).encode("utf-8")
                try:
                    # One seat valued per match, as for an upload naming the uploader's
                    # seat: valuing all four would keep `make run` busy for many minutes.
                    store_document(raw, owner=user, visibility=Match.Visibility.PUBLIC,
                                   title=demo_title(variant, seed),
                                   uploader_seat=(seed - 1) % 4)
                    stored += 1
                except DuplicateUpload:
                    pass
        self.stdout.write(f"{stored} demo matches stored "
                          f"({Match.objects.count()} matches in the database).")
        from replays.puzzles.services import roll_days

        rolled = roll_days(2)
        self.stdout.write(f"Daily puzzles ready for today and tomorrow ({len(rolled)}); "
                          f"{Puzzle.objects.filter(source=Puzzle.Source.REPLAY).count()} "
                          "puzzles from replays.")
        made = seed_kinds()
        self.stdout.write(f"{made} generated puzzles of the other kinds (how much does it "
                          "pay, what to discard) ready for training.")


def seed_kinds(difficulties: tuple[int, ...] = (1, 2, 3)) -> int:
    """Generated "how much does it pay?" and "what to discard?" puzzles of every variant
    and difficulty, so training offers each kind at once (found again on a second run)."""
    from games.training.puzzles import PuzzleError
    from replays.puzzles.services import generated_puzzle

    made = 0
    for variant in NAMES:
        for difficulty in difficulties:
            for kind in (Puzzle.Kind.PAY, Puzzle.Kind.DISCARD):
                try:
                    generated_puzzle(variant, difficulty, "demo", kind)
                except PuzzleError:  # no clearly best discard within the generator's budget
                    continue
                made += 1
    return made
