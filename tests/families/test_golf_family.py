"""The golf family: declarations, the rules every variant follows, the conformance kit on
declared variants, and the family's search: its dead proof (the predecessor matching) agrees with
a plain matching, never calls a position of a winning line dead, and its verdicts equal those of
the generic search, for every shape and rule of ranks."""

from __future__ import annotations

from collections.abc import Hashable, Iterator

import pytest

from patience_core.engine import DealNumber, GRand
from patience_core.families import GolfFamily, GolfSearch, VariantError, make_variant
from patience_core.games import GameOption, GameSearch, declaration_problem
from patience_core.model import Card, Move, Position
from patience_core.solve import Budget, Verdict, solve
from patience_core.testing import DeclaredConformance

STOCK, WASTE, FIRST = 0, 1, 2


class DeadKing(GolfFamily):
    name = "dead-king"
    title = "Golf"


class QueenOnKing(GolfFamily):
    name = "queen-on-king"
    title = "Golf (Q on K)"
    queen_on_king = True


class WrapTwo(GolfFamily):
    name = "wrap-two"
    title = "Golf (wrap, two a deal)"
    wrap = True
    deal_size = 2


class SmallColumns(GolfFamily):
    name = "small-columns"
    title = "Small Golf"
    columns, depth, deal_size = 4, 3, 2


class Pyramid(GolfFamily):
    name = "pyramid-q"
    title = "Pyramid Golf"
    tableau = "pyramid"
    rows = 5
    queen_on_king = True


class Escalatorish(GolfFamily):
    name = "escalatorish"
    title = "Escalator"
    tableau = "pyramid"
    waste_start = 0
    wrap = True


VARIANTS: list[type[GolfFamily]] = [
    DeadKing,
    QueenOnKing,
    WrapTwo,
    SmallColumns,
    Pyramid,
    Escalatorish,
]
#: The variants whose search is tested here: Escalator's shape and rules are tested by the
#: Escalator plugin's own solver tests (the same dead proof and verdict checks, on more positions).
SEARCHED = [variant for variant in VARIANTS if variant is not Escalatorish]


# -- declarations and rules ---------------------------------------------------------------------


def test_a_tableau_larger_than_the_deck_is_a_declaration_problem() -> None:
    class Huge(GolfFamily):
        name = "huge"
        title = "Huge"
        columns, depth = 12, 5

    assert Huge.declaration_problem() == (
        "tableau is 'columns' (columns = 12, depth = 5) of 60 cards; allowed: at most 51 cards "
        "(deck 'standard' holds 52)"
    )
    big = make_variant(GolfFamily, {"name": "big", "title": "Big", "columns": 12, "depth": 12})
    assert declaration_problem(big) is None  # the family's own problem is the one reported
    assert big.declaration_problem() == (
        "tableau is 'columns' (columns = 12, depth = 12) of 144 cards; allowed: at most 51 cards "
        "(deck 'standard' holds 52)"
    )
    with pytest.raises(VariantError, match=r"^wrap is 'yes'; allowed: true or false$"):
        make_variant(GolfFamily, {"name": "x", "title": "X", "wrap": "yes"})


def test_a_variant_from_values_and_its_rules_text() -> None:
    variant = make_variant(
        GolfFamily, {"name": "putt", "title": "Putt", "wrap": True, "deal-size": 2}
    )
    game = variant()
    assert game.max_score == 35 and game.wrap and game.deal_size == 2
    rules = variant.rules
    assert rules.startswith("Putt\n\nLayout: seven columns of five face-up cards")
    assert "King and Ace are adjacent" in rules
    assert "turn the next two stock cards face up onto the waste" in rules
    assert "Nothing may be played on a King" in DeadKing.rules
    assert "only a Queen may go on a King" in QueenOnKing.rules
    assert "Nothing can be played onto the empty waste" in Escalatorish.rules


def test_an_option_named_like_a_parameter_sets_it_per_game() -> None:
    class WithOption(GolfFamily):
        name = "with-option"
        title = "Golf"
        options = (GameOption("wrap", ("no", "yes"), "no", "King and Ace are adjacent"),)

    assert not WithOption().wrap and WithOption({"wrap": "yes"}).wrap
    assert not WithOption.wrap  # the class keeps its declared value


