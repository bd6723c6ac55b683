"""Spiderette's search object (the spider family's, ``SpiderSearch``) keeps the future: the key
sorts only columns no deal can reach, and the quick win test agrees with the rules' "score 48";
the family's compact engine and win finder hold on Spiderette's deals."""

from __future__ import annotations

import random
from typing import Any

import pytest
from patience_spiderette import Spiderette
from patience_spiderette.game import COLUMNS, STOCK

import patience_core.families._spider_finder as finder_module
import patience_core.families._spider_piles as piles_module
from patience_core.api import DealNumber, Move, Position
from patience_core.api import SpiderSearch as SpideretteSearch
from patience_core.engine import search_limits
from patience_core.families._spider_finder import Finder
from patience_core.families._spider_search import Space
from patience_core.solve import Budget, Verdict, solve
from patience_core.testing import check_random_walk
from patience_core.testing import random_walk as walk


def finder_of(position: Position) -> Finder:
    """The family's compact engine and win finder of a Spiderette position."""
    finder = SpideretteSearch(Spiderette()).finder(position)
    if finder is None:
        raise ValueError("a position no game reaches")
    return finder


def find_win(position: Position, nodes: int, seconds: float) -> tuple[list[Move] | None, int]:
    """The family's win finder on a Spiderette position."""
    line, spent = SpideretteSearch(Spiderette()).find_win(position, nodes, seconds)
    return (None if line is None else list(line)), spent


def search_space(position: Position) -> Space | None:
    """The family's compact search space of a Spiderette position."""
    return SpideretteSearch(Spiderette()).search_space(position)


def swapped(position: Position, a: int, b: int) -> Position:
    piles = list(position.piles)
    piles[COLUMNS[a]], piles[COLUMNS[b]] = piles[COLUMNS[b]], piles[COLUMNS[a]]
    return Position(tuple(piles))


def with_stock(position: Position, size: int) -> Position:
    piles = list(position.piles)
    piles[STOCK] = position[STOCK][:size]
    return Position(tuple(piles))


def test_columns_are_interchangeable_only_where_no_deal_reaches() -> None:
    game = Spiderette()
    spider = SpideretteSearch(game)
    position = game.deal(DealNumber(3))
    for stock in (24, 10):
        full = with_stock(position, stock)
        assert spider.key(swapped(full, 0, 6)) != spider.key(full)
        assert spider.key(swapped(full, 4, 6)) != spider.key(full)
    last = with_stock(position, 3)
    assert spider.key(swapped(last, 3, 6)) == spider.key(last)
    assert spider.key(swapped(last, 0, 6)) != spider.key(last)
    empty = with_stock(position, 0)
    assert spider.key(swapped(empty, 0, 6)) == spider.key(empty)


def test_the_quick_win_test_is_a_score_of_48() -> None:
    game = Spiderette()
    for deal in range(1, 30):
        position = check_random_walk(game, deal, seed=deal, steps=60)
        assert game.is_won(position) == (game.score(position) == game.max_score)


def test_moves_are_reordered_never_dropped() -> None:
    game = Spiderette()
    spider = SpideretteSearch(game)
    position = game.deal(DealNumber(1))
    for _ in range(30):
        moves = game.legal_moves(position)
        if not moves:
            break
        ordered = spider.order_moves(position, moves)
        assert sorted(map(repr, ordered)) == sorted(map(repr, moves))
        position = game.play(position, ordered[0])


def test_the_win_finder_plays_by_the_rules() -> None:
    """Every step of the win finder, macro steps included (a sequence of runs carried through
    the empty columns, a column dug off in pieces), is a series of legal moves of the game that
    leads to the state the finder's play gives."""
    game = Spiderette()
    macros = 0
    for deal in range(1, 25):
        for position in walk(game, deal, seed=deal, steps=80)[::4]:
            engine = finder_of(position)
            state = engine.root
            for step in engine.moves(state):
                moves = engine.to_moves([step])
                macros += len(moves) > 1
                after = position
                for move in moves:
                    after = game.apply(after, move)  # raises IllegalMove for an illegal one
                assert engine.play(state, step) == finder_of(after).root
                assert engine.won(engine.play(state, step)) == game.is_won(after)
    assert macros >= 10  # the walks meet macro steps


