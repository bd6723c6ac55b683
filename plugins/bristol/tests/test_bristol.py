"""Bristol rules: RULES.md Part A "Bristol" and every item of Part B §2 "Tests worth writing"."""

from __future__ import annotations

from pathlib import Path

import pytest
from patience_bristol import Bristol
from patience_bristol.game import FOUNDATIONS, RESERVES, STOCK, TABLEAU, king_fixup

from patience_core.api import Card, DealNumber, IllegalMove, Move, Position
from patience_core.testing import (
    assert_matches_golden,
    check_random_walk,
    check_winning_line,
    load_game,
    play_winning_line,
    random_walk_property,
    read_golden,
)

DATA = Path(__file__).parent / "data"
GOLDEN = read_golden((DATA / "golden-deals.txt").read_text())
PINNED = read_golden((DATA / "pinned-deals.txt").read_text())
R1, R2, R3 = RESERVES
F1, F2, F3, F4 = FOUNDATIONS


@pytest.fixture
def game() -> Bristol:
    return Bristol()


def cards(text: str, face_up: bool = True) -> tuple[Card, ...]:
    """Cards from codes listed bottom first."""
    return tuple(Card.from_code(code).turned(face_up) for code in text.split())


def make(
    tableau: dict[int, str] | None = None,
    reserves: dict[int, str] | None = None,
    foundations: dict[int, str] | None = None,
    stock: str = "",
) -> Position:
    """A position; keys are 1-based pile numbers (t1.., r1.., f1..), piles bottom first."""
    piles: list[tuple[Card, ...]] = [cards(stock, face_up=False)]
    piles += [cards((reserves or {}).get(k, "")) for k in (1, 2, 3)]
    piles += [cards((foundations or {}).get(k, "")) for k in (1, 2, 3, 4)]
    piles += [cards((tableau or {}).get(k, "")) for k in range(1, 9)]
    return Position(tuple(piles))


def t(k: int) -> int:
    """Index of tableau pile tk (1-based)."""
    return TABLEAU[k - 1]


FULL = "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc"


# -- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3])
def test_deal_matches_aisleriot(game: Bristol, number: int) -> None:
    assert_matches_golden(game, game.deal(DealNumber(number)), GOLDEN[("bristol", number)])


@pytest.mark.parametrize("number", [0, 12345, 2**32 - 1, 4, 10, 12, 143, 879])
def test_pinned_deals(game: Bristol, number: int) -> None:
    assert_matches_golden(game, game.deal(DealNumber(number)), PINNED[("bristol", number)])


def test_deal_shape(game: Bristol) -> None:
    position = game.deal(DealNumber(7))
    assert len(position[STOCK]) == 28
    assert all(not c.face_up for c in position[STOCK])
    assert all(position[i] == () for i in RESERVES + FOUNDATIONS)
    assert all(len(position[i]) == 3 and all(c.face_up for c in position[i]) for i in TABLEAU)
    assert game.score(position) == 0
    assert game.status(position) == "Stock left: 28"


# -- king fix-up (Part B §2 table; piles written top first there, bottom first here) -----------


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("Ka x Kb", "x Kb Ka"),
        ("x Ka Kb", "x Kb Ka"),
        ("Ka Kb x", "x Ka Kb"),
        ("Ka Kb Kc", "Kc Ka Kb"),
        ("Ka x y", "x y Ka"),
        ("x Ka y", "x y Ka"),
        ("x y Ka", "x y Ka"),
        ("x y z", "x y z"),
    ],
)
def test_king_fixup_cases(before: str, after: str) -> None:
    names = {"Ka": "Kc", "Kb": "Kd", "Kc": "Kh", "x": "2s", "y": "3s", "z": "4s"}
    top_first = [Card.from_code(names[n]) for n in before.split()]
    result = king_fixup((top_first[2], top_first[1], top_first[0]))
    assert [c.code for c in reversed(result)] == [names[n] for n in after.split()]


def test_king_fixup_in_a_real_deal(game: Bristol) -> None:
    # Aisleriot's deal 2 needs a fix-up on t8 (dealt 2d Kc 7h top first); golden shows 2d 7h Kc.
    assert [c.code for c in reversed(game.deal(DealNumber(2))[t(8)])] == ["2d", "7h", "Kc"]
    # Deal 879 has three kings in t8: a king stays on top (the order quirk).
    assert all(c.code[0] == "K" for c in game.deal(DealNumber(879))[t(8)])


