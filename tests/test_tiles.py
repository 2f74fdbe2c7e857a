"""Tiles, melds and notation (RULES C-1, C-3)."""

import doctest

import pytest

import games.commands.bench
import games.core.position
import games.core.reading
import games.core.shapes
import games.core.tiles
import games.core.variant
from games.core.tiles import TILES, Meld, MeldError, NotationError, Tile, format_tiles, parse_tiles


def test_it_parses_every_kind_c1() -> None:
    text = "123456789m123456789p123456789s1234567z"
    assert [t.kind for t in parse_tiles(text)] == list(range(34))
    assert format_tiles(parse_tiles(text)) == text


def test_it_formats_sorted_groups_c1() -> None:
    assert format_tiles(parse_tiles("5z 9m1m 3p")) == "19m3p5z"
    assert str(Tile.parse("7z")) == "7z"
    assert Tile.parse("1z").english == "East" and Tile.parse("5z").chinese == "白"


@pytest.mark.parametrize(
    ("text", "position", "words"),
    [
        ("12x3m", 3, "unexpected 'x'"),
        ("123", 3, "digits must be followed by a suit letter"),
        ("m", 1, "has no digits before it"),
        ("8z", 1, "8z is no tile"),
        ("0m", 1, "0m is no tile"),
        ("12 3m", 3, "digits must be followed by a suit letter"),
    ],
)
def test_it_names_the_bad_character_and_its_position_c1(
    text: str, position: int, words: str
) -> None:
    with pytest.raises(NotationError) as error:
        parse_tiles(text)
    assert words in str(error.value)
    assert f"position {position}" in str(error.value)
    assert isinstance(error.value, ValueError)


def test_it_parses_exactly_one_tile() -> None:
    with pytest.raises(NotationError, match="expected one tile"):
        Tile.parse("12m")


def test_it_keeps_tiles_immutable_and_comparable() -> None:
    tile = Tile.parse("5p")
    assert tile == TILES[13] and hash(tile) == 13 and tile < Tile.parse("6p")
    with pytest.raises(AttributeError):
        tile.kind = 3  # type: ignore[misc]
    with pytest.raises(ValueError, match="outside"):
        Tile(34)


def test_it_knows_suits_numbers_and_terminals() -> None:
    assert Tile.parse("9s").is_terminal and not Tile.parse("1z").is_terminal
    assert Tile.parse("3z").is_honour and Tile.parse("3z").number == 3
    assert Tile.parse("4p").suit == "p"


def test_it_builds_melds_c3() -> None:
    assert str(Meld.chi(Tile.parse("7s"))) == "789s"
    assert str(Meld.gang(Tile.parse("2z"), "added")) == "2222z"
    assert Meld.peng(Tile.parse("1m")).is_pung_like
    with pytest.raises(MeldError, match="C-3"):
        Meld.chi(Tile.parse("8m"))
    with pytest.raises(MeldError, match="C-3"):
        Meld.chi(Tile.parse("1z"))


@pytest.mark.parametrize(
    "module",
    [games.core.tiles, games.core.shapes, games.core.reading, games.core.position, games.core.variant, games.commands.bench],
)
def test_it_keeps_its_docstring_examples_true(module: object) -> None:
    failures, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failures == 0
