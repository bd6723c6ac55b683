"""The spider family's proof of a lost position (``_spider_dead.stuck_for_good``): it proves
hand-made stuck positions lost, with the stock dealt out or not (the exhaustive search without
it agrees), never a winnable one (positions along winning lines, a position one move from a win
or won after the deal, states of random games that the exhaustive search wins), and the
exhaustive search uses it."""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

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


def kings_on_the_rest(
    left_out: set[tuple[int, int]],
    onto: Sequence[int],
    columns: list[list[Card]] | None = None,
) -> list[list[Card]]:
    """The four suits laid out: every card but the Kings and the ``left_out`` ones (rank, suit)
    face down, dealt in turn onto the columns ``onto`` (indexes) of ``columns`` (default: seven
    empty ones), then each suit's King face up on t1..t4. The test places the cards left out."""
    kings = {(13, s) for s in range(4)}
    rest = [
        Card.of(r, s, False)
        for r, s in itertools.product(range(1, 14), range(4))
        if (r, s) not in left_out | kings
    ]
    columns = columns if columns is not None else [[] for _ in range(7)]
    for k, card in enumerate(rest):
        columns[onto[k % len(onto)]].append(card)
    for s in range(4):
        columns[s].append(Card.of(13, s))
    return columns


def stuck_columns() -> list[list[Card]]:
    """Kings on t1..t4, fives on t5..t7 with the four of the t7 five's suit on it, every six at
    the bottom of a column, every other card face down: the four can only go from five to
    five, and nothing else ever moves."""
    sixes = [Card.of(6, s, False) for s in range(4)]
    up = {(5, 0), (5, 1), (5, 2), (4, 2)} | {(6, s) for s in range(4)}  # the sixes: below
    columns = kings_on_the_rest(up, range(7), [[six] for six in sixes] + [[], [], []])
    columns[4].append(Card.of(5, 0))
    columns[5].append(Card.of(5, 1))
    columns[6] += [Card.of(5, 2), Card.of(4, 2)]
    return columns


def split_suits(deal_the_clubs_seven: bool = False) -> tuple[list[list[Card]], list[Card]]:
    """The four suits, each King down to Ace face up, over the seven columns: clubs split
    after its 8 (t1, t2), diamonds whole (t3), hearts after its 7 (t4, t5), spades after its
    5 (t6, t7); every lower half may go on its upper half. With ``deal_the_clubs_seven``, the
    clubs' seven is taken out of t2 to be the stock. Returns (the columns, the stock)."""
    suit = [[Card.of(r, s) for r in range(13, 0, -1)] for s in range(4)]
    stock = [suit[0].pop(6)] if deal_the_clubs_seven else []
    columns = [suit[0][:6], suit[0][6:], suit[1], suit[2][:7], suit[2][7:], suit[3][:9],
               suit[3][9:]]  # fmt: skip
    return columns, stock


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


def plain_search(start: Position) -> Verdict:
    """The exhaustive search's verdict on ``start`` without any proof of dead."""
    plain = SEARCH.search_space(start)
    assert plain is not None
    plain.is_dead = lambda state: False  # type: ignore[method-assign]
    return DepthFirst(plain).run(Budget(nodes=200_000)).verdict


def test_a_stuck_position_with_stock_left_is_proved_dead_and_the_full_search_agrees() -> None:
    columns = stuck_columns()
    stock = [columns[0].pop(0)]  # a six to deal: the fives may go on it, and no further
    stuck = position(columns, stock)
    finder = SEARCH.finder(stuck)
    assert finder is not None
    assert stuck_for_good(finder, finder.root)
    assert plain_search(stuck) is Verdict.DEAD


def test_a_position_won_after_the_deal_is_not_proved_dead() -> None:
    # The clubs' seven is the card to deal (onto t1's eight); then t2's six..ace go on it.
    columns, stock = split_suits(deal_the_clubs_seven=True)
    start = position(columns, stock)
    finder = SEARCH.finder(start)
    assert finder is not None
    assert not stuck_for_good(finder, finder.root)
    assert plain_search(start) is Verdict.WON


def test_a_moved_card_still_covered_by_its_run_is_no_target() -> None:
    """t6's seven and six of hearts may go on t5's eight of clubs, but the six never leaves
    the seven (no other seven is ever uncovered), so t7's six of spades never finds a seven:
    proved dead (a rule that counted every card that moved as a target anywhere could not
    prove it), and the exhaustive search agrees."""
    columns = kings_on_the_rest({(8, 0), (2, 0), (7, 2), (6, 2), (6, 3)}, range(5))
    columns[4].append(Card.of(8, 0))
    columns[5] = [Card.of(2, 0, False), Card.of(7, 2), Card.of(6, 2)]
    columns[6] = [Card.of(6, 3)]
    stuck = position(columns)
    finder = SEARCH.finder(stuck)
    assert finder is not None
    assert (5, 4, 2) in finder.all_moves(finder.root)  # the hearts may go on the eight
    assert stuck_for_good(finder, finder.root)
    assert plain_search(stuck) is Verdict.DEAD


def test_a_position_one_move_from_a_win_is_not_proved_dead() -> None:
    # Every suit split in two, every column full: the lower half of each goes on the upper.
    columns, _ = split_suits()
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


def test_states_of_random_games_proved_dead_are_never_won() -> None:
    """Random games (the deal played one time in ten it is legal, so that stock is left in
    many states): every state the proof calls dead that the exhaustive search without the
    proof settles within its budget is dead to it too, stock left or not."""
    rng = random.Random(22)
    settled: dict[bool, int] = {True: 0, False: 0}
    for deal in (1, 4):
        finder = SEARCH.finder(GAME.deal(DealNumber(deal, GAME.deal_schemes[0])))
        assert finder is not None
        for _ in range(40):
            state = finder.root
            for _ in range(rng.randrange(5, 90)):
                moves = finder.all_moves(state)
                if not moves:
                    break
                plays = [m for m in moves if m[0] >= 0]
                step = rng.choice(plays if plays and rng.random() < 0.9 else moves)
                state = finder.play(state, step)
            if not stuck_for_good(finder, state):
                continue
            space = SEARCH.search_space(GAME.deal(DealNumber(deal, GAME.deal_schemes[0])))
            assert space is not None
            space.start = lambda state=state: (state, 0)  # type: ignore[method-assign]
            space.is_dead = lambda state: False  # type: ignore[method-assign]
            verdict = DepthFirst(space).run(Budget(nodes=20_000)).verdict
            assert verdict is not Verdict.WON, (deal, state)
            if verdict is Verdict.DEAD:
                settled[bool(state[0])] += 1
    assert settled[True] and settled[False]


def test_a_card_s_only_target_taken_by_the_card_that_freed_it_is_no_target() -> None:
    """t6's four of hearts may go only on t5's five of hearts; the four of diamonds under it
    is free only then, and its only target is that five, now covered for good: proved dead (a
    rule that let the four of diamonds on the five could not prove it), and the exhaustive
    search agrees."""
    columns = kings_on_the_rest({(5, 2), (4, 1), (4, 2), (2, 0)}, (0, 1, 2, 3, 4, 6))
    columns[4].append(Card.of(5, 2))
    columns[5] = [Card.of(4, 1, False), Card.of(4, 2)]
    columns[6].append(Card.of(2, 0))
    stuck = position(columns)
    finder = SEARCH.finder(stuck)
    assert finder is not None
    assert (5, 4, 1) in finder.all_moves(finder.root)  # the four of hearts may move
    assert stuck_for_good(finder, finder.root)
    assert plain_search(stuck) is Verdict.DEAD