# -- the stock ----------------------------------------------------------------------------------


def test_deal_with_four_cards_in_stock_fills_three_reserves(game: Bristol) -> None:
    position = make({1: "5c"}, reserves={1: "Kh"}, stock="2c 3c 4c 5d")  # 5d on top
    after = game.apply(position, Move.deal(STOCK))
    assert after[STOCK] == cards("2c", face_up=False)
    assert after[R1] == cards("Kh 5d")  # reserves stack: the new card covers the old
    assert after[R2] == cards("4c")
    assert after[R3] == cards("3c")


def test_deal_with_three_cards_in_stock_puts_one_on_r1(game: Bristol) -> None:
    position = make({1: "5c"}, stock="2c 3c 4c")
    after = game.apply(position, Move.deal(STOCK))
    assert after[STOCK] == cards("2c 3c", face_up=False)
    assert after[R1] == cards("4c")
    assert after[R2] == after[R3] == ()
    assert game.status(after) == "Stock left: 2"


def test_full_stock_is_nine_deals_of_three_then_one(game: Bristol) -> None:
    position = game.deal(DealNumber(1))
    sizes = []
    while Move.deal(STOCK) in game.legal_moves(position):
        before = len(position[STOCK])
        position = game.play(position, Move.deal(STOCK))
        sizes.append(before - len(position[STOCK]))
    assert sizes == [3] * 9 + [1]
    assert [len(position[r]) for r in RESERVES] == [10, 9, 9]
    assert all(c.face_up for r in RESERVES for c in position[r])


# -- moves --------------------------------------------------------------------------------------


def test_foundation_accepts_another_suit(game: Bristol) -> None:
    position = make({1: "9s 4h"}, foundations={1: "Ac 2d 3c"})
    assert Move.transfer(t(1), F1) in game.legal_moves(position)
    after = game.apply(position, Move.transfer(t(1), F1))
    assert after[F1][-1] == Card.from_code("4h")
    assert game.score(after) == 4


def test_empty_foundation_takes_only_an_ace(game: Bristol) -> None:
    position = make({1: "2h", 2: "Ad"})
    targets = {m.target for m in game.legal_moves(position) if m.source == t(1)}
    assert targets == set()
    with pytest.raises(IllegalMove):
        game.apply(position, Move.transfer(t(1), F1))


def test_tableau_builds_down_in_any_suit(game: Bristol) -> None:
    position = make({1: "Kc 5s", 2: "Kc 6h", 3: "Kd 6s", 4: "Kh 7c"})
    moves = game.legal_moves(position)
    assert Move.transfer(t(1), t(2)) in moves
    assert Move.transfer(t(1), t(3)) in moves
    assert Move.transfer(t(1), t(4)) not in moves  # two ranks apart


def test_empty_pile_refuses_a_card(game: Bristol) -> None:
    position = make({1: "9c Kc", 2: ""}, reserves={1: "Kd"})
    assert game.legal_moves(position) == []
    for source in (t(1), R1):
        with pytest.raises(IllegalMove):
            game.apply(position, Move.transfer(source, t(2)))


def test_reserves_refuse_drops(game: Bristol) -> None:
    position = make({1: "9c 5h"}, reserves={1: "6s", 2: ""})
    assert Move.transfer(t(1), R1) not in game.legal_moves(position)
    for reserve in (R1, R2):
        with pytest.raises(IllegalMove):
            game.apply(position, Move.transfer(t(1), reserve))


def test_reserve_card_plays_to_tableau_and_foundation(game: Bristol) -> None:
    position = make({1: "Kc 6d"}, reserves={1: "2c 5h", 2: "Ah"})
    moves = game.legal_moves(position)
    assert Move.transfer(R1, t(1)) in moves
    assert Move.transfer(R2, F1) in moves
    after = game.apply(position, Move.transfer(R1, t(1)))
    assert after[R1] == cards("2c")  # the card beneath shows again


def test_two_cards_cannot_be_lifted_together(game: Bristol) -> None:
    position = make({1: "Kc 6d 5s", 2: "Qh 7h"})
    assert all(m.count == 1 for m in game.legal_moves(position))
    with pytest.raises(IllegalMove):
        game.apply(position, Move.transfer(t(1), t(2), 2))
    with pytest.raises(IllegalMove):
        game.parse_move(position, "6d t2")  # 6d is covered by 5s


