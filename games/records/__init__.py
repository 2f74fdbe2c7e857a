"""Hand histories: the ``mahjong-log/1`` format, read and written with every refusal
placed at its hand and event (:mod:`~games.records.log`, its JSON Schema in
``schemas/``), and a log replayed through the tables and settled hand by hand
(:mod:`~games.records.match`: ``validate``), and a hand recorded from one seat, its
unseen tiles filled in (:mod:`~games.records.seat_view`, which registers its reader with
:mod:`~games.records.log` here).

Imports: :mod:`games.core`, :mod:`games.variants`.
"""

from games.records import seat_view as _seat_view  # noqa: E402,F401  (registers its reader)
