"""The rules engine: pure Python, no Django, no I/O but in :mod:`games.commands`.

Its parts are layers; each imports only from the layers listed before it (a test of
the import graph, ``tests/test_import_cycles.py``, keeps it so, and no module imports
in a circle):

1. :mod:`games.core` — tiles, shapes and readings, positions, the ``Variant`` and
   ``Table`` bases, settlement, messages and the JSON field readers.
2. :mod:`games.variants` — one module per variant, the registry naming them, and the
   position reader (a position names its variant).
3. :mod:`games.records` — hand histories: the ``mahjong-log/1`` format and replaying a
   log through the tables.
4. :mod:`games.bots` — bots and the simulation of hands and matches.
5. :mod:`games.analysis` — the annotation of decisions and the solo and table value
   models with the values pass.
6. :mod:`games.play` and :mod:`games.training` — side by side, neither importing the
   other: a match against the bots; puzzles, themes and ratings.
7. :mod:`games.commands` — ``python -m games`` and its benchmarks.
"""
