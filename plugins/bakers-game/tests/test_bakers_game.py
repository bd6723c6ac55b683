"""Baker's Game rules: RULES.md Part A "Baker's Game" and every item of Part B §3 "Tests worth
writing" (the supermove table and the "whole column" case under ``empty-columns=any``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from patience_bakers_game import CELLS, COLUMNS, FOUNDATIONS, BakersGame

from patience_core.api import BadOption, Card, DealNumber, IllegalMove, Move, Position
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
#: A winning line for Aisleriot deal 5 under the default rules (found by a search at dev time).
WIN_DEAL_5 = (DATA / "win-deal-5.txt").read_text().splitlines()
#: A winning line for Microsoft deal 1 under ``empty-columns=any`` (same search).
WIN_MS_1_ANY = (DATA / "win-ms-1-any.txt").read_text().splitlines()


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.from_code(code) for code in text.split())


def make(
    columns: list[str], cells: list[str] | None = None, foundations: list[str] | None = None
) -> Position:
    """A position from card texts: up to 8 columns (bottom first), 4 cells, 4 foundations."""
    cell_piles = [cards(c) for c in (cells or [])] + [()] * (4 - len(cells or []))
    home = [cards(f) for f in (foundations or [])] + [()] * (4 - len(foundations or []))
    cols = [cards(c) for c in columns] + [()] * (8 - len(columns))
    return Position(tuple(cell_piles + home + cols))


def t(k: int) -> int:
    """Index of column tk (1-based)."""
    return COLUMNS[k - 1]


def c(k: int) -> int:
    """Index of free cell ck (1-based)."""
    return CELLS[k - 1]


@pytest.fixture
def kings() -> BakersGame:
    return BakersGame()


@pytest.fixture
def anyc() -> BakersGame:
    return BakersGame({"empty-columns": "any"})


# -- dealing ------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3])
def test_deal_matches_aisleriot(kings: BakersGame, number: int) -> None:
    position = kings.deal(DealNumber(number))
    assert_matches_golden(kings, position, GOLDEN[("bakers-game", number)])


def test_deal_shape(kings: BakersGame) -> None:
    position = kings.deal(DealNumber(99))
    assert [len(position[i]) for i in COLUMNS] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(not position[i] for i in CELLS + FOUNDATIONS)
    assert all(card.face_up for card in position.cards())


def test_registered_through_the_entry_point() -> None:
    game = load_game("bakers-game", {"empty-columns": "any"})
    assert isinstance(game, BakersGame)
    assert game.option("empty-columns") == "any"


# -- options ------------------------------------------------------------------------------------


def test_default_option_is_kings(kings: BakersGame) -> None:
    assert kings.option("empty-columns") == "kings"
    assert kings.kings_only


@pytest.mark.parametrize(
    "options", [{"empty-columns": "sometimes"}, {"empty-column": "any"}, {"empty-columns": ""}]
)
def test_bad_options_are_refused(options: dict[str, str]) -> None:
    with pytest.raises(BadOption):
        BakersGame(options)


# -- building -----------------------------------------------------------------------------------


def test_same_suit_joining(kings: BakersGame) -> None:
    position = make(["Kc 5s", "Kd 6s", "Kh 6h"])
    legal = kings.legal_moves(position)
    assert Move.transfer(t(1), t(2)) in legal  # 5♠ on 6♠
    assert Move.transfer(t(1), t(3)) not in legal  # 5♠ on 6♥
    with pytest.raises(IllegalMove):
        kings.parse_move(position, "t1 t3")


def test_a_non_king_moves_into_an_empty_column_under_any(anyc: BakersGame) -> None:
    position = make(["Kc 5s", "Kd 6h"])
    assert Move.transfer(t(1), t(3)) in anyc.legal_moves(position)


def test_kings_rule_refuses_a_non_king_in_an_empty_column(kings: BakersGame) -> None:
    position = make(["Kc 5s", "Qd Ks", "2c Kh Qh", "2d Kd Qd Jc"])
    legal = kings.legal_moves(position)
    assert Move.transfer(t(1), t(5)) not in legal
    assert Move.transfer(t(2), t(5)) in legal  # a King
    assert Move.transfer(t(3), t(5), 2) in legal  # a King-led run
    assert Move.transfer(t(3), t(5), 1) not in legal  # its Queen alone
    assert Move.transfer(t(4), t(5), 2) not in legal  # not a run: Jc on Qd


def test_lifting_a_run_that_is_not_same_suit_is_refused(anyc: BakersGame) -> None:
    position = make(["Kc 6h 5s", "Kd 7h", "Qc 6s"])
    legal = anyc.legal_moves(position)
    assert not [m for m in legal if m.source == t(1) and m.count == 2]
    with pytest.raises(IllegalMove):
        anyc.parse_move(position, "t1 t2 2")
    assert Move.transfer(t(1), t(3)) in legal  # the 5♠ alone still moves


# -- supermoves ---------------------------------------------------------------------------------


def run_position(free: int, empty: int, dest_empty: bool, length: int) -> Position:
    """t1: a blocker then a heart run Q♥ down of ``length`` cards; t2: K♥ (or empty); ``empty``
    other empty columns; ``4 - free`` cells filled."""
    run = " ".join(f"{'QJT98765432'[k]}h" for k in range(length))
    fillers = ["2c", "3c", "4c", "5c", "6c", "7c"]  # columns that take nothing here
    columns = ["Ac " + run, "" if dest_empty else "Kh", *fillers[: 6 - empty]]
    return make(columns, cells=["Kd", "Qd", "Jd", "Td"][: 4 - free])


def can_move(game: BakersGame, free: int, empty: int, dest_empty: bool, length: int) -> bool:
    position = run_position(free, empty, dest_empty, length)
    assert sum(1 for i in COLUMNS[2:] if not position[i]) == empty
    return Move.transfer(t(1), t(2), length) in game.legal_moves(position)


@pytest.mark.parametrize(
    ("free", "empty", "dest_empty", "largest"),
    [
        (1, 0, False, 2),
        (0, 1, False, 2),
        (1, 1, False, 4),
        (2, 1, False, 6),
        (1, 2, False, 8),
        (2, 0, True, 3),
        (2, 1, True, 6),
    ],
)
def test_supermove_table(
    anyc: BakersGame, free: int, empty: int, dest_empty: bool, largest: int
) -> None:
    assert can_move(anyc, free, empty, dest_empty, largest)
    assert not can_move(anyc, free, empty, dest_empty, largest + 1)


def test_a_whole_column_counts_its_own_emptied_column(anyc: BakersGame) -> None:
    fillers = ["2c", "3c", "4c", "5c", "6c"]
    two = make(["9h 8h", "Th", *fillers], cells=["Kd", "Qd", "Jd", "Td"])
    three = make(["9h 8h 7h", "Th", *fillers], cells=["Kd", "Qd", "Jd", "Td"])
    assert Move.transfer(t(1), t(2), 2) in anyc.legal_moves(two)
    assert Move.transfer(t(1), t(2), 3) not in anyc.legal_moves(three)


@pytest.mark.parametrize(("free", "empty"), [(0, 0), (1, 0), (1, 2), (3, 1)])
def test_kings_rule_limit_is_free_cells_plus_one(kings: BakersGame, free: int, empty: int) -> None:
    assert can_move(kings, free, empty, False, free + 1)
    assert not can_move(kings, free, empty, False, free + 2)


# -- auto-play ----------------------------------------------------------------------------------


def test_no_auto_play_at_the_deal_then_auto_play_after_any_move(kings: BakersGame) -> None:
    position = kings.deal(DealNumber(1))
    assert position[t(2)][-1] == Card.from_code("Ah")  # Aisleriot deal 1 has A♥ on top of t2
    assert all(not position[f] for f in FOUNDATIONS)
    after = kings.apply(position, kings.parse_move(position, "t1 c1"))  # unrelated to A♥
    assert after[FOUNDATIONS[0]] == cards("Ah 2h")  # A♥, then the 2♥ on top of t3
    assert after[t(2)][-1] == Card.from_code("4s")
    assert after[t(3)][-1] == Card.from_code("8s")


def test_auto_play_scans_cells_first_and_goes_up_to_the_king(kings: BakersGame) -> None:
    position = make(
        ["Qs Js", "2d Ks", "Ah"],
        cells=["Ac", "3c"],
        foundations=["As 2s 3s 4s 5s 6s 7s 8s 9s Ts"],
    )
    after = kings.play(position, Move.transfer(t(3), c(3)))
    assert after[FOUNDATIONS[0]][-1] == Card.from_code("Ks")  # J, Q, K of spades
    assert after[FOUNDATIONS[1]] == cards("Ac")  # the cell's A♣ first, to the first empty one
    assert after[FOUNDATIONS[2]] == cards("Ah")  # then the A♥ just put in c3
    assert after[c(2)] == cards("3c")  # 3♣ waits for the 2♣


def test_undo_reverts_the_auto_play(kings: BakersGame) -> None:
    """The move and its auto-play are one step: the position before it (what undo restores)
    still has every card the auto-play moved."""
    before = kings.deal(DealNumber(1))
    after = kings.play(before, Move.transfer(t(1), c(1)))
    assert kings.score(after) == 2
    assert kings.score(before) == 0
    assert before[t(2)][-1] == Card.from_code("Ah")


def test_a_card_goes_to_the_first_empty_free_cell(kings: BakersGame) -> None:
    """Aisleriot's double-click (top card to the first empty free cell) is 'SRC c'."""
    position = make(["Kc 5s", "Kd 6h"], cells=["Qd"])
    move = kings.parse_move(position, "t1 c")
    assert move == Move.transfer(t(1), c(2))
    assert kings.play(position, move)[c(2)] == cards("5s")


