"""``/score/``: score a hand played at a real table by tapping its tiles (issue 30).

The page's whole state is its query string (:mod:`replays.scorer.state`), so it works without
JavaScript and every result is a link; the engine scores it (:mod:`replays.scorer.results`).
"""
