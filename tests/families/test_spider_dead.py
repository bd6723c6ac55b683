"""The spider family's proof of a lost position with the stock dealt out
(``_spider_dead.stuck_for_good``): it proves hand-made stuck positions lost (the exhaustive search
without it agrees), never a winnable one (positions along winning lines, a position one move
from a win), never one with stock left, and the exhaustive search uses it."""

from __future__ import annotations

import itertools

from patience_core.engine import DealNumber
from patience_core.families import SpiderFamily, SpiderSearch
from patience_core.families._spider_dead import stuck_for_good
from patience_core.model import Card, Position
from patience_core.solve import Budget, DepthFirst, Verdict


class OneDeck(SpiderFamily):
    name = "one-deck"
    title = "One Deck"
    deck = "standard"
    columns = 7
    face_down = "0 1 2 3 4 5 6"


GAME = OneDeck()
SEARCH = SpiderSearch(GAME)
FOUNDATIONS = 4


def position(columns: list[list[Card]], stock: list[Card] | None = None) -> Position:
    """A position of ``GAME``: the stock, four empty foundations, the seven columns."""
    return Position((tuple(stock or ()), *((),) * FOUNDATIONS, *map(tuple, columns)))


def stuck_columns() -> list[list[Card]]:
    """Kings on t1..t4, fives on t5..t7 with the four of the t7 five's suit on it, every six at
    the bottom of a column, every other card face down: the four can only go from five to
    five, and nothing else ever moves."""
    up = {(13, s) for s in range(4)} | {(5, 0), (5, 1), (5, 2), (4, 2)}
    sixes = [Card.of(6, s, False) for s in range(4)]
    rest = [
        Card.of(r, s, False)
        for r, s in itertools.product(range(1, 14), range(4))
        if (r, s) not in up and r != 6
    ]
    columns: list[list[Card]] = [[six] for six in sixes] + [[], [], []]
    for k, card in enumerate(rest):
        columns[k % 7].append(card)
    for s in range(4):
        columns[s].append(Card.of(13, s))
    columns[4].append(Card.of(5, 0))
    columns[5].append(Card.of(5, 1))
    columns[6] += [Card.of(5, 2), Card.of(4, 2)]
    return columns


def test_a_stuck_position_is_proved_dead_and_the_full_search_agrees() -> None:
    stuck = position(stuck_columns())
    finder = SEARCH.finder(stuck)
    assert finder is not None
    assert finder.all_moves(finder.root)  # the four can move: not stuck for want of moves
    assert stuck_for_good(finder, finder.root)
    space = SEARCH.search_space(stuck)
    assert space is not None
    assert space.is_dead(space.start()[0])
    # Without the proof the exhaustive search explores the few positions and says the same.
    plain = SEARCH.search_space(stuck)
    assert plain is not None
    plain.is_dead = lambda state: False  # type: ignore[method-assign]
    assert DepthFirst(plain).run(Budget(nodes=100_000)).verdict is Verdict.DEAD


def test_stock_left_is_never_proved_dead() -> None:
    columns = stuck_columns()
    stock = [columns[0].pop(0)]  # a six to deal: the deal could change everything
    finder = SEARCH.finder(position(columns, stock))
    assert finder is not None
    assert not stuck_for_good(finder, finder.root)


def test_a_position_one_move_from_a_win_is_not_proved_dead() -> None:
    suit = [[Card.of(r, s) for r in range(13, 0, -1)] for s in range(4)]
    # Every suit split in two, every column full: the lower half of each goes on the upper.
    columns = [suit[0][:6], suit[0][6:], suit[1], suit[2][:7], suit[2][7:], suit[3][:9],
               suit[3][9:]]  # fmt: skip
    finder = SEARCH.finder(position(columns))
    assert finder is not None
    assert not stuck_for_good(finder, finder.root)


def test_a_king_s_suit_that_may_go_home_is_not_proved_dead() -> None:
    # The spade King on t1 with its Queen..Ace on it in order, other suits scattered under
    # Kings: no column can empty, but the spades can go to a foundation.
    columns = stuck_columns()
    spades = [Card.of(r, 3) for r in range(13, 0, -1)]
    for column in columns:
        column[:] = [card for card in column if card.suit != 3 or card.rank == 6]
    columns[3] = [card for card in columns[3] if card.rank != 13] + spades
    finder = SEARCH.finder(position(columns))
    assert finder is not None
    assert not stuck_for_good(finder, finder.root)


def test_no_position_of_a_winning_line_is_proved_dead() -> None:
    checked = 0
    for deal in (2, 3, 5):
        start = GAME.deal(DealNumber(deal, GAME.deal_schemes[0]))
        line, _ = SEARCH.find_win(start, 2_000_000, 20.0)
        assert line is not None
        here = start
        for move in line:
            here = GAME.apply(here, move)
            finder = SEARCH.finder(here)
            if finder is None or here[0]:
                continue
            checked += 1
            assert not stuck_for_good(finder, finder.root), (deal, move)
    assert checked > 0
