"""Hand histories: the ``mahjong-log/1`` format, read and written with every refusal
placed at its hand and event (:mod:`~games.records.log`, its JSON Schema in
``schemas/``), and a log replayed through the tables and settled hand by hand
(:mod:`~games.records.match`: ``validate``).

Imports: :mod:`games.core`, :mod:`games.variants`.
"""
