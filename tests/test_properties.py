"""Property tests of hand reading, waits and discards (hypothesis).

- C-3/C-4: every reading of a complete hand uses exactly its real tiles and
  wildcards, in valid chows, pungs and a pair; a hand has readings exactly when
  ``shapes.is_complete_shape`` says it is complete.
- JX-5, PT-5, SC-4: ``waits`` lists exactly the drawable tiles whose ``score``
  says win, for each variant, and ``accepted`` exactly the draws that lower the
  shanten.
- Discard tables: each discard's shanten is the variant's shanten of the hand
  without that tile, the best of them is the hand's own; PT-2 and SC-2 limit
  which tiles may be discarded.
- C-1: ``parse_tiles`` inverts ``format_tiles``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from games.core import shapes
from games.core.position import Position, PositionError
from games.core.reading import Group, readings
from games.core.tiles import TILES, Tile, counts_of, format_tiles, parse_tiles
from games.core.variant import DiscardTable, Waits
from games.variants.positions import read_position

SUITED = list(range(27))
HONOURS = list(range(27, 34))
CHOW_STARTS = [suit * 9 + n for suit in range(3) for n in range(7)]

PROPERTY = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
HEAVY = settings(PROPERTY, max_examples=60)

# ---------------------------------------------------------------------------
# Strategies


def _room(tiles: Sequence[int], kind: int, limits: dict[int, int] | None) -> int:
    """Copies of ``kind`` that may still be added (4, or the limit given; C-1, PT-2)."""
    return (limits or {}).get(kind, 4) - tiles.count(kind)


@st.composite
def complete_tiles(draw: st.DrawFn, sets: int, kinds: Sequence[int], pungs_only: bool = False,
                   limits: dict[int, int] | None = None) -> list[int]:
    """``sets`` sets + a pair (C-3) from ``kinds``, as tile kinds within the copy limits."""
    kinds = list(kinds)
    out: list[int] = []
    for _ in range(sets):
        starts = [s for s in CHOW_STARTS
                  if all(s + i in kinds and _room(out, s + i, limits) > 0 for i in range(3))]
        pungs = [k for k in kinds if _room(out, k, limits) >= 3]
        if starts and (not pungs or not pungs_only and draw(st.booleans())):
            start = draw(st.sampled_from(starts))
            out += [start, start + 1, start + 2]
        else:
            assume(pungs)
            out += [draw(st.sampled_from(pungs))] * 3
    pairs = [k for k in kinds if _room(out, k, limits) >= 2]
    assume(pairs)
    out += [draw(st.sampled_from(pairs))] * 2
    return out


def _text(kinds: Sequence[int]) -> str:
    return format_tiles(TILES[k] for k in kinds)


@st.composite
def replaced(draw: st.DrawFn, tiles: list[int], kinds: Sequence[int], most: int,
             limits: dict[int, int] | None = None) -> list[int]:
    """Up to ``most`` random tiles of ``tiles`` replaced by kinds of ``kinds`` with room."""
    tiles = list(tiles)
    for _ in range(draw(st.integers(0, most))):
        index = draw(st.integers(0, len(tiles) - 1))
        old = tiles.pop(index)
        room = [k for k in kinds if _room(tiles, k, limits) > 0]
        tiles.insert(index, draw(st.sampled_from(room)) if room else old)
    return tiles


@st.composite
def cut(draw: st.DrawFn, tiles: list[int], size: int) -> list[int]:
    """``tiles`` with random tiles removed down to ``size``."""
    tiles = list(tiles)
    while len(tiles) > size:
        tiles.pop(draw(st.integers(0, len(tiles) - 1)))
    return tiles


# ---------------------------------------------------------------------------
# 1. Readings use exactly the given tiles (C-3, C-4)


def _real_tiles_cover(groups: Sequence[Group], counts: list[int]) -> bool:
    """Whether the groups' non-wildcard tiles can be exactly ``counts`` (a matching).

    A group with ``wilds`` wildcards holds ``len(tiles) - wilds`` real tiles, any of
    its members; try every choice, group by group.
    """
    if not groups:
        return not any(counts)
    group, rest = groups[0], groups[1:]
    members = [t.kind for t in group.tiles]
    for real in set(itertools.combinations(members, len(members) - group.wilds)):
        if all(counts[k] >= real.count(k) for k in set(real)):
            for k in real:
                counts[k] -= 1
            found = _real_tiles_cover(rest, counts)
            for k in real:
                counts[k] += 1
            if found:
                return True
    return False


def _valid_group(group: Group) -> bool:
    size = len(group.tiles)
    if not 0 <= group.wilds <= size:
        return False
    if group.type == "chow":
        return not group.first.is_honour and group.first.number <= 7 and size == 3
    return size == (2 if group.type == "pair" else 3)


@st.composite
def hands_with_wildcards(draw: st.DrawFn) -> tuple[list[int], int, int]:
    """A complete hand's real tile counts, its wildcard count and its set count."""
    sets = draw(st.sampled_from((4, 4, 5, 1, 2, 3)))  # 5: Putian (PT-5.1); fewer: melds
    tiles = draw(complete_tiles(sets, range(34)))
    wild_at = draw(st.sets(st.integers(0, len(tiles) - 1), max_size=min(4, len(tiles))))
    real = [k for i, k in enumerate(tiles) if i not in wild_at]
    return counts_of(TILES[k] for k in real), len(wild_at), sets