def test_macro_steps_of_winning_lines_are_legal_move_by_move() -> None:
    """Along the finder's winning lines (which use digs and sequence moves), each step expands
    into legal moves that reach the state the finder's play gives."""
    game = Spiderette()
    digs = 0
    for deal in (188, 343):  # won in under 10,000 positions each
        engine = finder_of(game.deal(DealNumber(deal)))
        steps = engine.find(nodes=100_000, seconds=600.0)
        assert steps is not None
        position, state, done = game.deal(DealNumber(deal)), engine.root, 0
        for index, step in enumerate(steps):
            moves = engine.to_moves(steps[: index + 1])
            for move in moves[done:]:
                position = game.apply(position, move)
            done = len(moves)
            state = engine.play(state, step)
            assert state == finder_of(position).root
            digs += len(step) > 3
        assert game.is_won(position)
    assert digs >= 2


def test_the_win_finder_key_is_the_solver_key() -> None:
    game = Spiderette()
    spider = SpideretteSearch(game)
    positions = [p for deal in range(1, 13) for p in walk(game, deal, seed=7 * deal, steps=120)]
    by_key: dict[object, object] = {}
    for position in positions:
        engine = finder_of(position)
        assert by_key.setdefault(engine.key(engine.root), spider.key(position)) == (
            spider.key(position)
        )


def test_the_win_finder_finds_a_line_that_wins() -> None:
    game = Spiderette()
    position = game.deal(DealNumber(7))  # about 40,000 positions; depth first needs far more
    line, nodes = find_win(position, nodes=400_000, seconds=600.0)
    assert line is not None
    assert 0 < nodes <= 400_000
    for move in line:
        position = game.apply(position, move)
    assert game.is_won(position)


def test_the_solver_wins_with_the_finder_and_replays() -> None:
    game = Spiderette()
    spider = SpideretteSearch(game)
    start = game.deal(DealNumber(7))
    assert solve(game, start, Budget(nodes=5_000, seconds=600.0), spider).verdict is Verdict.UNKNOWN
    solution = solve(game, start, Budget(nodes=450_000, seconds=600.0), spider)
    assert solution.verdict is Verdict.WON
    position = start
    for move in solution.moves:
        position = game.apply(position, move)
    assert game.is_won(position)


def test_the_win_finder_skips_positions_no_game_reaches() -> None:
    game = Spiderette()
    position = game.deal(DealNumber(2))
    column = position[COLUMNS[0]]
    odd = Position(
        tuple(
            (*column, column[0].turned(False)) if i == COLUMNS[0] else pile
            for i, pile in enumerate(position.piles)
        )
    )
    assert find_win(odd, nodes=1000, seconds=1.0) == (None, 0)


def test_the_win_finder_keeps_to_its_node_budget() -> None:
    game = Spiderette()
    for deal in (1, 2, 3):
        line, nodes = find_win(game.deal(DealNumber(deal)), nodes=5000, seconds=600.0)
        assert line is None
        assert nodes <= 5000


def test_the_win_finder_stops_when_its_pruned_search_is_exhausted() -> None:
    import math

    from patience_core.api import Card

    # No stock and no legal move: the face-up tops are the four Kings, 5, 9 and Jack of
    # spades (nothing fits on another), every other card is face down below them.
    game = Spiderette()
    tops = [Card.of(13, s) for s in range(4)] + [Card.of(r, 0) for r in (5, 9, 11)]
    rest = [Card.of(r, s) for s in range(4) for r in range(1, 14) if Card.of(r, s) not in tops]
    columns: list[list[Card]] = [[] for _ in COLUMNS]
    for i, card in enumerate(sorted(rest, key=lambda c: (c.rank, c.suit))):
        columns[i % len(COLUMNS)].append(card)
    piles = [(), (), (), (), ()] + [
        (*(c.turned(False) for c in col), top) for col, top in zip(columns, tops, strict=True)
    ]
    position = Position(tuple(tuple(p) for p in piles))
    assert sorted(c.code for c in position.cards()) == sorted(c.code for c in game.new_deck())
    assert game.legal_moves(position) == []
    line, nodes = find_win(position, 10**9, math.inf)  # returned at all: not stuck
    assert line is None and nodes == 0


# -- the compact search space (GameSearch.search_space) -----------------------------------------


