"""Escalator rules: RULES.md Part A "Escalator" and every item of Part B §1 "Tests worth
writing"."""

from __future__ import annotations

from pathlib import Path

import pytest
from patience_escalator import Escalator

from patience_core.api import Card, DealNumber, IllegalMove, Move, Position
from patience_core.testing import (
    assert_matches_golden,
    check_random_walk,
    load_game,
    random_walk_property,
    read_golden,
)

#: Pile indices: the stock, the waste, the apex (the pyramid follows, row by row).
STOCK, WASTE, APEX = 0, 1, 2

GOLDEN = read_golden((Path(__file__).parent / "data" / "golden-deals.txt").read_text())


@pytest.fixture
def game() -> Escalator:
    return Escalator()


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_code(code) for code in text.split())


def make(pyramid: dict[int, str], waste: str = "", stock: str = "") -> Position:
    """A position with pyramid cards at the given 1-based places p1..p28 (others empty)."""
    piles: list[tuple[Card, ...]] = [
        tuple(card.turned(False) for card in cards(stock)),
        cards(waste),
    ]
    for k in range(1, 29):
        piles.append(cards(pyramid[k]) if k in pyramid else ())
    return Position(tuple(piles))


def pile(k: int) -> int:
    """Index of pyramid place pk (1-based)."""
    return APEX + k - 1


# -- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3])
def test_deal_matches_aisleriot(game: Escalator, number: int) -> None:
    assert_matches_golden(game, game.deal(DealNumber(number)), GOLDEN[("escalator", number)])


@pytest.mark.parametrize(
    ("number", "pyramid", "stock_top"),
    [
        (
            0,
            "6c 7s 7d 5s 2h 6s Qd Td Jh Kc Kh 4s Qh 6d Tc Qs 9c 7h 9s 8c 4h 8d 6h 2c 8s 3s As 3h",
            "Js",
        ),
        (
            12345,
            "2d 2h 5h 4h 7d 7c Kd 5c 7h Tc 8d 9s 9c 4c 4s Ks Qd 4d 5s 6c Th Jc Ah Qs Jd As Kh 3d",
            "8s",
        ),
        (
            2**32 - 1,
            "Kd 9d Td 3c 4h 6d 2h Kh 3d 8h 9s 8d 5d Ks Jc 8c 6s Qs Jd Qc 6c Ac 2c 7h Jh Qd As Js",
            "Qh",
        ),
    ],
)
def test_pinned_deals(game: Escalator, number: int, pyramid: str, stock_top: str) -> None:
    position = game.deal(DealNumber(number))
    assert " ".join(str(p[0]) for p in position.piles[APEX:]) == pyramid
    assert position[STOCK][-1] == Card.from_code("*" + stock_top)


def test_deal_shape(game: Escalator) -> None:
    position = game.deal(DealNumber(7))
    assert len(position[STOCK]) == 24
    assert all(not c.face_up for c in position[STOCK])
    assert all(len(p) == 1 and p[0].face_up for p in position.piles[APEX:])


def test_waste_is_empty_after_the_deal(game: Escalator) -> None:
    position = game.deal(DealNumber(1))
    assert position[WASTE] == ()
    assert game.legal_moves(position) == [Move.deal(STOCK)]


def test_drop_onto_empty_waste_is_refused(game: Escalator) -> None:
    position = game.deal(DealNumber(1))
    with pytest.raises(IllegalMove):
        game.apply(position, Move.transfer(pile(22), WASTE))  # a bottom-row card
    with pytest.raises(IllegalMove):
        game.parse_move(position, "Jh")


# -- moves --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "waste"), [("Kh", "Ac"), ("Ad", "Ks"), ("7s", "6h"), ("5c", "6d")]
)
def test_adjacent_ranks_with_wrap_are_legal(game: Escalator, card: str, waste: str) -> None:
    position = make({1: "2c", 22: card}, waste=waste)
    assert Move.transfer(pile(22), WASTE) in game.legal_moves(position)
    after = game.apply(position, Move.transfer(pile(22), WASTE))
    assert after[WASTE][-1] == Card.from_code(card)
    assert after[pile(22)] == ()


@pytest.mark.parametrize(
    ("card", "waste"), [("Ah", "Ac"), ("Ks", "Kd"), ("7s", "9h"), ("Qc", "Ah")]
)
def test_equal_or_distant_ranks_are_refused(game: Escalator, card: str, waste: str) -> None:
    position = make({1: "5c", 22: card}, waste=waste)
    assert game.legal_moves(position) == []
    with pytest.raises(IllegalMove):
        game.apply(position, Move.transfer(pile(22), WASTE))


def test_covered_card_cannot_be_picked_up(game: Escalator) -> None:
    # p16 (row 6, first card) is covered by p22 and p23 (row 7).
    position = make({1: "2c", 16: "9h", 22: "Kc", 23: "Kd"}, waste="8s")
    assert game.legal_moves(position) == []
    position = make({1: "2c", 16: "9h", 23: "Kd"}, waste="8s")  # half uncovered is not enough
    assert game.legal_moves(position) == []
    position = make({1: "2c", 16: "9h"}, waste="8s")
    assert game.legal_moves(position) == [Move.transfer(pile(16), WASTE)]


def test_bottom_row_cards_are_always_playable(game: Escalator) -> None:
    full = {k: "Qc" for k in range(1, 22)}  # rows 1-6 full, none adjacent to 9
    bottom = dict(zip(range(22, 29), ["8c", "Tc", "8d", "Td", "8h", "Th", "8s"], strict=True))
    position = make(full | bottom, waste="9s")
    assert game.legal_moves(position) == [Move.transfer(pile(k), WASTE) for k in range(22, 29)]


