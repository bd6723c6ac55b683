"""Golf: discovery through the entry point, the rule variants, and the conformance kit."""

from __future__ import annotations

import pytest

from patience_core.api import Card, DealNumber, IllegalMove, Move, Position
from patience_core.testing import GameConformance, load_game, provider_of


def test_discovered_through_the_entry_point() -> None:
    # Fails when the package imports but the `patience` entry point is missing or wrong.
    assert provider_of("golf") == "patience-golf", "is it installed (pip install -e .)?"


def test_deal_shape() -> None:
    position = load_game("golf").deal(DealNumber(1))
    assert [len(p) for p in position] == [16, 1, 5, 5, 5, 5, 5, 5, 5]
    assert all(not c.face_up for c in position[0])
    assert sum(len(pile) for pile in position) == 52


def board(waste: str, column: str) -> Position:
    cards = tuple(Card.from_code(c) for c in column.split())
    return Position(((Card.from_code("*2c"),), (Card.from_code(waste),), cards, *[()] * 6))


@pytest.mark.parametrize(
    ("options", "waste", "card", "legal"),
    [
        ({}, "7h", "8s", True),
        ({}, "7h", "6s", True),
        ({}, "7h", "7s", False),
        ({}, "Kh", "Qs", False),  # nothing goes on a King
        ({}, "Ah", "Ks", False),
        ({}, "Qh", "Ks", True),
        ({"wrap": "yes"}, "Kh", "As", True),
        ({"wrap": "yes"}, "Ah", "Ks", True),
        ({"wrap": "yes"}, "Kh", "Qs", True),
        ({"queen-on-king": "yes"}, "Kh", "Qs", True),
        ({"queen-on-king": "yes"}, "Kh", "As", False),
    ],
)
def test_rule_variants(options: dict[str, str], waste: str, card: str, legal: bool) -> None:
    game = load_game("golf", options)
    position = board(waste, f"2d {card}")
    move = Move.transfer(2, 1)
    assert (move in game.legal_moves(position)) is legal
    if not legal:
        with pytest.raises(IllegalMove):
            game.apply(position, move)


def test_won_with_stock_left() -> None:
    game = load_game("golf")
    position = board("7h", "8s")
    after = game.apply(position, Move.transfer(2, 1))
    assert game.is_won(after) and game.score(after) == 35


class TestConformance(GameConformance):
    game = "golf"


class TestConformanceWrap(GameConformance):
    game = "golf"
    options = {"wrap": "yes"}


@pytest.mark.parametrize(
    ("options", "waste", "card", "why"),
    [
        ({}, "7h", "7s", "7♠ is not one rank from 7♥"),
        ({}, "Kh", "Qs", "nothing goes on a King (without the wrap option)"),
        ({}, "Ah", "Ks", "a King and an Ace are not one apart (without the wrap option)"),
        ({"queen-on-king": "yes"}, "Kh", "As", "only a Queen goes on a King, not A♠"),
    ],
)
def test_a_refused_move_names_golfs_rule(
    options: dict[str, str], waste: str, card: str, why: str
) -> None:
    game = load_game("golf", options)
    position = board(waste, f"2d {card}")
    assert game.why_illegal(position, Move.transfer(2, 1)) == why
    assert game.why_illegal(position, Move.transfer(2, 1, 2)) == f"2♦ is covered by {card[0]}♠"
    assert game.why_illegal(position, Move.transfer(2, 3)) == (
        "a column's top card goes only onto the waste"
    )
    with pytest.raises(IllegalMove, match=r"^illegal move '\w+': .. is not in the columns$"):
        game.parse_move(position, waste)  # the waste's card
    with pytest.raises(IllegalMove, match=r"cards never go from the waste back to the columns$"):
        game.parse_move(position, "w t1")  # the waste's card to a column
    with pytest.raises(IllegalMove, match=r"^illegal move '2c': 2♣ is not in view$"):
        game.parse_move(position, "2c")  # face down in the stock
    empty = position.replace([(0, ())])
    assert game.why_illegal(empty, Move.deal(0)) == "the stock is empty"


#: PySol's Golf deals as black-hole-solver's tests have them, with the rule it solves each under:
#: deal 1 (``golf1.board``: its solution plays K♣ on A♣, then A♥ on K♣) with King and Ace
#: adjacent, deal 35 (``35.golf.board.txt``) with a Queen on a King. Each block: the talon's next
#: card first, the waste card, then each column bottom card first.
PYSOL_DEALS = {
    "wrap": """\
8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H
TH
JD 5H KH AS 4H
2D KD 3H AH AC
9H KC 2S 3C 4D
JC 9S KS 4C 7S
5D 5S 9D 5C 3S
7H AD QD TS TD
7C QC JS QH 4S
""",
    "queen-on-king": """\
3S 7C KH QS AH 8C KD AS 6C 4S 9D JS 8S 4C 7S 8H
9C
KC 3H AD 6D 9H
2D 5C 4H 7H TS
JH JD QC KS TD
6H 2C 6S 9S 4D
3D JC 2H TC 8D
5H 5S AC 3C 5D
QD TH 2S 7D QH
""",
}


@pytest.mark.parametrize("option", sorted(PYSOL_DEALS))
def test_black_hole_solvers_own_golf_deals_are_won_under_their_rule(option: str) -> None:
    from patience_core.solve import Budget, Verdict, solve
    from patience_core.testing import search_for

    lines = [[Card.from_code(c[0] + c[1].lower()) for c in line.split()] for line in
             PYSOL_DEALS[option].splitlines()]  # fmt: skip
    stock = tuple(card.turned(False) for card in reversed(lines[0]))
    position = Position((stock, tuple(lines[1]), *map(tuple, lines[2:])))
    game = load_game("golf", {option: "yes"})
    game.check_position(position)
    result = solve(game, position, Budget(seconds=60), search_for(game))
    assert result.verdict is Verdict.WON