def test_the_compact_space_searches_exactly_the_positions_of_the_generic_one() -> None:
    from patience_core.api import GameSearch, PositionSpace
    from patience_core.solve import DepthFirst

    game = Spiderette()

    # Deals 127 and 149 are dead: both searches run to the end, position for position when
    # the compact space's proof of dead is switched off; with it, the same verdict sooner.
    for deal in (127, 149):
        position = game.deal(DealNumber(deal))
        plain = Space(finder_of(position))
        plain.is_dead = lambda state: False  # type: ignore[method-assign]
        compact = DepthFirst(plain).run(Budget())
        generic = DepthFirst(PositionSpace(GameSearch(game), position)).run(Budget())
        assert compact.verdict is generic.verdict is Verdict.DEAD
        assert compact.nodes == generic.nodes > 5000
        proved = DepthFirst(Space(finder_of(position))).run(Budget())
        assert proved.verdict is Verdict.DEAD
        assert proved.nodes <= compact.nodes


def test_the_conformance_check_catches_a_space_without_whole_column_moves() -> None:
    # The shape of a real slip: a column with no face-down card moved whole into an empty column
    # is a different position while deals remain (other cards will land on it).
    from patience_core.testing import check_search_space

    class Slipped(Space):
        def children(self, state):  # type: ignore[no-untyped-def]
            downs, ups = state[1], state[2]
            for step, child, cost in super().children(state):
                source, target, count = step
                whole = source >= 0 and count == len(ups[source]) and not downs[source]
                if not (whole and target >= 0 and not ups[target]):
                    yield step, child, cost

    class SlippedSearch(SpideretteSearch):
        def search_space(self, position: Position) -> Space | None:
            return Slipped(finder_of(position))

    game = Spiderette()

    with pytest.raises(AssertionError, match="no child for"):
        for deal in range(1, 30):
            check_search_space(game, deal, deal, 150, SlippedSearch(game))


def test_a_foundation_that_is_not_one_complete_suit_is_refused() -> None:
    from patience_core.api import BadSave, Card

    game = Spiderette()

    spider = SpideretteSearch(game)
    suits = [[Card.of(rank, suit, True) for rank in range(13, 0, -1)] for suit in range(4)]
    # Three complete suits on t2..t4; the clubs split: the King alone on f1, Q..A on t1.
    king, *rest = suits[0]
    piles: list[tuple[Card, ...]] = [()] * 12
    piles[1] = (king,)
    piles[COLUMNS[0]] = tuple(rest)
    for k in range(1, 4):
        piles[COLUMNS[k]] = tuple(suits[k])
    odd = Position(tuple(piles))
    with pytest.raises(BadSave, match="f1 holds cards that are not one complete suit"):
        game.check_position(odd)
    assert search_space(odd) is None
    assert solve(game, odd, Budget(nodes=10_000), spider).verdict is not Verdict.WON
    # A complete suit on a foundation is fine.
    piles[1] = tuple(suits[0])
    piles[COLUMNS[0]] = ()
    whole = Position(tuple(piles))
    game.check_position(whole)
    assert search_space(whole) is not None


def test_the_win_finder_stops_when_the_solvers_time_is_spent() -> None:
    """Inside a search whose clock has run out (a hint's wall-clock cap), the win finder gives
    up at once, whatever CPU seconds it was given."""
    position = Spiderette().deal(DealNumber(2))
    with search_limits(60.0, 0.0):
        assert find_win(position, nodes=10**6, seconds=60.0) == (None, 0)


def test_a_line_of_the_depth_first_search_is_short() -> None:
    """From deal 42 after five moves the exhaustive search wins first (within its tenth of
    the positions); its line wandered (16,663 moves) until the solver took the shortcuts
    along it."""
    game = Spiderette()
    spider = SpideretteSearch(game)
    position = game.deal(DealNumber(42))
    for text in ("deal", "t3 t2", "t5 t6", "t3 t1", "t3 t2"):
        position = game.apply(position, game.parse_move(position, text))
    # A tenth of a million positions for the depth-first search first: it wins in about
    # 76,000 (fewer as its proofs of dead prune more).
    solution = solve(game, position, Budget(nodes=1_000_000, seconds=600.0), spider)
    assert solution.verdict is Verdict.WON
    assert solution.nodes < 100_000  # the depth-first search's win, not the finder's
    assert len(solution.moves) < 1000
    for move in solution.moves:
        position = game.apply(position, move)
    assert game.is_won(position)