def test_stock_and_foundation_cards_cannot_move(game: Bristol) -> None:
    position = make({1: "Kc 3h"}, foundations={1: "Ac 2d", 2: "Ah"}, stock="4c")
    moves = game.legal_moves(position)
    assert all(m.source not in FOUNDATIONS for m in moves)
    assert [m for m in moves if m.source == STOCK] == [Move.deal(STOCK)]
    with pytest.raises(IllegalMove):
        game.apply(position, Move.transfer(F1, F2))


def test_ace_double_click_goes_to_first_empty_foundation(game: Bristol) -> None:
    # "t1 f" (the notation's double-click) sends an ace to the first empty foundation, f2 here.
    position = make({1: "Kc Ad"}, foundations={1: "Ac"})
    assert game.parse_move(position, "t1 f") == Move.transfer(t(1), F2)
    assert game.parse_move(position, "ad") == Move.transfer(t(1), F2)
    # Any empty foundation is a legal drag target.
    assert {m.target for m in game.legal_moves(position)} == {F2, F3, F4}


def test_other_card_double_click_goes_to_first_fitting_foundation(game: Bristol) -> None:
    position = make({1: "Kc 3d"}, foundations={1: "Ac", 2: "As 2h", 3: "Ah 2c"})
    assert game.parse_move(position, "t1 f") == Move.transfer(t(1), F2)


# -- score, win, loss (Part A) ------------------------------------------------------------------


def test_score_counts_foundation_cards(game: Bristol) -> None:
    position = make({1: "Kc 2s"}, foundations={1: "Ac", 2: "Ah 2h 3h"})
    assert game.score(position) == 4
    assert game.score(game.play(position, Move.transfer(t(1), F1))) == 5


def test_won_with_all_foundations_full(game: Bristol) -> None:
    full = {k: FULL for k in (1, 2, 3)}
    position = make({1: "Kh"}, foundations=full | {4: FULL.rsplit(" ", 1)[0]})
    assert not game.is_won(position)
    after = game.apply(position, Move.transfer(t(1), F4))
    assert game.is_won(after)
    assert not game.is_lost(after)
    assert game.score(after) == 52 == game.max_score
    assert game.legal_moves(after) == []


def test_not_lost_while_a_single_card_pile_can_move(game: Bristol) -> None:
    # Aisleriot's hint never suggests moving a pile's only card (its top run is the whole pile),
    # so Aisleriot declares this position lost. patience's "lost" is exact (Part A): the move
    # 5s -> 6h exists, so the game goes on.
    position = make({1: "5s", 2: "Kc 6h", 3: "Qd 9c"})
    assert game.legal_moves(position) == [Move.transfer(t(1), t(2))]
    assert not game.is_lost(position)
    after = game.apply(position, Move.transfer(t(1), t(2)))
    assert game.legal_moves(after) == []
    assert game.is_lost(after)


def test_not_lost_while_the_stock_has_cards(game: Bristol) -> None:
    position = make({1: "Kc 9d"}, stock="2c")
    assert game.legal_moves(position) == [Move.deal(STOCK)]
    assert not game.is_lost(position)


# -- notation, rendering and contract -----------------------------------------------------------


def test_move_text_round_trip(game: Bristol) -> None:
    position = make({1: "Kc 6d"}, reserves={2: "5s"})
    move = Move.transfer(R2, t(1))
    assert game.move_text(position, move) == "r2 t1"
    assert game.parse_move(position, "r2 t1") == move
    assert game.parse_move(position, "5s") == move


def test_render_fits_80_columns(game: Bristol) -> None:
    position = game.deal(DealNumber(1))
    for _ in range(10):
        position = game.play(position, Move.deal(STOCK))
    lines = game.render(
        position, lambda c: "--" if c is None else ("##" if not c.face_up else c.code)
    )
    assert lines[0].startswith("s:[ 0]  r1:")
    assert lines[1] == " t1: 9c Td Jc"
    assert all(len(line) <= 80 for line in lines)


def test_found_through_entry_point() -> None:
    assert isinstance(load_game("bristol"), Bristol)


def test_winning_line_replays(game: Bristol) -> None:
    lines = (DATA / "winning-line-deal-1.txt").read_text().splitlines()
    check_winning_line(game, 1, lines)


