"""The fixed shape tables (games/tables.py): the shipped file against the builder, the
lookups against the plain definitions, and caches that stop growing."""

from __future__ import annotations

import random
import subprocess
import sys
import zlib
from importlib import resources

from games import tables
from tests import reference_shapes as plain
from tests.conftest import ROOT


def _shipped() -> bytes:
    return zlib.decompress(resources.files("games").joinpath(tables.TABLES_FILE).read_bytes())


def test_it_ships_tables_that_load_whole() -> None:
    assert tables._FIXED == 289, "152 suit and 83 honour vectors close on 289 under combination"
    assert len(tables._SUIT_TABLE) == 5**9 and len(tables._HONOUR_TABLE) == 5**7
    assert len(tables._COMBINED_TABLE) == tables._FIXED**2
    assert max(tables._SUIT_TABLE) < 256 and max(tables._HONOUR_TABLE) < 256


def test_it_ships_the_honour_table_the_builder_builds() -> None:
    table, vectors = tables.build_part_table(7, False)
    shipped = tables._HONOUR_TABLE
    assert [tables._vectors[shipped[code]] for code in range(5**7)] == [
        vectors[n] for n in table]


def test_it_ships_suit_vectors_that_the_definition_gives() -> None:
    """A sample of the 5^9 suit patterns (the whole table takes the builder a minute:
    tools/build_shape_tables.py --check), each against the plain definition."""
    rng = random.Random(3)
    memo: dict[tuple[int, ...], tuple[int, ...]] = {}
    codes = [rng.randrange(5**9) for _ in range(1500)] + [0, 5**9 - 1]
    for code in codes:
        counts = tuple(code // 5**i % 5 for i in range(9))
        assert tables.code_of(counts) == code
        assert tables._vectors[tables._SUIT_TABLE[code]] == plain.build(counts, True, memo), counts


def test_it_combines_every_pair_of_fixed_vectors_by_the_min_plus_product() -> None:
    vectors = tables._vectors
    rng = random.Random(5)
    pairs = [(rng.randrange(tables._FIXED), rng.randrange(tables._FIXED)) for _ in range(4000)]
    for a, b in pairs:
        assert vectors[tables._COMBINED_TABLE[a * tables._FIXED + b]] == plain.combine(
            vectors[a], vectors[b])
    # Closed: every product is one of the fixed vectors.
    assert max(tables._COMBINED_TABLE) < tables._FIXED


def test_it_builds_a_fifth_copy_outside_the_fixed_tables() -> None:
    counts = (5, 0, 0, 0, 0, 0, 0, 1, 1)  # one tile more of a kind held four times
    assert tables.vector(tables.suit_id(counts)) == plain.build(counts, True, {})
    assert tables.vector(tables.honour_id((0, 5, 0, 0, 0, 0, 2))) == plain.build(
        (0, 5, 0, 0, 0, 0, 2), False, {})


_CACHES = ("_suit_ids", "_honour_ids", "_combined", "_parts", "_stepped", "_part_needs",
           "_neighbours", "_suit_memo", "_honour_memo")

_MANY_HANDS = """
import json, random
from games import tables
tables.CACHE_LIMIT = 2000
rng = random.Random(8)
largest = {}
for _ in range(6000):
    counts = [0] * 34
    for kind in rng.sample(list(range(34)) * 4, rng.choice([13, 14, 16, 17])):
        counts[kind] += 1
    sets = 4 if sum(counts) < 15 else 5
    step = rng.choice([1, -1])
    tables.needed_after_each(counts, sets, step=step)
    needs = tables.OneTileOn(counts, sets)
    [needs.after(kind, step) for kind in range(34)]
    for name in NAMES:
        largest[name] = max(largest.get(name, 0), len(getattr(tables, name)))
print(json.dumps({"largest": largest, "vectors": len(tables._vectors)}))
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
    assert result["vectors"] < tables._FIXED + 40