def test_foundation_cards_never_move(kings: BakersGame) -> None:
    """The double-click quirk (foundation card to a cell and back, scoring again) is not
    reproduced: nothing leaves a foundation (RULES.md Part A)."""
    position = make(["Kc 5s"], foundations=["Ah 2h"])
    assert all(m.source not in FOUNDATIONS for m in kings.legal_moves(position))


# -- won, lost, score ---------------------------------------------------------------------------


def test_lost_when_no_legal_move(kings: BakersGame) -> None:
    """Aisleriot never declares Baker's Game lost; we do, exactly when no move is left."""
    position = make(
        ["Ac Qc", "Ad Qd", "Ah Qh", "As Qs", "3c 2c", "3d 2d", "3h 2h", "3s 2s"],
        cells=["Kc", "Kd", "Kh", "Ks"],
    )
    assert kings.legal_moves(position) == []
    assert kings.is_lost(position)
    assert not kings.is_won(position)


def test_not_lost_while_a_move_exists(kings: BakersGame) -> None:
    position = make(
        ["Ac Qc", "Ad Qd", "Ah Qh", "As Qs", "3c 2c", "3d 2d", "3h 2h", "3s 2s"],
        cells=["Kc", "Kd", "Kh"],
    )
    assert kings.legal_moves(position)
    assert not kings.is_lost(position)


