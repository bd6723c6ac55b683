"""Spiderette rules: RULES.md Part A "Spiderette" and every item of Part B §5 "Tests worth
writing" ("never lost" becomes our exact rule: lost when no legal move is left)."""

from __future__ import annotations

from pathlib import Path

import pytest
from patience_spiderette import Spiderette
from patience_spiderette.game import COLUMNS, FOUNDATIONS, STOCK

from patience_core.api import Card, DealNumber, IllegalMove, Move, Position
from patience_core.testing import (
    assert_matches_golden,
    check_winning_line,
    load_game,
    play_winning_line,
    random_walk_property,
    read_golden,
)

DATA = Path(__file__).parent / "data"
GOLDEN = read_golden((DATA / "golden-deals.txt").read_text())
SUIT_RUN = "K{s} Q{s} J{s} T{s} 9{s} 8{s} 7{s} 6{s} 5{s} 4{s} 3{s} 2{s} A{s}"


def cards(text: str) -> tuple[Card, ...]:
    """Card codes, bottom first; a leading ``*`` means face down."""
    return tuple(Card.from_code(code) for code in text.split())


def run(suit: str) -> str:
    return SUIT_RUN.format(s=suit)


def make(columns: list[str], stock: str = "", foundations: list[str] | None = None) -> Position:
    home = [cards(f) for f in (foundations or [])] + [()] * (4 - len(foundations or []))
    cols = [cards(c) for c in columns] + [()] * (7 - len(columns))
    stock_cards = tuple(card.turned(False) for card in cards(stock))
    return Position((stock_cards, *home, *cols))


def t(k: int) -> int:
    """Index of column tk (1-based)."""
    return COLUMNS[k - 1]


@pytest.fixture
def game() -> Spiderette:
    return Spiderette()


# -- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3])
def test_deal_matches_aisleriot(game: Spiderette, number: int) -> None:
    assert_matches_golden(game, game.deal(DealNumber(number)), GOLDEN[("spiderette", number)])


def test_deal_shape(game: Spiderette) -> None:
    position = game.deal(DealNumber(42))
    assert [len(position[c]) for c in COLUMNS] == [1, 2, 3, 4, 5, 6, 7]
    for c in COLUMNS:
        assert position[c][-1].face_up
        assert not any(card.face_up for card in position[c][:-1])
    assert len(position[STOCK]) == 24
    assert not any(card.face_up for card in position[STOCK])
    assert all(not position[f] for f in FOUNDATIONS)


def test_registered_through_the_entry_point() -> None:
    assert isinstance(load_game("spiderette"), Spiderette)


def test_a_deal_puts_one_card_on_each_column_in_order(game: Spiderette) -> None:
    position = game.deal(DealNumber(1))
    after = game.apply(position, game.parse_move(position, "deal"))
    stock_top_first = list(reversed(position[STOCK]))
    for k, c in enumerate(COLUMNS):
        assert after[c][-1] == stock_top_first[k].turned(True)
        assert after[c][:-1] == position[c]
    assert len(after[STOCK]) == 17


def test_a_deal_is_blocked_by_an_empty_column(game: Spiderette) -> None:
    position = make(["Kh", "Qs", "", "9c", "8d", "7c", "6h"], stock="2c 3c 4c")
    assert Move.deal(STOCK) not in game.legal_moves(position)
    with pytest.raises(IllegalMove):
        game.parse_move(position, "deal")
    assert "fill every empty column" in game.status(position)


def test_the_last_deal_goes_to_the_first_three_columns(game: Spiderette) -> None:
    position = game.deal(DealNumber(3))
    for _ in range(3):
        position = game.apply(position, Move.deal(STOCK))
    assert len(position[STOCK]) == 3
    before = position
    position = game.apply(position, Move.deal(STOCK))
    assert position[STOCK] == ()
    grown = [len(position[c]) - len(before[c]) for c in COLUMNS]
    assert grown == [1, 1, 1, 0, 0, 0, 0]
    assert Move.deal(STOCK) not in game.legal_moves(position)


# -- moves --------------------------------------------------------------------------------------


def test_a_mixed_suit_run_cannot_be_lifted(game: Spiderette) -> None:
    position = make(["*2c 9h 8s", "Kd Th", "*3c Ts"])
    legal = game.legal_moves(position)
    assert Move.transfer(t(1), t(2), 2) not in legal
    assert Move.transfer(t(1), t(3), 2) not in legal
    with pytest.raises(IllegalMove):
        game.parse_move(position, "9h t2")
    assert Move.transfer(t(1), t(3)) not in legal  # 8♠ alone does not fit T♠ either


def test_a_run_onto_a_different_suit_card_one_higher_is_allowed(game: Spiderette) -> None:
    position = make(["*2c 9h 8h 7h", "*3c Tc", "*4c 9s"])
    assert game.parse_move(position, "t1 t2") == Move.transfer(t(1), t(2), 3)
    assert game.parse_move(position, "t1 t3") == Move.transfer(t(1), t(3), 2)  # 8♥ 7♥ on 9♠


