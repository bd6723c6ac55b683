"""The board's geometry, without a screen: every pile placed, nothing overlapping or outside the
board, top cards whole, long fans compressed, hit tests and cursor moves that agree with what is
drawn, and the size needed when the board cannot fit (the fake game and made-up layouts)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from patience_core.engine import DealNumber
from patience_core.games import BoardLayout, BoardRow, Game, board_of, default_board
from patience_core.model import Card, PileKind, PileSpec, Position
from patience_core.testing import FakeGame, random_walk
from patience_core.tui import Geometry, board_geometry


def walk(game: Game, deal: int, steps: int, seed: int) -> Position:
    """The position after up to ``steps`` random legal moves from deal ``deal``."""
    return random_walk(game, deal, steps, seed)[-1]


def check(game: Game, position: Position, geometry: Geometry, text_width: int = 2) -> None:
    """What every board that fits must be: see the module's docstring."""
    assert geometry.needed is None
    cells: dict[tuple[int, int], object] = {}
    for item in geometry.placed:
        assert 0 <= item.y < geometry.rows and item.x >= 0
        assert item.x + item.width <= geometry.columns, item
        for x in range(item.x, item.x + item.width):
            assert (x, item.y) not in cells, f"{item} overlaps {cells[(x, item.y)]}"
            cells[(x, item.y)] = item
    for pile, cards in enumerate(position):
        area = geometry.areas[pile]
        if area is None:  # only a covered place whose card has gone is not drawn
            assert not cards
            continue
        drawn = [p for p in geometry.placed if p.pile == pile and p.what in ("card", "outline")]
        top = drawn[-1]
        assert top.width >= text_width
        if cards:
            assert (top.what, top.index, top.card) == ("card", len(cards) - 1, cards[-1])
        else:
            assert top.what == "outline"
        for item in drawn:
            assert geometry.pile_at(item.x, item.y) == (pile, item.index)
            assert geometry.pile_at(item.x + item.width - 1, item.y) == (pile, item.index)
        for index in range(-1, len(cards)):
            x, y, _width, _height = geometry.card_region(pile, index)
            hit = geometry.pile_at(x, y)
            assert hit is not None and hit[0] == pile
        for direction in ("left", "right", "up", "down"):
            assert geometry.areas[geometry.neighbour(pile, direction)] is not None


def test_the_fake_game_fits_an_80_by_21_board_and_is_centred() -> None:
    game = FakeGame()
    position = game.deal(DealNumber(1))
    geometry = board_geometry(game, position, 80, 21)
    check(game, position, geometry)
    assert geometry.metrics is not None and geometry.metrics.card == 6
    xs = [p.x for p in geometry.placed]
    right = max(p.x + p.width for p in geometry.placed)
    assert abs(min(xs) - (80 - right)) <= geometry.metrics.place


@settings(max_examples=60, deadline=None)
@given(
    deal=st.integers(1, 10_000),
    steps=st.integers(0, 40),
    seed=st.integers(0, 1000),
    columns=st.integers(20, 200),
    rows=st.integers(8, 60),
)
def test_fake_game_positions_fit_or_say_the_size_they_need(
    deal: int, steps: int, seed: int, columns: int, rows: int
) -> None:
    game = FakeGame()
    position = walk(game, deal, steps, seed)
    geometry = board_geometry(game, position, columns, rows)
    if geometry.needed is None:
        check(game, position, geometry)
    else:
        assert geometry.placed == ()
        needed = board_geometry(game, position, *geometry.needed)
        check(game, position, needed)


def test_a_too_small_board_says_the_size_it_needs_and_draws_nothing() -> None:
    game = FakeGame()
    position = game.deal(DealNumber(1))
    geometry = board_geometry(game, position, 10, 3)
    assert geometry.needed is not None and geometry.placed == ()
    columns, rows = geometry.needed
    assert columns > 10 and rows > 3
    check(game, position, board_geometry(game, position, columns, rows))
    assert board_geometry(game, position, columns - 1, rows).needed is not None
    assert board_geometry(game, position, columns, rows - 1).needed is not None
    assert geometry.pile_at(0, 0) is None


