"""Bots: the seats that play when nobody else does, and the simulation of whole hands
and matches with them (:mod:`~games.bots.simulation`: ``simulate``, dealing walls,
``play_hand``), the frozen ``basic`` bot (:mod:`~games.bots.basic`) and the levels by
name (:mod:`~games.bots.levels`).

Imports: :mod:`games.core`, :mod:`games.variants`, :mod:`games.records`.
"""