def test_deal_turns_one_stock_card(game: Escalator) -> None:
    position = game.deal(DealNumber(1))
    after = game.play(position, Move.deal(STOCK))
    assert len(after[STOCK]) == 23
    assert after[WASTE] == (position[STOCK][-1].turned(True),)
    assert game.score(after) == 0  # turning stock cards scores nothing


def test_no_deal_when_stock_is_empty(game: Escalator) -> None:
    position = make({1: "2c", 22: "Kh"}, waste="Ac")
    assert Move.deal(STOCK) not in game.legal_moves(position)
    with pytest.raises(IllegalMove):
        game.apply(position, Move.deal(STOCK))


# -- score, win, loss ---------------------------------------------------------------------------


def test_score_counts_pyramid_cards_played(game: Escalator) -> None:
    position = make({1: "2c", 21: "8c", 22: "Kh", 23: "Qh"}, waste="Ac", stock="3c")
    assert game.score(position) == 24
    after = game.apply(position, Move.transfer(pile(22), WASTE))
    assert game.score(after) == 25
    after = game.apply(after, Move.transfer(pile(23), WASTE))
    assert game.score(after) == 26


def test_score_of_a_new_deal_is_zero(game: Escalator) -> None:
    assert game.score(game.deal(DealNumber(5))) == 0


def test_win_with_stock_remaining(game: Escalator) -> None:
    position = make({1: "9h"}, waste="8c", stock="2c 3c 4c")
    after = game.apply(position, Move.transfer(pile(1), WASTE))
    assert game.is_won(after)
    assert not game.is_lost(after)
    assert len(after[STOCK]) == 3
    assert game.score(after) == 28
    assert game.legal_moves(after) == []


def test_loss_when_stock_is_empty_and_nothing_fits(game: Escalator) -> None:
    position = make({1: "9h", 22: "5c"}, waste="Jc")
    assert game.legal_moves(position) == []
    assert game.is_lost(position)
    assert not game.is_won(position)


def test_not_lost_while_the_stock_has_cards(game: Escalator) -> None:
    position = make({1: "9h", 22: "5c"}, waste="Jc", stock="Qd")
    assert not game.is_lost(position)
    assert game.legal_moves(position) == [Move.deal(STOCK)]


# -- notation and contract ----------------------------------------------------------------------


def test_card_name_alone_plays_it(game: Escalator) -> None:
    position = make({1: "2c", 22: "Kh"}, waste="Ac")
    assert game.parse_move(position, "kh") == Move.transfer(pile(22), WASTE)
    assert game.parse_move(position, "p22 w") == Move.transfer(pile(22), WASTE)
    assert game.move_text(position, Move.transfer(pile(22), WASTE)) == "p22 w"


def test_found_through_entry_point() -> None:
    assert isinstance(load_game("escalator"), Escalator)


@pytest.mark.parametrize("deal", range(10))
def test_random_walks_keep_invariants(deal: int) -> None:
    check_random_walk(Escalator(), deal, seed=deal * 7 + 1, steps=80)


test_random_walk_property = random_walk_property("escalator", steps=80, max_examples=15)


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        (lambda piles: piles.__setitem__(2, (piles[2][0].turned(False),)), "one face-up card"),
        (
            lambda piles: piles.__setitem__(2, ()) or piles.__setitem__(1, (Card.from_code("9c"),)),
            "still covers it",
        ),
        (
            lambda piles: piles.__setitem__(0, piles[0][:-1] + (piles[0][-1].turned(True),)),
            "stock holds a face-up card",
        ),
    ],
)
def test_impossible_positions_are_refused(game: Escalator, change: object, needle: str) -> None:
    from patience_core.api import BadSave

    piles = list(game.deal(DealNumber(1)).piles)
    change(piles)  # type: ignore[operator]
    with pytest.raises(BadSave, match=needle):
        game.check_position(Position(tuple(piles)))


def test_a_reachable_position_passes_the_check(game: Escalator) -> None:
    position = game.deal(DealNumber(17))
    for _ in range(10):
        position = game.play(position, game.legal_moves(position)[0])
    game.check_position(position)


# -- why a move is refused (issue 18, item 9) ----------------------------------------------------


def _after(game: Escalator, deal: int, *texts: str) -> Position:
    position = game.deal(DealNumber(deal))
    for text in texts:
        position = game.play(position, game.parse_move(position, text))
    return position


def _refusal(game: Escalator, position: Position, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        game.parse_move(position, text)
    return str(info.value)


def test_a_refused_move_names_escalators_rule() -> None:
    """Deal 1 after deal, deal, 4h (the case of the outside testers): a half-covered card, a
    card not in the pyramid, a rank not one apart, the empty waste, the empty stock."""
    game = Escalator()
    position = _after(game, 1, "deal", "deal", "4h")
    assert _refusal(game, position, "3s") == "illegal move '3s': 3♠ is covered by 8♥"
    assert _refusal(game, position, "9c") == "illegal move '9c': 9♣ is covered by Q♥ and 8♦"
    assert _refusal(game, position, "4h") == "illegal move '4h': 4♥ is not in the pyramid"
    assert _refusal(game, position, "kd").endswith(
        "K♦ is not one rank from 4♥ (K and A count as one apart)"
    )
    start = game.deal(DealNumber(1))
    assert game.why_illegal(start, Move.transfer(APEX + 21, WASTE)) == (
        "no card goes on the empty waste"
    )
    assert game.why_illegal(start, Move.transfer(APEX + 21, APEX + 22)) == (
        "a pyramid card goes only onto the waste, one at a time"
    )
    empty = start.replace([(STOCK, ())])
    assert game.why_illegal(empty, Move.deal(STOCK)) == "the stock is empty"