def test_won_when_all_foundations_hold_13(kings: BakersGame) -> None:
    suits = ["A 2 3 4 5 6 7 8 9 T J Q K".replace(" ", f"{s} ") + s for s in "chds"]
    position = make([], foundations=suits)
    assert kings.is_won(position)
    assert not kings.is_lost(position)
    assert kings.legal_moves(position) == []
    assert kings.score(position) == 52 == kings.max_score


def test_score_counts_foundation_cards(kings: BakersGame) -> None:
    position = make(["Kc 5s"], foundations=["Ah 2h", "As"])
    assert kings.score(position) == 3


@pytest.mark.parametrize(
    ("deal", "options", "line"),
    [("5", {}, WIN_DEAL_5), ("ms:1", {"empty-columns": "any"}, WIN_MS_1_ANY)],
)
def test_winning_line(deal: str, options: dict[str, str], line: list[str]) -> None:
    check_winning_line(load_game("bakers-game", options), deal, line)


# -- text -----------------------------------------------------------------------------------------


def test_status_and_rendering_fit_80_columns(kings: BakersGame) -> None:
    position = kings.deal(DealNumber(1))
    lines = kings.render(position, lambda card: "--" if card is None else str(card))
    assert lines[0].split() == [
        "c1:--",
        "c2:--",
        "c3:--",
        "c4:--",
        "f1:--",
        "f2:--",
        "f3:--",
        "f4:--",
    ]
    assert max(len(line) for line in lines) <= 80
    assert lines[2].split() == [f"t{k}" for k in range(1, 9)]
    assert lines[3].split()[0] == "9c"  # t1's bottom card first: columns fan downward
    assert kings.status(position) == "Free cells: 4  Empty columns: 0  Foundations: 0/52"


def test_rules_text_names_the_piles(kings: BakersGame) -> None:
    for word in ("c1-c4", "f1-f4", "t1", "empty-columns=any", "ms:N"):
        assert word in kings.rules


# -- properties -----------------------------------------------------------------------------------