def test_the_beam_keeps_at_most_its_cap_of_candidates(monkeypatch: pytest.MonkeyPatch) -> None:
    """The beam's kept phase searches are forgotten when they would hold more candidates than
    _KEPT_CANDIDATES (memory stays bounded on long runs), the count stays exact, and the
    finder frees them before it returns."""
    monkeypatch.setattr(finder_module, "_KEPT_CANDIDATES", 300)
    engine = finder_of(Spiderette().deal(DealNumber(26)))  # not won in 2 s: the beam runs
    seen: list[tuple[int, list[int]]] = []
    phase_of = engine._phase_of

    def watched(state: Any, line: object, limit: int) -> Any:
        answer = phase_of(state, line, limit)
        seen.append((engine._kept, [len(entry[1]) for entry in engine._searched.values()]))
        return answer

    monkeypatch.setattr(engine, "_phase_of", watched)
    assert engine.find(nodes=10**9, seconds=2.0) is None
    assert len(seen) > 10
    for kept, sizes in seen:
        assert kept == sum(sizes)
        assert kept <= 300 or len(sizes) == 1
    assert any(kept > 150 for kept, _ in seen)  # the cap was approached
    assert engine._searched == {} and engine._kept == 0


def test_novelty_facts_name_where_a_run_landed_and_what_turned_over() -> None:
    """The novelty order of the win finder's phase searches rests on these facts: a move makes
    "card X on card Y" where its run lands, and "card X on n face-down cards" when it turns a
    card over; a deal or a multi-move step makes every pair of the columns it changed."""
    engine = finder_of(Spiderette().deal(DealNumber(2)))
    rng = random.Random(5)
    state = engine.root
    checked = turned = 0
    for _ in range(400):
        moves = engine.moves(state)
        steps = [s for s in moves if len(s) == 3 and s[0] >= 0 and s[1] >= 0]
        if not steps:
            if (-1, -1, 0) not in moves:
                break
            state = engine.play(state, (-1, -1, 0))
            continue
        step = rng.choice(steps)
        child = engine.play(state, step)
        facts: set[int] = set()
        piles_module._new_atoms(facts, state, child, step)
        source, target, count = step
        level = sum(child[1])
        landed = child[2][target]
        under = landed[-count - 1] if len(landed) > count else 64
        expected = {piles_module._atom(level, under, landed[-count])}
        if child[1] != state[1]:
            turned += 1
            expected.add(piles_module._atom(level, 64 + child[1][source], child[2][source][0]))
        assert facts == expected
        checked += 1
        state = child
    assert checked > 50 and turned > 0
    dealt = engine.play(engine.root, (-1, -1, 0))
    facts = set()
    piles_module._new_atoms(facts, engine.root, dealt, (-1, -1, 0, -1, -1, 0))
    for pile, down in zip(dealt[2], dealt[1], strict=True):
        assert piles_module._atom(sum(dealt[1]), pile[-2], pile[-1]) in facts
        assert piles_module._atom(sum(dealt[1]), 64 + down, pile[0]) in facts


@pytest.mark.parametrize("deal", [2, 7])
def test_a_solved_line_never_comes_back_to_a_position(deal: int) -> None:
    """The finder's lines may move a run and later straight back (a macro step's pieces); the
    solver drops such loops, so that following the line (as play's hints do) always moves on."""
    game = Spiderette()
    spider = SpideretteSearch(game)
    position = game.deal(DealNumber(deal))
    solution = solve(game, position, Budget.asked(nodes=1_000_000), spider)
    assert solution.verdict is Verdict.WON
    seen = {position}
    for move in solution.moves:
        position = game.apply(position, move)
        assert position not in seen
        seen.add(position)
    assert game.is_won(position)


def test_the_first_stage_hands_over_at_its_share_of_the_nodes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Under a node budget that binds, the beam starts at the same node count on every run and
    machine (before, only the clock ended the first stage)."""
    engine = finder_of(Spiderette().deal(DealNumber(26)))  # no quick win: the beam runs
    handed_over: list[int] = []

    def beam() -> None:
        handed_over.append(engine.nodes)

    monkeypatch.setattr(engine, "_beam_passes", beam)
    assert engine.find(nodes=200_000, seconds=600.0) is None
    share = int(finder_module._DEPTH_FIRST_SHARE * 200_000)
    assert handed_over and share <= handed_over[0] <= share + 2048
