"""patience-classics: every shipped variant file is right, is found through the
``patience.variants`` entry point, and passes the conformance kit."""

from __future__ import annotations

from importlib import resources
from typing import Any

import pytest

from patience_core.families import variant_problems
from patience_core.testing import GameConformance, provider_of

FILES = sorted(
    (
        item
        for item in resources.files("patience_classics").iterdir()
        if item.name.endswith(".toml")
    ),
    key=lambda item: item.name,
)


@pytest.mark.parametrize("item", FILES, ids=lambda item: item.name)
def test_every_file_is_a_right_variant_file(item: Any, patience_main: Any) -> None:
    variant, problems = variant_problems(item.read_bytes())
    assert problems == [] and variant is not None
    assert item.name == f"{variant.name}.toml"
    assert provider_of(variant.name) == "patience-classics"
    result = patience_main("variant", "check", str(item))
    assert result.code == 0, result.out
    assert result.out.endswith(f"{variant.name} ({variant.title})\n")


def test_a_copy_of_a_shipped_file_is_no_rival_but_an_edited_one_is(
    tmp_path: Any, patience_main: Any
) -> None:
    """Checking the source tree's file of an installed (copied) distribution passes; a file
    that differs but claims the same name is a clash."""
    shipped = next(item for item in FILES if item.name == "freecell.toml")
    copy = tmp_path / "freecell.toml"
    copy.write_bytes(shipped.read_bytes())
    assert patience_main("variant", "check", str(copy)).code == 0
    copy.write_bytes(shipped.read_bytes().replace(b"cells = 4", b"cells = 3"))
    result = patience_main("variant", "check", str(copy))
    assert result.code == 1 and "name 'freecell' is taken by patience-classics" in result.out


def test_every_file_has_its_conformance_class() -> None:
    tested = {cls.game for cls in GameConformance.__subclasses__() if cls.__module__ == __name__}
    assert tested == {item.name.removesuffix(".toml") for item in FILES}


def test_the_list_says_where_the_games_come_from(patience_main: Any) -> None:
    listed = patience_main("list").out.splitlines()
    for name in ("freecell", "klondike", "klondike-draw-3"):
        line = next(line for line in listed if line.split()[0] == name)
        assert line.endswith("patience-classics 0.1.0")


def test_freecell_takes_microsoft_deal_numbers(patience_main: Any) -> None:
    result = patience_main("deal", "freecell", "--deal", "ms:617")
    assert result.code == 0, result.err
    assert result.out.startswith("FreeCell, deal ms:617")


class TestFreeCell(GameConformance):
    game = "freecell"


class TestKlondike(GameConformance):
    game = "klondike"


class TestSpider(GameConformance):
    game = "spider"
    deals = (1, 2)


class TestSpiderTwoSuits(GameConformance):
    game = "spider-two-suits"
    deals = (1, 2)


class TestSpiderOneSuit(GameConformance):
    game = "spider-one-suit"
    deals = (1, 2)


class TestKlondikeDrawThree(GameConformance):
    game = "klondike-draw-3"
