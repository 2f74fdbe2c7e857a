"""Stored matches: storing an upload whole or not at all, checked by the engine in the
request or by a worker (:mod:`~replays.matches.services`, :mod:`~replays.matches.tasks`),
replaying a stored hand for a board (:mod:`~replays.matches.board`), links to its steps
(:mod:`~replays.matches.links`), and the engine's words in the reader's language —
refusals, pattern and settlement texts (:mod:`~replays.matches.engine_refusals`,
:mod:`~replays.matches.engine_text`, :mod:`~replays.matches.settlement_lines`).

Imports: the models and the shared modules of ``replays`` (limits, kept, prepared, …).
Every other part builds on it; when a match is stored it says so with the
:data:`~replays.matches.services.match_stored` signal, which the annotation answers.
"""