def test_any_run_onto_an_empty_column_is_allowed(game: Spiderette) -> None:
    position = make(["*2c 9h 8h 7h", "*3c Tc", "", "*4c 9s"])
    legal = game.legal_moves(position)
    for count in (1, 2, 3):
        assert Move.transfer(t(1), t(3), count) in legal
    assert game.parse_move(position, "t1 t3") == Move.transfer(t(1), t(3), 3)  # the longest
    assert game.parse_move(position, "t1 t3 2") == Move.transfer(t(1), t(3), 2)
    assert game.parse_move(position, "8h t3") == Move.transfer(t(1), t(3), 2)


def test_auto_flip_after_a_move(game: Spiderette) -> None:
    position = make(["*2c *Jd 9h", "*3c Tc"])
    after = game.play(position, game.parse_move(position, "t1 t2"))
    assert after[t(1)] == (Card.from_code("*2c"), Card.from_code("Jd"))


def test_a_12_card_run_to_a_foundation_is_refused_13_accepted(game: Spiderette) -> None:
    twelve = make(["*Kc " + run("s").removeprefix("Ks ")])
    assert not [m for m in game.legal_moves(twelve) if m.target in FOUNDATIONS]
    with pytest.raises(IllegalMove):
        game.parse_move(twelve, "t1 f")
    thirteen = make(["*5c " + run("s")])
    assert Move.transfer(t(1), FOUNDATIONS[0], 13) in game.legal_moves(thirteen)


def test_double_click_of_a_complete_run_goes_to_the_first_empty_foundation(
    game: Spiderette,
) -> None:
    """Aisleriot's double-click on a complete run is 't1 f' (the run, to the first empty one)."""
    position = make(["*5c " + run("s"), "Kc"], foundations=[run("h")])
    move = game.parse_move(position, "t1 f")
    assert move == Move.transfer(t(1), FOUNDATIONS[1], 13)
    after = game.play(position, move)
    assert after[FOUNDATIONS[1]] == cards(run("s"))
    assert after[t(1)] == cards("5c")  # turned up


# -- scoring ------------------------------------------------------------------------------------


def test_making_a_pair_scores_one(game: Spiderette) -> None:
    position = make(["*2c 9h", "*3c Th", "*4c Ts"])
    assert game.score(position) == 0
    assert game.score(game.play(position, Move.transfer(t(1), t(2)))) == 1
    assert game.score(game.play(position, Move.transfer(t(1), t(3)))) == 0


def test_breaking_a_pair_loses_one(game: Spiderette) -> None:
    position = make(["*2c Th 9h", "*3c Ts"])
    assert game.score(position) == 1
    assert game.score(game.play(position, Move.transfer(t(1), t(2)))) == 0


def test_a_dealt_card_landing_on_its_suit_one_higher_scores_one(game: Spiderette) -> None:
    columns = ["*2c 5h", "*3c Kd", "*4c Kc", "*5c Ks", "*6c Qd", "*7c Qc", "*8c Qs"]
    stock = "Jh 9d 9c 9s Jd Jc 4h"  # bottom first: 4♥ is dealt first, onto 5♥
    position = make(columns, stock=stock)
    after = game.play(position, Move.deal(STOCK))
    assert after[t(1)][-1] == Card.from_code("4h")
    assert game.score(after) == game.score(position) + 1


def test_completed_suits_on_the_foundations_score_12(game: Spiderette) -> None:
    position = make(["*5c " + run("s"), "Kc"], foundations=[run("h")])
    assert game.score(position) == 12 + 12
    after = game.play(position, game.parse_move(position, "t1 f"))
    assert game.score(after) == 24  # the pairs go with the run


# -- won, lost ----------------------------------------------------------------------------------


def test_won_with_four_runs_on_the_tableau(game: Spiderette) -> None:
    position = make([run("c"), run("d"), "", run("h"), run("s")])
    assert game.is_won(position)
    assert game.score(position) == 48
    assert not game.is_lost(position)


def test_won_with_everything_on_the_foundations(game: Spiderette) -> None:
    position = make([], foundations=[run(s) for s in "hcsd"])
    assert game.is_won(position)
    assert game.score(position) == 48
    assert game.legal_moves(position) == []


def test_won_with_a_mix_of_tableau_and_foundations(game: Spiderette) -> None:
    """Part A: any mix wins (Aisleriot wants all on the foundations once one suit is there)."""
    position = make([run("c"), run("d")], foundations=[run("h"), run("s")])
    assert game.is_won(position)


def test_not_won_with_a_suit_incomplete(game: Spiderette) -> None:
    broken = run("d").replace("7d 6d", "6d 7d")
    position = make([run("c"), broken], foundations=[run("h"), run("s")])
    assert not game.is_won(position)
    assert game.score(position) < 48


def test_lost_when_no_legal_move(game: Spiderette) -> None:
    """Aisleriot never declares Spiderette lost; we do, exactly when no move is left: the stock
    is empty, no column is empty, and no run fits anywhere."""
    position = make(["*2c Kh", "*3c Ks", "*4c Kd", "*5c Kc", "*6c 9h", "*7c 9s", "*8c 9d"])
    assert game.legal_moves(position) == []
    assert game.is_lost(position)


