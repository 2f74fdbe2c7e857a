"""Training: the puzzles made from generated hands and played matches — what wins here
(:mod:`~games.training.puzzles`), how much it pays (:mod:`~games.training.pay_puzzles`),
what to discard (:mod:`~games.training.discard_puzzles`) — their themes
(:mod:`~games.training.themes`) and the players' and puzzles' ratings
(:mod:`~games.training.rating`).

Imports: :mod:`games.core`, :mod:`games.variants`, :mod:`games.records`,
:mod:`games.bots`, :mod:`games.analysis` — not :mod:`games.play`.
"""