@PROPERTY
@given(hands_with_wildcards(), st.data())
def test_it_reads_a_complete_hand_with_exactly_its_tiles_c3_c4(
        hand: tuple[list[int], int, int], data: st.DataObject) -> None:
    """C-3/C-4: every reading covers exactly the real tiles, wildcards fill exactly k slots.

    Groups (wildcard-only ones included) are ``sets`` pungs/chows and one pair, each
    valid; the wildcard-only groups take the kinds given to ``with_free_kinds``.
    """
    counts, wild, sets = hand
    found = readings(counts, wild, sets)
    event(f"{wild} wildcards, wildcard-only groups: "
          f"{any(r.free_sets or r.free_pair for r in found)}")
    assert found, f"{_text([k for k, n in enumerate(counts) for _ in range(n)])} + {wild}"
    for reading in found:
        free = reading.free_sets + int(reading.free_pair)
        kinds = data.draw(st.lists(st.sampled_from(TILES), min_size=free, max_size=free))
        for chosen in (reading, reading.with_free_kinds(kinds)):
            groups = chosen.all_groups
            assert all(_valid_group(g) for g in groups), str(chosen)
            assert sum(g.type == "pair" for g in groups) == 1, str(chosen)
            assert sum(g.type != "pair" for g in groups) == sets, str(chosen)
            assert sum(g.wilds for g in groups) == wild, str(chosen)
            assert _real_tiles_cover(groups, list(counts)), str(chosen)
            assert len(str(chosen).split()) == sets + 1
        if free:
            tail = reading.with_free_kinds(kinds).all_groups[-free:]
            assert [g.first for g in tail] == kinds
            assert all(g.wilds == len(g.tiles) for g in tail)


@PROPERTY
@given(st.data())
def test_it_has_readings_exactly_when_the_shape_is_complete_c3_c4(data: st.DataObject) -> None:
    """C-3/C-4: ``readings`` is non-empty iff ``shapes.is_complete_shape`` (near-complete hands)."""
    sets = data.draw(st.sampled_from((4, 5)))
    tiles = data.draw(replaced(data.draw(complete_tiles(sets, range(34))), range(34), 2))
    wild_at = data.draw(st.sets(st.integers(0, len(tiles) - 1), max_size=3))
    counts = counts_of(TILES[k] for i, k in enumerate(tiles) if i not in wild_at)
    complete = shapes.is_complete_shape(counts, sets, len(wild_at))
    event(f"complete: {complete}")
    assert bool(readings(counts, len(wild_at), sets)) == complete


# ---------------------------------------------------------------------------
# Positions of each variant: (JSON position for ``waits``, drawable kinds)

JIAXING_STYLES = ("one suit", "one suit and honours", "pungs", "any")


@st.composite
def jiaxing_hand(draw: st.DrawFn, size: int, swaps: int = 1) -> tuple[dict[str, Any], list[int]]:
    """A Jiaxing hand near a legal win (JX-5.2, JX-5.3), 0–2 wildcards, self-drawn."""
    style = draw(st.sampled_from(JIAXING_STYLES))
    suit = draw(st.integers(0, 2))
    kinds = {"one suit": range(suit * 9, suit * 9 + 9),
             "one suit and honours": [*range(suit * 9, suit * 9 + 9), *HONOURS],
             "pungs": range(34), "any": range(34)}[style]
    tiles = draw(complete_tiles(4, kinds, pungs_only=style == "pungs"))
    wildcard = draw(st.integers(0, 33))
    tiles = draw(replaced(tiles, [wildcard], 2))
    tiles = draw(cut(draw(replaced(tiles, range(34), swaps)), size))
    return ({"variant": "jiaxing", "hand": _text(tiles), "wildcards": [str(TILES[wildcard])],
             "self_draw": True, "seat": draw(st.integers(0, 3)), "dealer": 0,
             "round_wind": draw(st.sampled_from("ESWN"))}, list(range(34)))


