"""The model's values as a game uses them, on the test kit's fake game: cards, piles, moves and
positions are immutable, hashable and compared by value."""

from __future__ import annotations

import pytest

from patience_core.engine import DealNumber
from patience_core.model import Card, Move, MoveKind, PileKind, Position, Rank, Suit
from patience_core.testing import FakeGame

GAME = FakeGame()


def test_the_fake_deck_is_twelve_distinct_face_up_cards() -> None:
    deck = GAME.new_deck()
    assert len(deck) == len(set(deck)) == 12
    assert all(card.face_up for card in deck)
    assert deck[0] == Card.of(Rank.ACE, Suit.CLUBS) and deck[-1] == Card.of(Rank.SIX, Suit.HEARTS)


def test_cards_are_interned_and_turn_over_without_changing() -> None:
    card = Card.from_code("4h")
    down = card.turned(False)
    assert card.face_up and not down.face_up
    assert down.turned(True) is card
    assert Card.from_code("*4h") is down and str(down) == "*4h" and card.code == "4h"


def test_positions_compare_and_hash_by_value() -> None:
    one = GAME.deal(DealNumber(2))
    again = GAME.deal(DealNumber(2))
    assert one == again and hash(one) == hash(again)
    assert len({one, again, GAME.deal(DealNumber(3))}) == 2


def test_replace_makes_a_new_position_and_leaves_the_old_one() -> None:
    position = GAME.deal(DealNumber(2))
    emptied = position.replace([(4, ())])
    assert emptied[4] == () and position[4] != ()
    assert emptied is not position and emptied != position


def test_a_position_lists_its_cards_pile_by_pile_bottom_first() -> None:
    position = GAME.deal(DealNumber(2))
    assert len(position) == len(GAME.piles) == 7
    assert list(position.cards()) == [card for pile in position for card in pile]
    assert position.top(1) is None  # the waste starts empty
    assert position.top(4) == position[4][-1]


def test_moves_are_values() -> None:
    assert Move.transfer(4, 2) == Move(MoveKind.TRANSFER, 4, 2, 1)
    assert Move.deal(0).target is None and Move.deal(0).kind is MoveKind.DEAL
    assert len({Move.transfer(4, 2), Move.transfer(4, 2), Move.deal(0)}) == 2


def test_values_are_frozen() -> None:
    position = GAME.deal(DealNumber(2))
    with pytest.raises(AttributeError):
        position.piles = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        Card.from_code("Ac").rank = Rank.TWO  # type: ignore[misc]


def test_the_fake_layout_names_its_piles_in_the_field_s_terms() -> None:
    kinds = [spec.kind for spec in GAME.piles]
    assert kinds == [
        PileKind.STOCK,
        PileKind.WASTE,
        PileKind.FOUNDATION,
        PileKind.FOUNDATION,
        PileKind.TABLEAU,
        PileKind.TABLEAU,
        PileKind.TABLEAU,
    ]
    assert [spec.name for spec in GAME.piles] == ["s", "w", "f1", "f2", "t1", "t2", "t3"]
    assert isinstance(GAME.deal(DealNumber(0)), Position)