def long_column(game: Game, pile: int, length: int) -> Position:
    """A position of ``game`` with ``length`` cards (the bottom half face down) in ``pile``."""
    cards = [Card.of(1 + k % 13, k // 13 % 4, face_up=k >= length // 2) for k in range(length)]
    piles = [()] * len(game.piles)
    piles[pile] = tuple(cards)
    return Position(tuple(piles))


def test_a_long_column_shows_a_marker_then_its_top_cards() -> None:
    game = FakeGame()
    t1 = game.pile_indices(PileKind.TABLEAU)[0]
    position = long_column(game, t1, 40)
    geometry = board_geometry(game, position, 80, 21)
    check(game, position, geometry)
    more = [p for p in geometry.placed if p.pile == t1 and p.what == "more"]
    shown = [p.index for p in geometry.placed if p.pile == t1 and p.what == "card"]
    assert len(more) == 1 and more[0].text == f"+{more[0].hidden}"
    assert shown == list(range(more[0].hidden, 40))
    # A hidden card is found at its marker; the marker's cell means the first card shown.
    assert geometry.card_region(t1, 3)[:2] == (more[0].x, more[0].y)
    assert geometry.pile_at(more[0].x, more[0].y) == (t1, 0)
    # More room shows more of the column, up to all of it.
    taller = board_geometry(game, position, 80, 60)
    assert not [p for p in taller.placed if p.pile == t1 and p.what == "more"]


def test_wider_boards_use_wider_cards_up_to_a_limit_and_narrow_ones_narrower() -> None:
    game = FakeGame()
    position = game.deal(DealNumber(1))
    widths = [board_geometry(game, position, c, 21).metrics for c in (20, 30, 40, 200)]
    cards = [m.card for m in widths if m is not None]
    assert cards == sorted(cards) and cards[-1] == 6 and cards[0] < 6


def test_card_text_wider_than_the_cards_needs_wider_cards() -> None:
    game = FakeGame()
    position = game.deal(DealNumber(1))
    geometry = board_geometry(game, position, 200, 30, text_width=5)
    assert geometry.metrics is not None and geometry.metrics.card >= 5
    check(game, position, geometry, text_width=5)


def test_stacked_piles_show_the_count_of_a_stock_waste_or_reserve() -> None:
    game = FakeGame()
    position = game.deal(DealNumber(1))
    geometry = board_geometry(game, position, 80, 21)
    names = {p.pile: p.text for p in geometry.placed if p.what == "name"}
    assert names[0] == f"s {len(position[0])}"
    assert names[2] == "f1"


def test_cursor_moves_to_the_nearest_pile_each_way() -> None:
    game = FakeGame()
    position = game.deal(DealNumber(1))
    geometry = board_geometry(game, position, 80, 21)
    s, w, f1, _f2, t1, t2, t3 = range(7)
    assert geometry.neighbour(s, "right") == w
    assert geometry.neighbour(s, "left") == s
    assert geometry.neighbour(s, "down") == t1
    assert geometry.neighbour(t2, "right") == t3
    assert geometry.neighbour(t3, "up") in (w, f1)
    assert geometry.neighbour(t1, "down") == t1
    with pytest.raises(ValueError, match="direction"):
        geometry.neighbour(s, "sideways")


PILES = (
    PileSpec("s", PileKind.STOCK),
    *(PileSpec(f"p{k}", PileKind.TABLEAU) for k in range(1, 7)),
    *(PileSpec(f"t{k}", PileKind.TABLEAU) for k in (1, 2)),
)
PYRAMID = BoardLayout(
    [
        BoardRow(["p1"], indent=2, covered=True),
        BoardRow(["p2", "p3"], indent=1, covered=True),
        BoardRow(["p4", "p5", "p6"], covered=True),
        BoardRow(["s"]),
        BoardRow(["t1"], fan="right"),
        BoardRow(["t2"], fan="right"),
    ]
)


class Shapes(FakeGame):
    """The fake game's cards in a made-up layout: a covered pyramid, a stock, two right fans."""

    board = PYRAMID

    @property
    def piles(self) -> tuple[PileSpec, ...]:
        return PILES


def shapes_position(right: int) -> Position:
    deck = [Card.of(1 + k % 13, k % 4) for k in range(40)]
    return Position(
        ((deck[0].turned(False),), *((c,) for c in deck[1:7]), tuple(deck[7 : 7 + right]), ())
    )


def test_covered_rows_are_one_line_each_half_a_place_apart_and_gone_cards_blank() -> None:
    game = Shapes()
    position = shapes_position(5)
    geometry = board_geometry(game, position, 80, 21)
    check(game, position, geometry)
    assert geometry.metrics is not None
    place = geometry.metrics.place
    p1, p2, p4 = (geometry.card_region(i, 0) for i in (1, 2, 4))
    assert (p2[1], p4[1]) == (p1[1] + 1, p1[1] + 2)
    assert p1[0] - p2[0] == p2[0] - p4[0] == place // 2
    assert not [p for p in geometry.placed if p.pile in range(1, 7) and p.what == "name"]
    gone = position.replace([(5, ())])
    after = board_geometry(game, gone, 80, 21)
    check(game, gone, after)
    assert after.areas[5] is None and after.pile_at(*after_region(geometry, 5)) is None


def after_region(geometry: Geometry, pile: int) -> tuple[int, int]:
    x, y, _, _ = geometry.card_region(pile, 0)
    return x, y


def test_right_fans_put_the_name_first_and_compress_long_piles() -> None:
    game = Shapes()
    position = shapes_position(30)
    geometry = board_geometry(game, position, 60, 21)
    check(game, position, geometry)
    t1, t2 = 7, 8
    row = [p for p in geometry.placed if p.pile == t1]
    assert row[0].what == "name" and row[0].text == "t1"
    assert row[1].what == "more" and row[-1].index == 29
    assert len({p.y for p in row}) == 1
    empty = [p for p in geometry.placed if p.pile == t2 and p.what == "outline"]
    assert len(empty) == 1
    assert geometry.pile_at(empty[0].x, empty[0].y) == (t2, -1)


def test_the_default_board_is_built_from_the_piles_kinds() -> None:
    piles = (
        PileSpec("t1", PileKind.TABLEAU),
        PileSpec("f1", PileKind.FOUNDATION),
        PileSpec("s", PileKind.STOCK),
        PileSpec("c1", PileKind.FREE_CELL),
        PileSpec("t2", PileKind.TABLEAU),
    )
    board = default_board(piles)
    assert [row.piles for row in board.rows] == [("s", None, "c1", None, "f1"), ("t1", "t2")]
    assert [row.fan for row in board.rows] == ["none", "down"]
    right = default_board(piles, "right")
    assert [(row.piles, row.fan) for row in right.rows[1:]] == [
        (("t1",), "right"),
        (("t2",), "right"),
    ]
    assert board.problem(piles) is None
    many = tuple(PileSpec(f"f{k}", PileKind.FOUNDATION) for k in range(1, 13))
    assert [len(row.piles) for row in default_board(many).rows] == [10, 2]
    assert board_of(FakeGame()) == default_board(FakeGame().piles)
    assert board_of(Shapes()) is PYRAMID


def test_a_layout_names_its_problems() -> None:
    assert PYRAMID.problem(PILES[:-1]) == "board names 't2', which is not a pile"
    assert BoardLayout([BoardRow(["s", "s"])]).problem(PILES[:1]) == "board places pile 's' twice"
    assert BoardLayout([BoardRow(["s"])]).problem(PILES[:2]) == "board leaves out pile 'p1'"
    assert PYRAMID.problem(PILES) is None