@st.composite
def putian_hand(draw: st.DrawFn, size: int, swaps: int = 1) -> tuple[dict[str, Any], list[int]]:
    """A Putian hand near 5 sets + a pair (PT-5.1) with 0–3 golds (PT-2), self-drawn."""
    golds = draw(st.lists(st.sampled_from([*SUITED, 31]), min_size=2, max_size=2, unique=True))
    limits = {g: 3 for g in golds}  # one of each gold kind is turned up (PT-2)
    tiles = draw(complete_tiles(5, [k for k in SUITED if k not in golds]))
    tiles = draw(replaced(tiles, golds, 3, limits))
    tiles = draw(cut(draw(replaced(tiles, SUITED, swaps, limits)), size))
    drawable = [*SUITED, *([31] if 31 in golds else [])]
    return ({"variant": "putian", "hand": _text(tiles), "wildcards": [str(TILES[g]) for g in golds],
             "self_draw": True, "seat": draw(st.integers(0, 3)), "dealer": 0,
             "dealer_streak": draw(st.integers(0, 2))}, drawable)


@st.composite
def sichuan_hand(draw: st.DrawFn, size: int, swaps: int = 1) -> tuple[dict[str, Any], list[int]]:
    """A Sichuan hand near a win (SC-4.1) of two suits, with a void suit (SC-2)."""
    void = draw(st.integers(0, 2))
    kinds = [k for k in SUITED if k // 9 != void]
    if draw(st.booleans()):
        tiles = draw(complete_tiles(4, kinds))
    else:  # seven pairs, four identical tiles allowed (SC-4.1)
        tiles = []
        for _ in range(7):
            tiles += [draw(st.sampled_from([k for k in kinds if _room(tiles, k, None) >= 2]))] * 2
    tiles = draw(cut(draw(replaced(tiles, SUITED, swaps)), size))
    named = draw(st.sampled_from((void, void, void, (void + 1) % 3)))
    return ({"variant": "sichuan", "hand": _text(tiles), "void": "mps"[named],
             "self_draw": draw(st.booleans()), "seat": draw(st.integers(0, 3)), "dealer": 0},
            [k for k in SUITED if k // 9 != named])


def _position(obj: dict[str, Any]) -> Position:
    try:
        return read_position(obj)
    except PositionError:
        assume(False)
        raise  # unreachable: assume(False) stops the example


# ---------------------------------------------------------------------------
# 2. Waits are exactly the tiles whose score says win (JX-5, PT-5, SC-4)


def bomb_in(position: Position) -> bool:
    """PT-5.6: three golds of a kind or four golds, whatever the shape (own draw or not)."""
    golds = [sum(1 for tile in position.hand if tile.kind == kind)
             for kind in position.wildcards]
    return position.variant.name == "putian" and (sum(golds) >= 4 or max(golds) >= 3)


def _check_waits(obj: dict[str, Any], drawable: Sequence[int]) -> None:
    """Waits = drawable tiles whose score wins; accepted = draws that lower the shanten."""
    position = _position(obj)
    result = position.variant.waits(position)
    assert isinstance(result, Waits)
    listed = {w.tile.kind: w for w in result.waits}
    assert len(listed) == len(result.waits)  # each tile once
    assert set(listed) <= set(drawable), obj
    accepted = {a.tile.kind: a for a in result.accepted}
    winners: dict[int, Any] = {}
    improving: set[int] = set()
    for kind in drawable:
        tile = str(TILES[kind])
        try:
            grown = read_position({**obj, "hand": obj["hand"] + tile, "win_tile": tile})
        except PositionError:
            # No such tile left to draw (C-1, PT-2): a wait on it can have none remaining.
            if kind in listed:
                assert listed.pop(kind).remaining == 0, (obj, tile)
            if kind in accepted:
                assert accepted.pop(kind).remaining == 0, (obj, tile)
            continue
        if grown.variant.shanten(grown) < result.shanten or (
                result.shanten == 0 and bomb_in(grown)):  # PT-5.6: ready whatever the shape
            improving.add(kind)
        score = grown.variant.score(grown)
        if score.win:
            winners[kind] = score
    assert sorted(listed) == sorted(winners), (
        f"{obj}: waits {[str(TILES[k]) for k in sorted(listed)]}, "
        f"score wins on {[str(TILES[k]) for k in sorted(winners)]}")
    event(f"shanten {min(result.shanten, 2)}, {'some' if listed else 'no'} waits")
    assert sorted(accepted) == sorted(improving), (
        f"{obj}: accepted {[str(TILES[k]) for k in sorted(accepted)]}, "
        f"lowering the shanten {[str(TILES[k]) for k in sorted(improving)]}")
    assert result.shanten == position.variant.ready_shanten(position), obj
    for kind, wait in listed.items():
        assert wait.score.points == winners[kind].points, (obj, str(TILES[kind]))
    for wait in result.waits:  # a draw wins on the shape only from a ready hand ...
        assert result.shanten <= 0 or wait.score.extra.get("bomb"), (obj, str(wait.tile))
        # ... or as a Putian bomb (PT-5.6), whatever the shape


@PROPERTY
@given(jiaxing_hand(13))
def test_it_lists_as_waits_exactly_the_winning_draws_jiaxing_jx_5(
        case: tuple[dict[str, Any], list[int]]) -> None:
    """JX-5.1–5.3: a self-drawn Jiaxing wait is any of the 34 kinds whose score wins."""
    _check_waits(*case)


@PROPERTY
@given(putian_hand(16))
def test_it_lists_as_waits_exactly_the_winning_draws_putian_pt_5_1(
        case: tuple[dict[str, Any], list[int]]) -> None:
    """PT-5.1/PT-5.6: suited draws (and white when gold) whose self-drawn score wins."""
    _check_waits(*case)


@PROPERTY
@given(sichuan_hand(13))
def test_it_lists_as_waits_exactly_the_winning_draws_sichuan_sc_4(
        case: tuple[dict[str, Any], list[int]]) -> None:
    """SC-4.1/SC-4.2: suited draws outside the void suit whose score wins."""
    _check_waits(*case)


# ---------------------------------------------------------------------------
# 3. Discard tables of full-size hands


def _check_discards(obj: dict[str, Any]) -> DiscardTable:
    position = _position(obj)
    table = position.variant.waits(position)
    assert isinstance(table, DiscardTable)
    own = position.variant.ready_shanten(position)
    assert table.shanten == own, obj
    assert table.discards, obj
    for option in table.discards:
        rest = list(position.hand)
        rest.remove(option.tile)
        after = read_position({**obj, "hand": format_tiles(rest)})
        expected = after.variant.ready_shanten(after)
        assert option.after.shanten == expected, (obj, str(option.tile))
    event(f"shanten {min(own, 2)}")
    if own >= 0:
        assert min(o.after.shanten for o in table.discards) == own, obj
    return table


@HEAVY
@given(jiaxing_hand(14, swaps=2))
def test_it_gives_each_discard_the_shanten_of_what_it_leaves_jiaxing_jx_5(
        case: tuple[dict[str, Any], list[int]]) -> None:
    """JX-5.2: discard shanten = shanten of the hand without it; the best is the hand's own.

    Every tile kind in hand may be discarded, wildcards included (JX-2.9).
    """
    table = _check_discards(case[0])
    assert {str(o.tile) for o in table.discards} == {str(t) for t in parse_tiles(case[0]["hand"])}


@HEAVY
@given(putian_hand(17, swaps=2))
def test_it_gives_each_discard_the_shanten_of_what_it_leaves_putian_pt_5_1(
        case: tuple[dict[str, Any], list[int]]) -> None:
    """PT-5.1: discard shanten = shanten of the hand without it; the best is the hand's own."""
    _check_discards(case[0])


@HEAVY
@given(putian_hand(17, swaps=2))
def test_it_never_offers_a_gold_as_a_discard_putian_pt_2(
        case: tuple[dict[str, Any], list[int]]) -> None:
    """PT-2: gold tiles can never be discarded, so the discard table offers every other kind."""
    obj = case[0]
    position = _position(obj)
    table = position.variant.waits(position)
    assert isinstance(table, DiscardTable)
    offered = {o.tile for o in table.discards}
    assert offered == {t for t in position.hand if not position.is_wild(t)}, obj


@HEAVY
@given(sichuan_hand(14, swaps=2))
def test_it_gives_each_discard_the_shanten_of_what_it_leaves_sichuan_sc_2(
        case: tuple[dict[str, Any], list[int]]) -> None:
    """SC-4.1: discard shanten = shanten of the hand without it; SC-2: void tiles go first."""
    table = _check_discards(case[0])
    hand = parse_tiles(case[0]["hand"])
    void = "mps".index(case[0]["void"])
    in_void = {t for t in hand if t.kind // 9 == void}
    assert {o.tile for o in table.discards} == (in_void or set(hand))


# ---------------------------------------------------------------------------
# 4. Notation round trip (C-1)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TILES), max_size=40))
def test_it_parses_back_what_it_formats_c1(tiles: list[Tile]) -> None:
    """C-1: ``parse_tiles(format_tiles(tiles)) == sorted(tiles)``, and counts agree."""
    text = format_tiles(tiles)
    assert parse_tiles(text) == sorted(tiles)
    assert format_tiles(parse_tiles(text)) == text
    assert counts_of(parse_tiles(text)) == counts_of(tiles)