def test_winning_line_through_the_play_command(tmp_path: Path) -> None:
    lines = (DATA / "winning-line-deal-1.txt").read_text().splitlines()
    play_winning_line("bristol", 1, lines, tmp_path)


@pytest.mark.parametrize("deal", range(8))
def test_random_walks_keep_invariants(deal: int) -> None:
    check_random_walk(Bristol(), deal, seed=deal * 7 + 1, steps=120)


test_random_walk_property = random_walk_property("bristol", steps=120, max_examples=15)


def _edited(game: Bristol, edit: dict[int, tuple[str, ...]]) -> Position:
    """Deal 1 with the piles in ``edit`` replaced (card codes, ``#`` before a face-down one)."""
    piles = list(game.deal(DealNumber(1)).piles)
    for index, codes in edit.items():
        piles[index] = tuple(Card.from_code(c.lstrip("#")).turned(c[0] != "#") for c in codes)
    return Position(tuple(piles))


#: Deal 1's stock, face down, bottom first (its top card is the 4h).
_STOCK_1 = tuple(f"#{card.code}" for card in Bristol().deal(DealNumber(1))[STOCK])


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        ({TABLEAU[0]: ("#9c", "Td", "Jc")}, "pile t1 holds a face-down card; only the stock does"),
        ({STOCK: (*_STOCK_1[:-1], "4h")}, "the stock holds a face-up card"),
        ({STOCK: _STOCK_1[:-1], RESERVES[0]: ("4h",)}, "the stock holds 27 cards"),
        ({TABLEAU[7]: ("Ks", "5s"), RESERVES[0]: ("8h",)}, "reserves hold more cards than"),
        ({TABLEAU[5]: ("Ac", "9d"), FOUNDATIONS[0]: ("Jh",)}, "f1 is not built up from the Ace"),
        (
            {TABLEAU[6]: ("4d", "3d"), TABLEAU[1]: ("Qh", "Ad"), FOUNDATIONS[1]: ("As", "3s")},
            "f2 is not built up from the Ace",
        ),
    ],
)
def test_impossible_positions_are_refused(
    game: Bristol, edit: dict[int, tuple[str, ...]], needle: str
) -> None:
    from patience_core.api import BadSave

    with pytest.raises(BadSave, match=needle):
        game.check_position(_edited(game, edit))


def test_positions_play_reaches_pass_the_check(game: Bristol) -> None:
    """Three deals (27 cards dealt to the reserves, stock 1), then the last one (stock 0), and
    an Ace then a Two of another suit on a foundation."""
    position = game.deal(DealNumber(1))
    for _ in range(9):
        position = game.play(position, Move.deal(STOCK))
    game.check_position(position)
    game.check_position(game.play(position, Move.deal(STOCK)))
    game.check_position(
        _edited(game, {TABLEAU[6]: ("4d", "3d"), TABLEAU[3]: ("3c", "Js"), 4: ("As", "2d")})
    )


# -- why a move is refused (issue 18, item 9) ----------------------------------------------------


def test_a_refused_move_names_bristols_rule() -> None:
    game = Bristol()
    start = game.deal(DealNumber(3))
    t1, t2 = TABLEAU[0], TABLEAU[1]
    top = game.card_name(start[t1][-1])
    assert game.why_illegal(start, Move.transfer(t1, t2)).startswith(
        f"Bristol builds down by one rank in any suit: {top} does not go on "
    )
    assert game.why_illegal(start, Move.transfer(t1, FOUNDATIONS[0])) == (
        f"a foundation starts with an Ace, not {top}"
    )
    assert game.why_illegal(start, Move.transfer(t1, RESERVES[0])) == (
        "the reserves take only cards dealt from the stock"
    )
    assert game.why_illegal(start, Move.transfer(t1, t2, 2)).startswith(
        f"only a top card moves: {game.card_name(start[t1][-2])} is covered by {top}"
    )
    assert game.why_illegal(start, Move.transfer(RESERVES[0], t1)) == "nothing to move: r1 is empty"
    assert (
        game.why_illegal(start, Move.transfer(STOCK, t1)) == "cards leave the stock only by a deal"
    )
    emptied = start.replace([(t2, ())])
    assert (
        game.why_illegal(emptied, Move.transfer(t1, t2)) == "an empty pile takes nothing in Bristol"
    )
    assert game.why_illegal(start.replace([(STOCK, ())]), Move.deal(STOCK)) == "the stock is empty"
