"""The site's data, one module per concern: stored matches with their hands, annotations
and values (:mod:`~replays.models.matches`), puzzles and training
(:mod:`~replays.models.puzzles`), matches played against the bots
(:mod:`~replays.models.play`), ledgers of games at real tables
(:mod:`~replays.models.ledger`), uploads waiting for a worker's check
(:mod:`~replays.models.uploads`) and the workers' heartbeats
(:mod:`~replays.models.operations`).

They sit below every part of the site (``replays.library``, ``.annotation``, …), which
import them from here; they import none of the parts (tests/test_import_cycles.py).
"""

from replays.models.ledger import Ledger, LedgerRow
from replays.models.matches import (
    Annotation,
    AnnotationStep,
    Hand,
    HandValues,
    Match,
    new_public_id,
)
from replays.models.operations import WorkerHeartbeat
from replays.models.play import PlayedMatch, PlaySettings
from replays.models.puzzles import (
    Attempt,
    DailyPuzzle,
    PlayerRating,
    Puzzle,
    PuzzleReveal,
    RatingChange,
    TrainingRun,
    shown_puzzles,
)
from replays.models.recorder import SeatRecord
from replays.models.tables import Room, Seat
from replays.models.uploads import UploadCheck, write_document

__all__ = ["Annotation", "AnnotationStep", "Attempt", "DailyPuzzle", "Hand", "HandValues",
           "Ledger", "LedgerRow", "Match", "PlayedMatch", "PlaySettings", "PlayerRating",
           "Puzzle", "PuzzleReveal", "RatingChange", "Room", "Seat", "SeatRecord", "TrainingRun",
           "UploadCheck", "WorkerHeartbeat", "new_public_id",
           "shown_puzzles", "write_document"]
