"""Play: a match of one person against three bots, decision by decision, with the
seat's view and the seed's commitment (:mod:`~games.play.bot_match`, docs/play.md).
Tables of several people go here beside it.

Imports: :mod:`games.core`, :mod:`games.variants`, :mod:`games.records`,
:mod:`games.bots`, :mod:`games.analysis` (the hint) — not :mod:`games.training`.
"""
