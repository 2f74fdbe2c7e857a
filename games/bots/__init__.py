"""Bots: the seats that play when nobody else does, and the simulation of whole hands
and matches with them (:mod:`~games.bots.simulation`: ``simulate``, dealing walls,
``play_hand``), the frozen ``basic`` bot (:mod:`~games.bots.basic`), the levels by
name (:mod:`~games.bots.levels`), the answers to a discard seat by seat
(:mod:`~games.bots.claims`) and the duplicate arena that measures one level against
another (:mod:`~games.bots.arena`, docs/bots.md).

Imports: :mod:`games.core`, :mod:`games.variants`, :mod:`games.records`.
"""