def test_piles_and_layout_follow_the_shape() -> None:
    columns, pyramid = SmallColumns(), Pyramid()
    assert [p.name for p in columns.piles] == ["s", "w", "t1", "t2", "t3", "t4"]
    assert [p.name for p in pyramid.piles][:4] == ["s", "w", "p1", "p2"]
    assert pyramid.piles[-1].slot == FIRST + 14
    position = columns.deal(DealNumber(1))
    assert [len(p) for p in position] == [52 - 13, 1, 3, 3, 3, 3]
    start = Escalatorish().deal(DealNumber(1))
    assert start[WASTE] == () and Escalatorish().legal_moves(start) == [Move.deal(STOCK)]


def test_a_deal_turns_deal_size_cards_the_last_on_top() -> None:
    game = make_variant(GolfFamily, {"name": "three", "title": "Three", "deal-size": 3})()
    position = game.deal(DealNumber(4))
    stock = position[STOCK]
    after = game.play(position, Move.deal(STOCK))
    assert after[STOCK] == stock[:-3]
    assert after[WASTE][-3:] == tuple(c.turned(True) for c in reversed(stock[-3:]))
    short = position.replace([(STOCK, stock[:2])])
    assert game.play(short, Move.deal(STOCK))[STOCK] == ()


def test_why_a_move_is_refused() -> None:
    game = Escalatorish()
    start = game.deal(DealNumber(1))
    assert game.why_illegal(start, Move.transfer(FIRST + 27, WASTE)) == (
        "no card goes on the empty waste"
    )
    assert game.why_illegal(start, Move.transfer(FIRST, WASTE)).startswith(
        f"{game.card_name(start[FIRST][0])} is covered by "
    )
    won = Position((start[STOCK], (Card.from_code("Ah"),), *[()] * 28))
    assert game.why_illegal(won, Move.deal(STOCK)) == "the pyramid is cleared: the game is won"


# -- the conformance kit on declared variants ---------------------------------------------------


class _Declared(DeclaredConformance):
    """The kit on a declaration no installed plugin registers: the checks that load it by name
    (discovery, other processes, saved games, the command line) are left out."""

    declared = DeadKing


class TestWrapTwo(_Declared):
    game = "wrap-two"
    declared = WrapTwo


class TestPyramid(_Declared):
    game = "pyramid-q"
    declared = Pyramid


# -- the search ---------------------------------------------------------------------------------


class ExactKeySearch(GameSearch):
    """The generic search (every legal move, no dead proof) with the plainly exact key: the
    tableau's heights, the stock count and the waste's top rank."""

    def key(self, position: Position) -> Hashable:
        waste = position[WASTE]
        heights = tuple(len(pile) for pile in position.piles[FIRST:])
        return (heights, len(position[STOCK]), waste[-1].rank if waste else 0)


def small_position(game: GolfFamily, seed: int) -> Position:
    """A reachable-looking position: free tableau cards taken off at random (keeping 4..14),
    a stock cut to 3..20 cards, the cards taken on the waste."""
    rand = GRand(seed)
    position = game.deal(DealNumber(seed))
    shape = game.shape
    tableau = [list(pile) for pile in position.piles[FIRST:]]
    keep = min(4 + rand.int_range(0, 11), shape.size)
    removed: list[Card] = []
    while sum(map(len, tableau)) > keep:
        free = [k for k in range(shape.size) if shape.free(shape.mask(tableau)) >> k & 1]
        k = free[rand.int_range(0, len(free))]
        removed.append(tableau[shape.pile_of[k]].pop())
    stock = position[STOCK]
    size = min(3 + rand.int_range(0, 18), len(stock))
    waste = (*position[WASTE], *(c.turned(True) for c in reversed(stock[size:])), *removed)
    return Position((stock[:size], waste, *map(tuple, tableau)))


def fits(game: GolfFamily, card: int, onto: int) -> bool:
    return game.fits(card, onto)


