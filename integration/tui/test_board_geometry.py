"""Every shipped game's board fits an 80x24 terminal, deals and positions after many moves alike
(long columns compressed), and at 60 columns fits compressed; wider terminals get wider cards.

The board's area of an 80x24 terminal is 80x21: the full-screen player keeps a status line, a
message line and the footer of keys."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patience_core.engine import DealNumber
from patience_core.games import Game, board_of
from patience_core.model import Card, PileKind, Position
from patience_core.plugins import PluginHost
from patience_core.testing import random_walk
from patience_core.tui import Geometry, board_geometry

GAMES = ("escalator", "bristol", "bakers-game", "diamond-mine", "spiderette", "golf")
CHROME = 3  # lines of the app that are not the board


def game_of(host: PluginHost, name: str) -> Game:
    return host.game(name)


def walk(game: Game, deal: int, steps: int, seed: int) -> Position:
    """The position after up to ``steps`` random legal moves from deal ``deal``."""
    return random_walk(game, deal, steps, seed)[-1]


def check(position: Position, geometry: Geometry) -> None:
    """Fits: nothing outside the board or overlapping, every top card whole and found where it
    is drawn."""
    assert geometry.needed is None, geometry.needed
    cells: set[tuple[int, int]] = set()
    for item in geometry.placed:
        assert item.x >= 0 and item.x + item.width <= geometry.columns and item.y < geometry.rows
        for x in range(item.x, item.x + item.width):
            assert (x, item.y) not in cells
            cells.add((x, item.y))
    for pile, cards in enumerate(position):
        if geometry.areas[pile] is None:
            assert not cards
            continue
        x, y, width, _ = geometry.card_region(pile, len(cards) - 1)
        assert width >= 2
        assert geometry.pile_at(x, y) == (pile, len(cards) - 1 if cards else -1)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("columns", [80, 60])
def test_every_game_fits_80_by_24_and_60_columns(
    patience_host: PluginHost, name: str, columns: int
) -> None:
    game = game_of(patience_host, name)
    assert board_of(game).problem(game.piles) is None
    for deal in range(1, 30):
        for steps in (0, 15, 60, 200):
            position = walk(game, deal, steps, seed=deal * 7 + steps)
            check(position, board_geometry(game, position, columns, 24 - CHROME))


@pytest.mark.parametrize("name", GAMES)
def test_wider_terminals_get_wider_cards_up_to_six_characters(
    patience_host: PluginHost, name: str
) -> None:
    game = game_of(patience_host, name)
    position = game.deal(DealNumber(1))
    sizes = [board_geometry(game, position, c, 21).metrics for c in (60, 80, 120, 200)]
    cards = [m.card for m in sizes if m is not None]
    assert len(cards) == 4 and cards == sorted(cards) and cards[-1] == 6


@pytest.mark.parametrize(("name", "length"), [("spiderette", 40), ("bakers-game", 19)])
def test_long_columns_late_in_a_game_are_compressed(
    patience_host: PluginHost, name: str, length: int
) -> None:
    """Spiderette's columns can hold a whole suit and more on face-down cards; Baker's Game's a
    King-to-Ace run on six dealt cards."""
    game = game_of(patience_host, name)
    deal = game.deal(DealNumber(1))
    column = game.pile_indices(PileKind.TABLEAU)[2]
    cards = list(deal.cards())
    piles: list[tuple[Card, ...]] = [()] * len(deal)
    piles[column] = tuple(cards[:length])
    rest = game.pile_indices(PileKind.TABLEAU)[3]
    piles[rest] = tuple(cards[length:])
    position = Position(tuple(piles))
    geometry = board_geometry(game, position, 80, 24 - CHROME)
    check(position, geometry)
    assert [p for p in geometry.placed if p.pile == column and p.what == "more"]


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(GAMES),
    deal=st.integers(1, 100_000),
    steps=st.integers(0, 300),
    columns=st.integers(30, 220),
    rows=st.integers(8, 70),
)
def test_any_size_fits_or_names_a_size_that_does(
    name: str, deal: int, steps: int, columns: int, rows: int
) -> None:
    host = PluginHost(environ={}).load()
    game = host.game(name)
    position = walk(game, deal, steps, seed=deal)
    geometry = board_geometry(game, position, columns, rows)
    if geometry.needed is not None:
        assert geometry.needed[0] > columns or geometry.needed[1] > rows
        geometry = board_geometry(game, position, *geometry.needed)
    check(position, geometry)
