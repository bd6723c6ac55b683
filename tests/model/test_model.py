"""The model: cards, positions, moves."""

from __future__ import annotations

import attrs
import pytest

from patience_core.model import Card, Move, MoveKind, Position, Rank, Suit


@pytest.mark.parametrize(
    ("code", "rank", "suit", "up"),
    [
        ("Qh", 12, 2, True),
        ("QH", 12, 2, True),
        ("10s", 10, 3, True),
        ("Ts", 10, 3, True),
        ("*Ac", 1, 0, False),
        ("K♦", 13, 1, True),
    ],
)
def test_card_codes(code: str, rank: int, suit: int, up: bool) -> None:
    card = Card.from_code(code)
    assert (card.rank, card.suit, card.face_up) == (rank, suit, up)


@pytest.mark.parametrize("code", ["", "Q", "1h", "Qx", "11h", "**Qh", "QQh"])
def test_bad_card_codes(code: str) -> None:
    with pytest.raises(ValueError):
        Card.from_code(code)


def test_cards_are_interned_and_immutable() -> None:
    card = Card.of(Rank.QUEEN, Suit.HEARTS)
    assert Card.from_code("Qh") is card
    assert card.turned(False).turned(True) is card
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        card.rank = Rank.KING  # type: ignore[misc]


def test_card_text() -> None:
    assert str(Card.from_code("Th")) == "Th"
    assert str(Card.from_code("*Th")) == "*Th"
    assert Card.from_code("Ah").is_red and not Card.from_code("As").is_red


def test_position_replace_and_hash() -> None:
    a = Position(((Card.from_code("Ac"),), ()))
    b = a.replace([(1, (Card.from_code("2c"),))])
    assert a.top(1) is None and b.top(1) == Card.from_code("2c")
    assert a != b and hash(a) == hash(Position(((Card.from_code("Ac"),), ())))
    assert list(b.cards()) == [Card.from_code("Ac"), Card.from_code("2c")]


def test_move_constructors() -> None:
    assert Move.transfer(1, 2, 3) == Move(MoveKind.TRANSFER, 1, 2, 3)
    assert Move.deal(0).kind is MoveKind.DEAL and Move.deal(0).target is None
