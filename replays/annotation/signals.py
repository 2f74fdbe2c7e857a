"""What the annotation tells the parts above it, without knowing them: a match's
annotation is done (:data:`annotated`), its values are done (:data:`valued`). The
puzzles answer both (``replays.puzzles.receivers``: puzzles are made of what is
annotated and, for "what to discard?", valued). Each is sent after the commit, with
``sender=Match`` and ``match_id``."""

from __future__ import annotations

from django.dispatch import Signal

annotated = Signal()
valued = Signal()
