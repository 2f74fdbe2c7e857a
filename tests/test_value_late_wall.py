"""The exact 1-shanten value late in a wall, where fewer tiles go back than there are
draws left (found by the advice seat in the arena, issue 26)."""

from __future__ import annotations

from games.analysis.value import solo_values
from games.core.tiles import Tile
from games.variants.positions import read_position

# A Sichuan hand (void: souzi, SC-2) with 27 tiles unseen and 7 draws left, most of the
# unseen kinds lowering its shanten: at most 5 unseen tiles go back when drawn.
SEEN = ("1s6s5s8s2m1m2s6s8m7s6m8m4m1p9p8p5m2p3p4p3s3s5s5s5s6s7s7s8s8s9s3p5p2p5p5p4p9m6s"
        "9p3m1s1s1s1m1m5m6m7m7m8m9m2s2s2s9s8s9s9s7m7s3m3p3s3m2p4s")


def test_it_values_a_one_shanten_hand_when_few_tiles_go_back() -> None:
    position = read_position({"variant": "sichuan", "hand": "456799m23466778p", "void": "s",
                              "seen": SEEN})
    exact = {str(c.discard): c for c in solo_values(position, 7, 100, 1).choices}
    assert exact["6p"].exact and exact["6p"].shanten == 1
    for tile in ("6p", "2p"):  # 1-shanten after the discard: the exact sum, checked by playouts
        sampled = solo_values(position, 7, 2000, 5, only={Tile.parse(tile)},
                              exact_one_shanten=False).choices[0]
        assert not sampled.exact
        low, high = sampled.win_interval.low, sampled.win_interval.high
        assert low <= exact[tile].win_probability <= high, (tile, exact[tile], sampled)