test_random_walks = random_walk_property("bakers-game", max_examples=15)


@pytest.mark.parametrize("deal", [DealNumber(7), DealNumber(11, "ms"), DealNumber(617, "ms")])
def test_random_walks_with_any_empty_column(anyc: BakersGame, deal: DealNumber) -> None:
    check_random_walk(anyc, deal, seed=deal.number, steps=200)


def test_winning_line_through_patience_play(tmp_path: Path) -> None:
    """The same line typed into ``patience play``."""
    play_winning_line("bakers-game", 5, WIN_DEAL_5, tmp_path)


def test_position_checks_refuse_a_foundation_not_built_from_the_ace() -> None:
    from patience_core.api import BadSave, DealNumber, Position

    game = BakersGame()
    start = game.deal(DealNumber(1))
    game.check_position(start)
    column = COLUMNS[0]
    top = start[column][-1]
    piles = list(start.piles)
    piles[column] = start[column][:-1]
    piles[FOUNDATIONS[0]] = (top,)
    moved = Position(tuple(piles))
    if top.rank == 1:
        game.check_position(moved)  # an Ace may start a foundation
    else:
        with pytest.raises(BadSave, match="f1 is not one suit built up from the Ace"):
            game.check_position(moved)
    piles[FOUNDATIONS[0]] = ()
    piles[CELLS[0]] = (top, start[COLUMNS[1]][-1])
    piles[COLUMNS[1]] = start[COLUMNS[1]][:-1]
    with pytest.raises(BadSave, match="free cell c1 holds more than one card"):
        game.check_position(Position(tuple(piles)))


def test_a_position_with_a_face_down_card_is_refused() -> None:
    """Baker's Game deals every card face up: a position file with a face-down card cannot
    happen (the solver once called such a position dead)."""
    from patience_core.api import BadSave

    game = BakersGame()
    start = game.deal(DealNumber(1))
    column = start[COLUMNS[0]]
    hidden = start.replace([(COLUMNS[0], (column[0].turned(False), *column[1:]))])
    game.check_position(start)
    with pytest.raises(BadSave, match="pile t1 holds a face-down card; every card is face up"):
        game.check_position(hidden)


# -- why a move is refused (issue 18, item 9) ----------------------------------------------------


def _after(game: BakersGame, deal: str, *texts: str) -> Position:
    position = game.deal(DealNumber.parse(deal))
    for text in texts:
        position = game.play(position, game.parse_move(position, text))
    return position


def _refusal(game: BakersGame, position: Position, text: str) -> str:
    with pytest.raises(IllegalMove) as info:
        game.parse_move(position, text)
    return str(info.value)


def test_a_refused_move_names_bakers_games_rule() -> None:
    """ms:24 after t4 f, t7 c1, t7 c2, t1 c3, t1 c4 (the outside testers' case): J♦ from c1
    onto Q♠ breaks the build in suit; then every other rule."""
    game = BakersGame({"empty-columns": "kings"})
    position = _after(game, "ms:24", "t4 f", "t7 c1", "t7 c2", "t1 c3", "t1 c4")
    assert _refusal(game, position, "c1 t1") == (
        "illegal move 'c1 t1': Baker's Game builds down in suit: J♦ goes on Q♦, not Q♠"
    )
    assert _refusal(game, position, "t3 c1") == "illegal move 't3 c1': c1 already holds J♦"
    assert _refusal(game, position, "t1 f") == (
        "illegal move 't1 f': foundations build up in suit: Q♠ does not go on A♠"
    )
    assert _refusal(game, position, "deal") == "this game has no stock to deal from"
    start = game.deal(DealNumber.parse("ms:24"))
    assert _refusal(game, start, "t1 t2 5").endswith(
        "9♣ and the cards on it are not a run down in suit"
    )
    assert _refusal(game, start, "t1 c1 2") == "illegal move 't1 c1 2': a free cell holds one card"
    # An empty column under empty-columns=kings takes a King only (t8 t7 at move 15 of the
    # outside testers' line).
    column = start.replace([(COLUMNS[6], ()), (COLUMNS[7], start[COLUMNS[7]] + start[COLUMNS[6]])])
    move = Move.transfer(COLUMNS[7], COLUMNS[6])
    assert game.why_illegal(column, move) == "only a King may fill an empty column"
    assert game.why_illegal(start, Move.transfer(FOUNDATIONS[0], CELLS[0])) == (
        "nothing to move: f1 is empty"
    )