def plain_matching(game: GolfFamily, position: Position) -> bool:
    """Whether the tableau cards can be matched to distinct predecessors (the proof's
    relaxation), by Kuhn's algorithm on explicit edge lists: the waste's top card (for a free
    card), a stock card that will show on the waste, or another tableau card ``y`` not under
    the card, no card still covering the card other than ``y`` lying under ``y``."""
    shape = game.shape
    tableau = position.piles[FIRST:]
    mask = shape.mask(tableau)
    ranks = {k: shape.card(tableau, k).rank for k in range(shape.size) if mask >> k & 1}  # type: ignore[union-attr]
    stock = position[STOCK]
    shown = {max(len(stock) - j * game.deal_size, 0) for j in range(1, len(stock) + 1)}
    shows = [i for i in sorted(shown) if stock]
    top = position[WASTE][-1].rank if position[WASTE] else 0
    free = shape.free(mask)
    edges: dict[int, list[tuple[str, int]]] = {}
    for k, r in ranks.items():
        covers = [c for c in shape.covers[k] if mask >> c & 1]
        found: list[tuple[str, int]] = []
        if top and free >> k & 1 and fits(game, r, top):
            found.append(("top", 0))
        found += [("stock", i) for i in shows if fits(game, r, stock[i].rank)]
        for j, rj in ranks.items():
            if (
                j != k
                and not shape.under[k] >> j & 1
                and fits(game, r, rj)
                and not any(c != j and shape.under[j] >> c & 1 for c in covers)
            ):
                found.append(("tableau", j))
        edges[k] = found
    match: dict[tuple[str, int], int] = {}

    def augment(k: int, seen: set[tuple[str, int]]) -> bool:
        for pred in edges[k]:
            if pred not in seen:
                seen.add(pred)
                if pred not in match or augment(match[pred], seen):
                    match[pred] = k
                    return True
        return False

    return all(augment(k, set()) for k in ranks)


def positions(game: GolfFamily) -> Iterator[Position]:
    for seed in range(1, 41):
        yield small_position(game, seed)


@pytest.mark.parametrize("variant", SEARCHED, ids=lambda v: v.name)
def test_the_dead_proof_agrees_with_a_plain_matching(variant: type[GolfFamily]) -> None:
    game = variant()
    search = GolfSearch(game)
    dead = 0
    for position in positions(game):
        expected = not plain_matching(game, position)
        assert search.is_dead(position) == expected
        dead += expected
    assert 3 <= dead <= 37


@pytest.mark.parametrize("variant", SEARCHED, ids=lambda v: v.name)
def test_verdicts_equal_the_generic_search_and_winning_lines_live(
    variant: type[GolfFamily],
) -> None:
    """On small positions the family's search and the exact-key search without shortcuts
    agree; no position along a winning line is called dead, nor any state the space reaches
    on it."""
    game = variant()
    search, exact = GolfSearch(game), ExactKeySearch(game)
    budget = Budget(nodes=300_000, seconds=60)
    won = 0
    for position in list(positions(game))[:24]:
        fast = solve(game, position, budget, search)
        slow = solve(game, position, budget, exact)
        assert fast.verdict is not Verdict.UNKNOWN
        assert slow.verdict is fast.verdict
        if slow.verdict is Verdict.WON:
            won += 1
            for move in slow.moves:
                assert not search.is_dead(position)
                position = game.apply(position, move)
            assert game.is_won(position)
    assert won >= 1


def test_the_space_states_equal_fresh_states_along_lines() -> None:
    for variant in SEARCHED:
        game = variant()
        search = GolfSearch(game)
        position = game.deal(DealNumber(3))
        space = search.search_space(position)
        state = space.start()[0]
        rand = GRand(3)
        while not space.is_dead(state):
            children = list(space.children(state))
            if not children:
                break
            for step, child, _ in children:
                after = game.play(position, space.moves([step])[0])
                fresh = search.search_space(after)
                start = fresh.start()[0]
                assert space.key(child) == fresh.key(start) == search.key(after)
                assert space.is_dead(child) == fresh.is_dead(start)
            step, state, _ = children[rand.int_range(0, len(children))]
            position = game.play(position, space.moves([step])[0])
