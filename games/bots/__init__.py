"""Bots: the seats that play when nobody else does, and the simulation of whole hands
and matches with them (:mod:`~games.bots.simulation`: ``simulate``, dealing walls,
``play_hand``). New levels of play go here beside it.

Imports: :mod:`games.core`, :mod:`games.variants`, :mod:`games.records`.
"""
