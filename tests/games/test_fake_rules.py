"""The Game contract, on the test kit's fake game: declaration, options, legal moves, apply and
its refusals, automatic follow-ups, won/lost, score, move texts, position checks, rendering."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patience_core.engine import DealNumber, GRand
from patience_core.errors import BadOption, BadSave, IllegalMove
from patience_core.games import declaration_problem
from patience_core.model import Card, Move, Position
from patience_core.testing import FakeGame

GAME = FakeGame()


def texts(game: FakeGame, position: Position) -> list[str]:
    return [game.move_text(position, move) for move in game.legal_moves(position)]


def test_the_declaration_is_sound() -> None:
    assert declaration_problem(FakeGame) is None
    assert GAME.max_score == 12 and GAME.rules.startswith("Fake Patience")


def test_options_take_their_defaults_and_one_of_their_choices() -> None:
    assert GAME.option_values == {"empty-piles": "none"}
    assert FakeGame({"empty-piles": " any "}).option_values == {"empty-piles": "any"}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"empty-piles": "some"}, "option empty-piles takes one of none, any, not 'some'"),
        ({"colour": "red"}, "fake has no option 'colour' (options: empty-piles)"),
    ],
)
def test_bad_options_are_refused_in_one_line(options: dict[str, str], message: str) -> None:
    with pytest.raises(BadOption) as info:
        FakeGame(options)
    assert str(info.value) == message


def test_the_legal_moves_of_a_deal_in_their_fixed_order() -> None:
    assert texts(GAME, GAME.deal(DealNumber(0))) == ["t1 f1", "t2 t3", "deal"]
    assert texts(GAME, GAME.deal(DealNumber(1))) == ["deal"]


def test_the_option_changes_the_rules() -> None:
    # Deal 0 with t1's Ace on a foundation leaves t1 empty: a pile only 'any' refills.
    empty_any = FakeGame({"empty-piles": "any"})
    for game, refills in ((GAME, False), (empty_any, True)):
        position = game.apply(game.deal(DealNumber(0)), Move.transfer(4, 2))
        assert position[4] == ()
        assert any(move.target == 4 for move in game.legal_moves(position)) is refills


def test_a_deal_turns_one_stock_card_face_up_onto_the_waste() -> None:
    position = GAME.deal(DealNumber(1))
    after = GAME.apply(position, Move.deal(0))
    assert len(after[0]) == 5 and after[1] == (position[0][-1].turned(True),)
    assert GAME.status(after) == "Stock left: 5"


def test_a_move_turns_up_the_card_it_uncovers_in_the_same_move() -> None:
    position = GAME.deal(DealNumber(2))  # t3 is *3h *2h Ah
    after = GAME.apply(position, GAME.parse_move(position, "t3 f1"))
    assert [str(card) for card in after[6]] == ["*3h", "2h"]


def test_an_illegal_move_is_refused_and_changes_nothing() -> None:
    position = GAME.deal(DealNumber(1))
    with pytest.raises(IllegalMove) as info:
        GAME.apply(position, Move.transfer(4, 2))
    assert "\n" not in str(info.value)
    assert position == GAME.deal(DealNumber(1))


def test_won_lost_and_score() -> None:
    foundations = tuple(tuple(Card.of(rank, suit) for rank in range(1, 7)) for suit in (0, 2))
    won = Position(((), (), *foundations, (), (), ()))
    assert GAME.is_won(won) and not GAME.is_lost(won) and GAME.score(won) == 12
    assert GAME.legal_moves(won) == []
    stuck = Position(((), (Card.from_code("3c"),), (), (), (Card.from_code("2h"),), (), ()))
    assert GAME.legal_moves(stuck) == [] and GAME.is_lost(stuck) and GAME.score(stuck) == 0


def test_check_position_wants_exactly_the_deck() -> None:
    position = GAME.deal(DealNumber(1))
    GAME.check_position(position)
    doubled = position.replace([(1, (position[4][-1],))])
    with pytest.raises(BadSave, match="appears too often"):
        GAME.check_position(doubled)
    with pytest.raises(BadSave, match="is missing"):
        GAME.check_position(position.replace([(4, ())]))


def test_the_default_render_hides_face_down_cards() -> None:
    def paint(card: Card | None) -> str:
        return "--" if card is None else (card.code if card.face_up else "##")

    lines = GAME.render(GAME.deal(DealNumber(1)), paint)
    assert lines[0] == "s:[ 6]  w:--  f1:--  f2:--"
    assert "2h" in lines[3] and "##" in lines[4] and "Ah" not in "".join(lines)
    assert all(len(line) <= 80 for line in lines)


@settings(max_examples=40, deadline=None)
@given(deal=st.integers(0, 2**32 - 1), seed=st.integers(0, 2**32 - 1))
def test_random_walks_keep_the_rules(deal: int, seed: int) -> None:
    # Every legal move applies, keeps every card, reads back from its text; the score stays
    # in range; won and lost agree with the legal moves.
    game = FakeGame({"empty-piles": "any"}) if seed % 2 else GAME
    position = game.deal(DealNumber(deal))
    deck = Counter((card.rank, card.suit) for card in game.new_deck())
    rand = GRand(seed)
    for _ in range(60):
        moves = game.legal_moves(position)
        assert len(set(moves)) == len(moves)
        assert 0 <= game.score(position) <= game.max_score
        assert game.is_lost(position) == (not moves and not game.is_won(position))
        if not moves:
            break
        move = moves[rand.int_range(0, len(moves))]
        assert game.parse_move(position, game.move_text(position, move)) == move
        after = game.apply(position, move)
        assert after != position
        assert Counter((card.rank, card.suit) for card in after.cards()) == deck
        game.check_position(after)
        position = after