def test_not_lost_while_a_useless_move_remains(game: Spiderette) -> None:
    """A position can be hopeless yet not lost: here a card can go back and forth forever."""
    position = make(["*2c Kh", "*3c Ks", "*4c Kd", "*5c Kc", "*6c 5h", "*7c Ts 9s", "*8c Td"])
    legal = game.legal_moves(position)
    assert [game.move_text(position, m) for m in legal] == ["t6 t7"]
    assert not game.is_lost(position)


def test_a_stock_with_an_empty_column_is_not_lost(game: Spiderette) -> None:
    position = make(["Kh", "", "Kd", "Kc", "Ks", "Qh", "Qd"], stock="2c")
    assert Move.deal(STOCK) not in game.legal_moves(position)
    assert not game.is_lost(position)  # any run may fill the empty column


#: A winning line for a real deal (found by a search at dev time): first line the deal number,
#: then one move per line.
WIN_DEAL, *WIN_LINE = (DATA / "win.txt").read_text().splitlines()


def test_winning_line() -> None:
    check_winning_line(load_game("spiderette"), WIN_DEAL, WIN_LINE)


def test_winning_line_through_patience_play(tmp_path: Path) -> None:
    """The same line typed into ``patience play``."""
    play_winning_line("spiderette", WIN_DEAL, WIN_LINE, tmp_path)


# -- text -----------------------------------------------------------------------------------------


def test_rendering_shows_face_down_cards_and_fits_80_columns(game: Spiderette) -> None:
    position = game.deal(DealNumber(1))
    paint = lambda card: "--" if card is None else ("##" if not card.face_up else card.code)  # noqa: E731
    lines = game.render(position, paint)
    assert lines[0].split() == ["s:[24]", "f1:--", "f2:--", "f3:--", "f4:--"]
    assert lines[2].split() == [f"t{k}" for k in range(1, 8)]
    assert lines[3].split() == ["9c", "##", "##", "##", "##", "##", "##"]
    assert lines[-1].split() == ["9s"]
    assert max(len(line) for line in lines) <= 80
    assert game.status(position) == "Stock left: 24"


def test_rules_text_names_the_piles(game: Spiderette) -> None:
    for word in ("t1-t7", "f1-f4", "stock s", "'deal'", "'t3 t5 2'", "'9h t5'"):
        assert word in game.rules


# -- properties -----------------------------------------------------------------------------------

test_random_walks = random_walk_property("spiderette", max_examples=15)


def test_positions_a_game_cannot_reach_are_refused() -> None:
    """A face-down card above a face-up one, a face-down top card, a face-up stock card."""
    from patience_core.api import BadSave

    game = Spiderette()
    start = game.deal(DealNumber(1))
    game.check_position(start)
    column = start[COLUMNS[6]]  # six face-down cards, the top one face up
    flipped = start.replace(
        [(COLUMNS[6], (*column[:4], column[4].turned(True), column[5], column[6]))]
    )
    with pytest.raises(BadSave, match="column t7: face-down cards must lie below"):
        game.check_position(flipped)
    covered = start.replace([(COLUMNS[6], (*column[:6], column[6].turned(False)))])
    with pytest.raises(BadSave, match=r"column t7: .*its top card face up"):
        game.check_position(covered)
    stock = start[STOCK]
    shown_stock = start.replace([(STOCK, (*stock[:-1], stock[-1].turned(True)))])
    with pytest.raises(BadSave, match="the stock holds a face-up card"):
        game.check_position(shown_stock)


# -- why a move is refused (issue 18, item 9) ----------------------------------------------------


def test_a_refused_move_names_spiderettes_rule() -> None:
    """Deal 2 after t2 t5, t1 t6 (t1 now empty, the outside testers' case): the deal is refused
    until every column is filled; then the other rules."""
    game = Spiderette()
    position = game.deal(DealNumber(2))
    for text in ("t2 t5", "t1 t6"):
        position = game.play(position, game.parse_move(position, text))
    with pytest.raises(IllegalMove) as info:
        game.parse_move(position, "deal")
    assert str(info.value) == "illegal move 'deal': fill every empty column before dealing"
    t1, t2, t5 = COLUMNS[0], COLUMNS[1], COLUMNS[4]
    why = game.why_illegal
    assert why(position, Move.transfer(t2, FOUNDATIONS[0])) == (
        "only a complete King-to-Ace run of one suit goes to a foundation"
    )
    assert (
        why(position, Move.transfer(t5, t1, 2))
        == "8♣ and the cards on it are not a run of one suit"
    )
    assert why(position, Move.transfer(COLUMNS[2], t1, 2)) == "t3 has only 1 face-up card"
    assert why(position, Move.transfer(t2, STOCK)) == "no card goes back to the stock"
    assert why(position, Move.transfer(t2, t5)).startswith("a run goes on a card one rank higher: ")
    assert why(position.replace([(STOCK, ())]), Move.deal(STOCK)) == "the stock is empty"
