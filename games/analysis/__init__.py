"""Analysis: what each decision of a hand was, and what it was worth.

The annotation lists every decision's legal alternatives with their shape and what
followed (:mod:`~games.analysis.annotation`); the solo model values a discard exactly or
by shuffles (:mod:`~games.analysis.value`), the table model plays every choice out with
the bots (:mod:`~games.analysis.value_table`), the values pass prices every decision of
a hand with them (:mod:`~games.analysis.value_pass`), and ``value`` requests are read
in :mod:`~games.analysis.requests`.

Imports: :mod:`games.core`, :mod:`games.variants`, :mod:`games.records`,
:mod:`games.bots`.
"""
