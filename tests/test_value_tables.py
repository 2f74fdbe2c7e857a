"""The fixed shape tables (games/core/shapes.py): the shipped file against the builder, the
lookups against the plain definitions, and caches that stop growing."""

from __future__ import annotations

import random
import subprocess
import sys
import zlib
from importlib import resources

from games.core import shapes
from tests import reference_shapes as plain
from tests.conftest import ROOT


def _shipped() -> bytes:
    return zlib.decompress(resources.files("games").joinpath(shapes.TABLES_FILE).read_bytes())


def test_it_ships_tables_that_load_whole() -> None:
    assert shapes._FIXED == 289, "152 suit and 83 honour vectors close on 289 under combination"
    assert len(shapes._SUIT_TABLE) == 5**9 and len(shapes._HONOUR_TABLE) == 5**7
    assert len(shapes._COMBINED_TABLE) == shapes._FIXED**2
    assert max(shapes._SUIT_TABLE) < 256 and max(shapes._HONOUR_TABLE) < 256


def test_it_ships_the_honour_table_the_builder_builds() -> None:
    table, vectors = shapes.build_part_table(7, False)
    shipped = shapes._HONOUR_TABLE
    assert [shapes._vectors[shipped[code]] for code in range(5**7)] == [
        vectors[n] for n in table]


def test_it_ships_suit_vectors_that_the_definition_gives() -> None:
    """A sample of the 5^9 suit patterns (the whole table takes the builder a minute:
    tools/build_shape_tables.py --check), each against the plain definition."""
    rng = random.Random(3)
    memo: dict[tuple[int, ...], tuple[int, ...]] = {}
    codes = [rng.randrange(5**9) for _ in range(1500)] + [0, 5**9 - 1]
    for code in codes:
        counts = tuple(code // 5**i % 5 for i in range(9))
        assert shapes.code_of(counts) == code
        assert shapes._vectors[shapes._SUIT_TABLE[code]] == plain.build(counts, True, memo), counts


def test_it_combines_every_pair_of_fixed_vectors_by_the_min_plus_product() -> None:
    vectors = shapes._vectors
    rng = random.Random(5)
    pairs = [(rng.randrange(shapes._FIXED), rng.randrange(shapes._FIXED)) for _ in range(4000)]
    for a, b in pairs:
        assert vectors[shapes._COMBINED_TABLE[a * shapes._FIXED + b]] == plain.combine(
            vectors[a], vectors[b])
    # Closed: every product is one of the fixed vectors.
    assert max(shapes._COMBINED_TABLE) < shapes._FIXED


def test_it_builds_a_fifth_copy_outside_the_fixed_tables() -> None:
    counts = (5, 0, 0, 0, 0, 0, 0, 1, 1)  # one tile more of a kind held four times
    assert shapes.vector(shapes.suit_id(counts)) == plain.build(counts, True, {})
    assert shapes.vector(shapes.honour_id((0, 5, 0, 0, 0, 0, 2))) == plain.build(
        (0, 5, 0, 0, 0, 0, 2), False, {})


_CACHES = ("_suit_ids", "_honour_ids", "_combined", "_parts", "_stepped", "_part_needs",
           "_neighbours", "_suit_memo", "_honour_memo")

_MANY_HANDS = """
import json, random
from games.core import shapes
shapes.CACHE_LIMIT = 2000
rng = random.Random(8)
largest = {}
for _ in range(6000):
    counts = [0] * 34
    for kind in rng.sample(list(range(34)) * 4, rng.choice([13, 14, 16, 17])):
        counts[kind] += 1
    sets = 4 if sum(counts) < 15 else 5
    step = rng.choice([1, -1])
    shapes.needed_after_each(counts, sets, step=step)
    needs = shapes.OneTileOn(counts, sets)
    [needs.after(kind, step) for kind in range(34)]
    for name in NAMES:
        largest[name] = max(largest.get(name, 0), len(getattr(shapes, name)))
print(json.dumps({"largest": largest, "vectors": len(shapes._vectors)}))
"""


def test_it_keeps_every_cache_under_its_limit() -> None:
    """With a small limit, thousands of random hands leave every cache at most one
    entry past it, and no vector beyond the fixed ones and a few fifth-copy ones."""
    import json

    script = f"NAMES = {_CACHES!r}\n{_MANY_HANDS}"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=ROOT, timeout=300, check=True)
    result = json.loads(done.stdout)
    assert all(size <= 2001 for size in result["largest"].values()), result
    assert result["vectors"] < shapes._FIXED + 40
