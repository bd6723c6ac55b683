"""Why a move is refused (the generic reasons of ``Game.why_illegal`` on the fake game, and the
notation's reading of a move that is not legal), ambiguous moves that say how many readings
they have, winnable deals, and the line player's output fitted to narrow terminals."""

from __future__ import annotations

import pytest

from patience_core.engine import DealNumber, parse_move, read_candidate
from patience_core.errors import BadMoveText, IllegalMove, PatienceError
from patience_core.model import Card, Move, PileKind, PileSpec, Position
from patience_core.play import fit_board, fit_text, winnable_deal
from patience_core.plugins import PluginHost
from patience_core.solve import Verdict, solve
from patience_core.testing import FakeGame

STOCK, WASTE, F1, F2, T1, T2, T3 = range(7)


@pytest.fixture
def game(patience_host: PluginHost) -> FakeGame:
    made = patience_host.game("fake")
    assert isinstance(made, FakeGame)
    return made


def test_the_generic_reasons(game: FakeGame) -> None:
    """Fake deal 2: s has 6 cards, t1 6h, t2 *Xx 2c, t3 *Xx *Xx Ah."""
    start = game.deal(DealNumber(2))
    empty_stock = start.replace([(STOCK, ())])
    cases = [
        (start, Move.transfer(T3, T3), "the cards are on t3 already"),
        (start, Move.transfer(WASTE, T1), "nothing to move: w is empty"),
        (start, Move.transfer(T1, T2, 2), "t1 has only 1 card"),
        (start, Move.transfer(T2, T1, 2), "t2 has only 1 face-up card"),
        (start, Move.transfer(T3, F2), "A♥ goes on f1"),
        (start, Move.transfer(T2, F1), "2♣ cannot start a foundation"),
        (start, Move.transfer(T1, T2), "6♥ does not build on 2♣"),
        (start, Move.transfer(T1, WASTE), "the waste takes cards from the stock only"),
        (start, Move.transfer(T1, STOCK), "no card goes back to the stock"),
        (empty_stock, Move.deal(STOCK), "the stock is empty"),
    ]
    for position, move, why in cases:
        assert move not in game.legal_moves(position)
        assert why in game.why_illegal(position, move), move


def test_an_empty_pile_and_a_covered_card(game: FakeGame) -> None:
    start = game.deal(DealNumber(2))
    # t1 emptied (its 6h to the waste): nothing fills it under empty-piles=none.
    position = start.replace([(T1, ()), (WASTE, start[T1])])
    assert game.why_illegal(position, Move.transfer(WASTE, T1)) == "6♥ may not fill the empty t1"
    played = game.play(start, Move.transfer(T3, F1))
    stacked = played.replace([(T2, (played[T2][-1], played[T1][0])), (T1, ())])
    assert game.why_illegal(stacked, Move.transfer(T2, T3, 2)) == "2♣ is covered by 6♥"


def test_typed_text_for_an_illegal_move_is_read_as_a_candidate(game: FakeGame) -> None:
    start = game.deal(DealNumber(2))
    assert read_candidate("t1 t2", game.piles, start) == Move.transfer(T1, T2)
    assert read_candidate("2c f", game.piles, start) == Move.transfer(T2, F1)
    assert read_candidate("ah f", game.piles, start) == Move.transfer(T3, F1)
    assert read_candidate("6h", game.piles, start) == Move.transfer(T1, F1)
    assert read_candidate("deal", game.piles, start) == Move.deal(STOCK)
    assert read_candidate("t w t", game.piles, start) is None
    assert read_candidate("t f", game.piles, start) is None  # three tableau piles: no one move
    with pytest.raises(IllegalMove, match=r"^illegal move '2c f': 2♣ cannot start a foundation$"):
        game.parse_move(start, "2c f")


