"""The rules core: what every variant is built on.

Tiles and notation (:mod:`~games.core.tiles`), hand shapes and shanten
(:mod:`~games.core.shapes`, :mod:`~games.core.reading`), positions
(:mod:`~games.core.position`), the ``Variant`` base with scores and waits
(:mod:`~games.core.variant`), the ``Table`` base that plays a hand event by event
(:mod:`~games.core.table`, with :mod:`~games.core.events`), settlement in money
(:mod:`~games.core.settlement`), refusals that keep their templates
(:mod:`~games.core.messages`) and the readers of JSON fields both inputs share
(:mod:`~games.core.readers`).

Imports: the standard library only, and itself. A piece that names a variant, reads a
log or plays a bot belongs in a layer above.
"""
