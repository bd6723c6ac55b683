"""Deal numbers, the deterministic shuffle of a custom deck, and the rule building blocks, on
the test kit's fake game (12 cards: RULES.md Part A, "Deal numbers")."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from patience_core.engine import (
    AISLERIOT,
    Build,
    DealNumber,
    EmptyPile,
    SchemeNotTaken,
    aisleriot_shuffle,
    deal_round,
    move_cards,
    run_moves,
)
from patience_core.errors import BadDeal
from patience_core.model import Card, Move, Position
from patience_core.testing import FakeGame, check_deal

GAME = FakeGame()

#: Deal 1 of the fake game, pile by pile (``*`` = face down), found once and pinned: a change
#: here changes every saved game and simulation row of every game with a custom deck.
DEAL_1 = [
    "*2c *5c *Ah *3h *6h *Ac",
    "",
    "",
    "",
    "2h",
    "*5h 4h",
    "*3c *4c 6c",
]


def shown(position: Position) -> list[str]:
    return [" ".join(str(card) for card in pile) for pile in position]


def test_deal_one_is_pinned() -> None:
    assert shown(GAME.deal(DealNumber(1))) == DEAL_1


@pytest.mark.parametrize("number", [0, 1, 2, 17, 2**32 - 1])
def test_a_deal_holds_the_custom_deck_and_is_the_shuffle_laid_out(number: int) -> None:
    position = check_deal(GAME, number)
    assert position == GAME.layout(aisleriot_shuffle(GAME.new_deck(), number))
    assert position == GAME.deal(DealNumber.parse(str(number)))


def test_different_deal_numbers_give_different_deals() -> None:
    deals = {GAME.deal(DealNumber(n)) for n in range(20)}
    assert len(deals) == 20


def test_the_same_deal_in_another_process_with_another_hash_seed() -> None:
    code = (
        "from patience_core.engine import DealNumber\n"
        "from patience_core.testing import FakeGame\n"
        "print([' '.join(str(c) for c in p) for p in FakeGame().deal(DealNumber(1))])\n"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == str(DEAL_1)


def test_another_deal_scheme_is_refused_in_one_line() -> None:
    assert GAME.deal_schemes == (AISLERIOT,)
    with pytest.raises(BadDeal, match=r"^fake does not take ms deal numbers$"):
        GAME.deal(DealNumber.parse("ms:5"))


@pytest.mark.parametrize("text", ["ms:5", "ms:0", "ms 99999999999"])
def test_a_scheme_the_game_does_not_take_is_its_own_kind_of_value_error(text: str) -> None:
    """Refused as such whatever the number: a type the command line catches, not a message
    it reads."""
    with pytest.raises(SchemeNotTaken, match=r"^fake does not take ms deal numbers$"):
        DealNumber.parse(text, GAME.deal_schemes, GAME.name)
    assert issubclass(SchemeNotTaken, ValueError)


@pytest.mark.parametrize("text", ["ms:0", "x", "ms:" + "9" * 30])
def test_a_bad_number_of_a_scheme_taken_is_no_scheme_refusal(text: str) -> None:
    with pytest.raises(ValueError) as raised:
        DealNumber.parse(text, ("aisleriot", "ms"), "bakers-game")
    assert not isinstance(raised.value, SchemeNotTaken)


@pytest.mark.parametrize("text", ["-1", str(2**32), "twelve", "ms:0"])
def test_bad_deal_numbers_are_refused_in_one_line(text: str) -> None:
    with pytest.raises(ValueError) as info:
        DealNumber.parse(text)
    assert "\n" not in str(info.value)


def test_deal_round_turns_the_top_stock_card_onto_the_waste() -> None:
    position = GAME.deal(DealNumber(1))
    after = deal_round(position, 0, (1,), face_up=True)
    assert after[1] == (Card.from_code("Ac"),)
    assert after[0] == position[0][:-1]


def test_move_cards_flips_the_card_it_uncovers() -> None:
    position = GAME.deal(DealNumber(2))  # t3 is *3h *2h Ah
    after = move_cards(position, 6, 2, auto_flip=True)
    assert shown(after)[6] == "*3h 2h" and shown(after)[2] == "Ah"
    assert shown(move_cards(position, 6, 2))[6] == "*3h *2h"


def test_run_moves_honour_the_empty_pile_policy() -> None:
    cards = [Card.from_code(code) for code in ("3c", "2c")]
    position = Position(((), (), (), (), tuple(cards), (), (Card.from_code("4c"),)))
    tableau = (4, 5, 6)
    moves = run_moves(
        position, tableau, tableau, lift=Build.SAME_SUIT, drop=Build.SAME_SUIT, empty=EmptyPile.ANY
    )
    assert Move.transfer(4, 6, 2) in moves and Move.transfer(4, 5, 2) in moves
    moves = run_moves(
        position, tableau, tableau, lift=Build.SAME_SUIT, drop=Build.SAME_SUIT, empty=EmptyPile.NONE
    )
    assert moves == [Move.transfer(4, 6, 2)]