def test_an_ambiguous_move_says_how_many_readings_and_which() -> None:
    piles = (
        *(PileSpec(f"c{i}", PileKind.FREE_CELL) for i in range(1, 5)),
        *(PileSpec(f"t{i}", PileKind.TABLEAU) for i in range(1, 4)),
    )
    position = Position(((),) * 4 + ((game_card("9h"),), (game_card("8s"),), (game_card("2d"),)))
    legal = [Move.transfer(t, 0) for t in (4, 5, 6)]
    with pytest.raises(BadMoveText) as info:
        parse_move("t c", piles, position, legal)
    assert str(info.value) == (
        "move 't c' is ambiguous (3 readings: t1 c1, t2 c1, t3 c1); name both piles"
    )
    legal = [Move.transfer(t, c) for t in (4, 5, 6) for c in range(4)]
    with pytest.raises(BadMoveText) as info:
        parse_move("t c", piles, position, legal)
    assert str(info.value) == (
        "move 't c' is ambiguous (12 readings, the first 6: t1 c1, t1 c2, t1 c3, t1 c4, "
        "t2 c1, t2 c2); name both piles"
    )


def game_card(code: str) -> Card:
    return Card.from_code(code)


def test_a_winnable_deal_is_proved_and_the_same_for_a_seed(game: FakeGame) -> None:
    found = winnable_deal(game, None, rng_seed=7, budget=50_000)
    assert found == winnable_deal(game, None, rng_seed=7, budget=50_000)
    assert found.tried >= 1 and found.moves > 0
    assert solve(game, game.deal(found.deal)).verdict is Verdict.WON
    assert found.sentence() == f"Deal {found.deal} (checked winnable by the solver)."
    with pytest.raises(PatienceError, match="no winnable Fake Patience deal found in 1 deal"):
        winnable_deal(game, None, rng_seed=7, budget=1, tries=1)


BOARD = [
    "f:--",
    " t1   t2   t3   t4   t5   t6",
    " 9♥   \x1b[31m8♦\x1b[0m   --   K♠   ##   2♣",
    " 8♠             Q♥",
]


def test_a_wide_board_is_cut_between_columns_never_in_a_card() -> None:
    assert fit_board(BOARD, None) == BOARD and fit_board(BOARD, 80) == BOARD
    blocks = fit_board(BOARD, 16)
    assert blocks == [
        "f:--",
        " t1   t2   t3",
        " 9♥   \x1b[31m8♦\x1b[0m   --",
        " 8♠",
        "",
        "",
        " t4   t5   t6",  # indented as the first block
        " K♠   ##   2♣",
        " Q♥",
    ]
    assert fit_board(["x" * 30], 20) == [
        "The board needs a",
        "terminal 30 columns",
        "wide (this one has",
        "20).",
    ]
    # The narrowest width the board can be cut to: one column of cards with its indent.
    assert fit_board(BOARD, 3) == ["The", "board", "needs", "a", "terminal", "4", "columns"] + [
        "wide",
        "(this",
        "one",
        "has",
        "3).",
    ]


def test_a_table_row_wraps_its_last_column_under_itself() -> None:
    row = "  deal, d        deal from the stock onto the waste, one card at a time"
    wrapped = fit_text(row, 40)
    assert wrapped[0].startswith("  deal, d        deal")
    assert all(len(line) <= 40 and line.startswith(" " * 17) for line in wrapped[1:])
    assert " ".join(line.strip() for line in wrapped).split() == row.split()


def test_long_lines_wrap_between_words() -> None:
    line = "Score 0/52   Free cells: 4  Empty columns: 0  Foundations: 0/52   Moves: 0"
    wrapped = fit_text(line, 40)
    assert all(len(part) <= 40 for part in wrapped)
    assert " ".join(part.strip() for part in wrapped).split() == line.split()
    assert fit_text("a" * 50, 20) == ["a" * 50]  # a word is never cut
    assert fit_text(line, None) == [line]


def test_a_refusal_never_tells_where_a_face_down_card_lies(game: FakeGame) -> None:
    start = game.deal(DealNumber(2))
    hidden = start[T2][0]
    assert not hidden.face_up
    name = f"{hidden.rank.letter}{hidden.suit.symbol}"
    with pytest.raises(IllegalMove) as info:
        game.parse_move(start, f"{hidden.code} f")
    assert str(info.value) == f"illegal move '{hidden.code} f': {name} is not in view"
    assert read_candidate(hidden.code, game.piles, start) is None
    reason = game.why_illegal(start, Move.transfer(T2, T1, 2))
    assert name not in reason and reason == "t2 has only 1 face-up card"
