"""The klondike family's search: its moves are the legal moves it keeps, in its order; and a
foundation card brought back to no purpose is a circle for hints and the honest player (the
Ace of spades went t5 -> f1 -> t5 -> f2 with deals between on Klondike deal 1)."""

from __future__ import annotations

import pytest

from patience_core.families import KlondikeFamily, KlondikeSearch
from patience_core.model import Card, Move, Position
from patience_core.solve import HonestBudget, HonestPlayer
from patience_core.solve._circles import avoiding_circles, is_stuck, leads_back, only_way_on
from patience_core.testing import random_walk


class Klondike(KlondikeFamily):
    name = "klondike"
    title = "Klondike"
    redeals = 2


class KlondikeDrawThree(KlondikeFamily):
    name = "klondike-draw-3"
    title = "Klondike (draw 3)"
    draw = 3


class AnySuitAnyEmpty(KlondikeFamily):
    name = "klondike-any"
    title = "Klondike (any suit, any card to an empty column)"
    build = "any-suit"
    empty_column = "any"
    face_down = "none"


@pytest.mark.parametrize("declared", [Klondike, KlondikeDrawThree, AnySuitAnyEmpty])
def test_the_search_keeps_legal_moves_and_orders_every_move(
    declared: type[KlondikeFamily],
) -> None:
    game = declared()
    search = KlondikeSearch(game)
    for deal in (1, 2, 3):
        for position in random_walk(game, deal, 120):
            legal = game.legal_moves(position)
            tried = search.moves_to_try(position)
            assert len(set(tried)) == len(tried) and set(tried) <= set(legal)
            ordered = search.order_moves(position, list(legal))
            assert sorted(ordered, key=legal.index) == legal  # every move, once
            assert ordered[: len(tried)] == tried  # the kept ones first, in the search's order


def _board(columns: list[str], waste: str = "", foundations: tuple[str, ...] = ()) -> Position:
    """A position of :class:`Klondike` (first pass) from texts: piles bottom first."""
    game = Klondike()
    used = {c.lstrip("*") for text in (*columns, waste, *foundations) for c in text.split()}
    rest = [c for c in game.new_deck() if c.code not in used]
    piles: list[tuple[Card, ...]] = [() for _ in game.piles]
    piles[0] = tuple(c.turned(False) for c in rest)
    piles[1] = tuple(Card.from_code(c) for c in waste.split())
    placed = [*zip(game.foundations, foundations, strict=False)]
    placed += zip(game.tableau, columns, strict=False)
    for index, text in placed:
        piles[index] = tuple(Card.from_code(c) for c in text.split())
    return Position(tuple(piles))


def test_a_lone_waste_card_goes_to_an_empty_column() -> None:
    # One card on the waste is no whole column: the search once left the King's move out.
    game = Klondike()
    position = _board(["*9c 2h", "", "7s"], waste="Ks")
    move = Move.transfer(game.wastes[0], game.tableau[1])
    assert move in game.legal_moves(position)
    assert move in KlondikeSearch(game).moves_to_try(position)


def test_a_foundation_card_brought_back_to_no_purpose_is_a_circle() -> None:
    game = Klondike()
    search = KlondikeSearch(game)
    f1, t5 = game.foundations[0], game.tableau[4]
    # The Ace of spades came up from t5 (its 2 of hearts turned up); only a deal is real play.
    position = _board(["3h", "3d", "8h", "8s", "*Jd 2h"], waste="Qc", foundations=("As",))
    back = Move.transfer(f1, t5)
    legal = game.legal_moves(position)
    assert set(legal) == {back, Move.deal(0)}
    seen = {position}
    assert leads_back(search, position, back, seen)
    assert not leads_back(search, position, Move.deal(0), seen)
    assert avoiding_circles(search, position, legal, seen) == [Move.deal(0)]
    assert not is_stuck(search, position, legal, seen)
    assert only_way_on(search, position, legal, seen) == Move.deal(0)  # played without analysis
    assert search.order_moves(position, legal) == [Move.deal(0), back]
    player = HonestPlayer(game, budget=HonestBudget(samples=2, nodes=100, dead_nodes=200),
                          search=search)  # fmt: skip
    assert player.choose(position, legal) == Move.deal(0)


def test_a_foundation_card_brought_back_for_a_card_in_play_is_no_circle() -> None:
    game = Klondike()
    search = KlondikeSearch(game)
    f2, t4 = game.foundations[1], game.tableau[3]
    # 5 of hearts back onto the 6 of spades takes the 4 of clubs from the waste.
    position = _board(["3h", "3d", "8h", "6s"], waste="4c", foundations=("As", "Ah 2h 3h 4h 5h"))
    back = Move.transfer(f2, t4)
    assert back in game.legal_moves(position)
    assert not leads_back(search, position, back, {position})
    legal = game.legal_moves(position)
    assert only_way_on(search, position, legal, {position}) is None  # a choice to weigh
    # Without the 4 of clubs nothing could go on it: then it is a circle.
    alone = _board(["3h", "3d", "8h", "6s"], waste="Qc", foundations=("As", "Ah 2h 3h 4h 5h"))
    assert leads_back(search, alone, back, {alone})
