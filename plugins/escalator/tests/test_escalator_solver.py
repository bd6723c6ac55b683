"""Escalator's search (the golf family's, ``GolfSearch``) is sound on Escalator: the key keeps the
future, the search space's moves are the rules', the states worked out from their parents' equal
fresh ones, and the dead proof (the predecessor matching) agrees with a plain implementation and
never calls a winnable position dead."""

from __future__ import annotations

import copy
import pickle
from collections import Counter
from collections.abc import Hashable, Iterator

import pytest
from patience_escalator import Escalator

from patience_core.api import (
    Card,
    DealNumber,
    GameSearch,
    GolfSearch,
    Move,
    Position,
    aisleriot_shuffle,
    standard_deck,
)
from patience_core.engine import GRand
from patience_core.solve import Budget, Verdict, solve

STOCK, WASTE, APEX = 0, 1, 2
#: COVERS[k]: the pyramid places (0 = apex) covering place k.
COVERS = Escalator.shape.covers
EscalatorSearch = GolfSearch


def fresh_state(search: GolfSearch, position: Position) -> tuple[bool, Hashable]:
    """The dead proof and key of ``position``'s state, worked out from scratch."""
    space = search.search_space(position)
    state = space.start()[0]
    return space.is_dead(state), space.key(state)


class ExactKeySearch(GameSearch):
    """The generic search (every legal move, no dead proof) with the obviously exact key of the
    first version: which pyramid cards remain, the stock count and the waste's top rank."""

    def key(self, position: Position) -> Hashable:
        piles = position.piles
        mask = sum(1 << k for k in range(28) if piles[APEX + k])
        waste = piles[WASTE]
        return (mask, len(piles[STOCK]), waste[-1].rank if waste else 0)


# -- positions ----------------------------------------------------------------------------------


def walk(game: Escalator, deal: int, seed: int, steps: int) -> Iterator[Position]:
    """The positions of a random walk (moves chosen by ``GRand(seed)``) from deal ``deal``."""
    rand = GRand(seed)
    position = game.deal(DealNumber(deal))
    yield position
    for _ in range(steps):
        legal = game.legal_moves(position)
        if not legal:
            return
        position = game.play(position, legal[rand.int_range(0, len(legal))])
        yield position


def small_position(seed: int) -> Position:
    """A reachable-looking position with 4..14 pyramid cards and 8..24 stock cards: a shuffled
    deck, pyramid cards taken off (free ones, at random) onto the waste, the rest of the deck
    below them on the waste."""
    rand = GRand(seed)
    cards = aisleriot_shuffle(list(standard_deck()), seed)
    piles: list[tuple[Card, ...]] = [(card,) for card in cards[:28]]
    keep = 4 + rand.int_range(0, 11)
    removed: list[Card] = []
    while 28 - len(removed) > keep:
        free = [k for k in range(28) if piles[k] and not any(piles[cover] for cover in COVERS[k])]
        k = free[rand.int_range(0, len(free))]
        removed.append(piles[k][0])
        piles[k] = ()
    stock_size = 8 + rand.int_range(0, 17)
    stock = tuple(card.turned(False) for card in cards[28 : 28 + stock_size])
    waste = tuple(cards[28 + stock_size :]) + tuple(removed)
    return Position((stock, waste, *piles))


SMALL = [small_position(seed) for seed in range(1, 121)]


def many_positions() -> Iterator[Position]:
    game = Escalator()
    for deal in range(1, 13):
        yield from walk(game, deal, seed=deal, steps=60)
    yield from SMALL


# -- a plain implementation of the dead proof ---------------------------------------------------


def adjacent(a: int, b: int) -> bool:
    return abs(a - b) in (1, 12)


def under(place: int) -> set[int]:
    """Places ``place`` covers, directly or not (0-based places)."""
    out: set[int] = set()
    todo = [place]
    while todo:
        p = todo.pop()
        for k in range(28):
            if p in COVERS[k] and k not in out:
                out.add(k)
                todo.append(k)
    return out


UNDER = [under(k) for k in range(28)]


def every_card_has_a_predecessor(position: Position) -> bool:
    """Whether the pyramid cards can be matched to distinct predecessors (the proof's relaxation),
    by Kuhn's algorithm on explicit edge lists: the waste's top card (for a free card), any stock
    card, or another pyramid card ``y`` not under the card, with no card still covering the card
    other than ``y`` lying under ``y``."""
    piles = position.piles
    ranks = {k: piles[APEX + k][0].rank for k in range(28) if piles[APEX + k]}
    stock = [card.rank for card in piles[STOCK]]
    top = piles[WASTE][-1].rank if piles[WASTE] else None
    edges: dict[int, list[tuple[str, int]]] = {}
    for k, r in ranks.items():
        covers = [c for c in COVERS[k] if piles[APEX + c]]
        found: list[tuple[str, int]] = []
        if top is not None and not covers and adjacent(top, r):
            found.append(("top", 0))
        found += [("stock", i) for i, s in enumerate(stock) if adjacent(s, r)]
        for j, rj in ranks.items():
            if (
                j != k
                and j not in UNDER[k]
                and adjacent(rj, r)
                and not any(c != j and c in UNDER[j] for c in covers)
            ):
                found.append(("pyramid", j))
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


# -- tests --------------------------------------------------------------------------------------


def test_the_dead_proof_agrees_with_a_plain_matching() -> None:
    search = EscalatorSearch(Escalator())
    dead = alive = 0
    for position in many_positions():
        expected = not every_card_has_a_predecessor(position)
        assert search.is_dead(position) == expected
        assert fresh_state(search, position)[0] == expected
        dead += expected
        alive += not expected
    assert dead >= 200 and alive >= 200


def test_states_from_their_parents_equal_fresh_states() -> None:
    """Along the calls the solver makes (dead proof, then children), the states worked out from
    the parent's agree with states read from scratch, and the repaired matching with a fresh
    one."""
    game = Escalator()
    search = EscalatorSearch(game)
    for deal in range(1, 9):
        rand = GRand(deal)
        position = game.deal(DealNumber(deal))
        space = search.search_space(position)
        state = space.start()[0]
        for _ in range(50):
            if space.is_dead(state) or not game.legal_moves(position):
                break
            children = list(space.children(state))
            for step, child, _ in children:  # every child, as the solver generates them
                after = game.play(position, space.moves([step])[0])
                assert (space.is_dead(child), space.key(child)) == fresh_state(search, after)
            step, state, _ = children[rand.int_range(0, len(children))]
            position = game.play(position, space.moves([step])[0])


def test_states_kept_long_ago_still_give_right_children() -> None:
    """A best-first search comes back to states it kept long ago: their children, worked out
    from them, still agree with fresh states."""
    game = Escalator()
    search = EscalatorSearch(game)
    kept = []
    for deal in (2, 8):
        position = game.deal(DealNumber(deal))
        space = search.search_space(position)
        state = space.start()[0]
        rand = GRand(deal)
        while not space.is_dead(state):
            kept.append((space, state, position))
            children = list(space.children(state))
            if not children:
                break
            step, state, _ = children[rand.int_range(0, len(children))]
            position = game.play(position, space.moves([step])[0])
    for space, state, position in reversed(kept):
        for step, child, _ in space.children(state):
            after = game.play(position, space.moves([step])[0])
            assert (space.is_dead(child), space.key(child)) == fresh_state(search, after)
    assert len(kept) >= 30


def test_the_search_space_offers_the_legal_moves() -> None:
    game = Escalator()
    search = EscalatorSearch(game)
    for position in many_positions():
        space = search.search_space(position)
        steps = [step for step, _child, _cost in space.children(space.start()[0])]
        assert sorted(space.moves(steps), key=str) == sorted(game.legal_moves(position), key=str)
        assert search.moves_to_try(position) == game.legal_moves(position)


def children_keys(search: GolfSearch, position: Position) -> Counter[Hashable]:
    game = search.game
    return Counter(search.key(game.play(position, m)) for m in game.legal_moves(position))


def test_the_key_is_the_pyramid_the_playable_cards_and_the_stock_count() -> None:
    """Positions with equal keys have the same moves to positions with equal keys; the waste's
    top card counts only through which cards it lets play."""
    game = Escalator()
    search = EscalatorSearch(game)
    checked = 0
    for position in many_positions():
        waste = position[WASTE]
        if len(waste) < 2:
            continue
        # The same position with another waste card on top.
        for index in range(len(waste) - 1):
            other = Position(
                (position[STOCK], waste[:index] + waste[index + 1 :] + (waste[index],))
                + position.piles[APEX:]
            )
            same_plays = {m for m in game.legal_moves(other)} == set(game.legal_moves(position))
            assert (search.key(other) == search.key(position)) == same_plays
            if same_plays:
                assert children_keys(search, other) == children_keys(search, position)
                checked += 1
        assert (
            search.key(Position((position[STOCK][1:], *position.piles[1:])))
            != (search.key(position))
            or not position[STOCK]
        )
    assert checked >= 1000


@pytest.mark.parametrize("chunk", range(4))
def test_verdicts_agree_with_the_search_without_hooks(chunk: int) -> None:
    """On small positions, both won and dead, the search object agrees with the exact-key search
    that has no dead proof; where the stock is short, with the generic search too (the whole
    position as the key). A dead verdict of the proof is one those searches exhaust without a
    win."""
    fast_game = Escalator()
    fast_search, exact, plain_search = (
        EscalatorSearch(fast_game),
        ExactKeySearch(fast_game),
        GameSearch(fast_game),
    )
    budget = Budget(nodes=2_000_000, seconds=60)
    won = plain = 0
    for position in SMALL[chunk::4]:
        fast = solve(fast_game, position, budget, fast_search)
        assert fast.verdict is not Verdict.UNKNOWN
        assert solve(fast_game, position, budget, exact).verdict is fast.verdict
        if len(position[STOCK]) <= 12:
            assert solve(fast_game, position, budget, plain_search).verdict is fast.verdict
            plain += 1
        if fast.verdict is Verdict.WON:
            won += 1
            end = position
            for move in fast.moves:
                end = fast_game.apply(end, move)
            assert fast_game.is_won(end)
    assert won >= 5 and plain >= 3


def winning_positions(game: Escalator, start: Position, search: GameSearch) -> Iterator[Position]:
    """The positions along the winning line ``search`` finds from ``start``, if any."""
    solution = solve(game, start, Budget(nodes=1_000_000, seconds=60), search)
    position = start
    if solution.verdict is Verdict.WON:
        yield position
        for move in solution.moves:
            position = game.apply(position, move)
            yield position


def test_no_position_of_a_winning_line_is_called_dead() -> None:
    """Every position along a winning line can still win: the proof must let each one pass."""
    game = Escalator()
    search = EscalatorSearch(game)
    checked = 0
    starts = [*SMALL, *(game.deal(DealNumber(d)) for d in (8, 14, 17, 28, 36))]
    for start in starts:
        for position in winning_positions(game, start, ExactKeySearch(game)):
            assert not search.is_dead(position)
            assert not fresh_state(search, position)[0]
            checked += 1
    assert checked >= 400


def test_the_first_deals_keep_their_verdicts() -> None:
    """Aisleriot deals 1..40 with the search object: the winnable ones are those the exact-key
    search without a dead proof found (deals 1..200: 27 won, 173 dead; the benchmark recounts
    them)."""
    game = Escalator()
    search = EscalatorSearch(game)
    won = []
    for deal in range(1, 41):
        solution = solve(game, game.deal(DealNumber(deal)), Budget(seconds=60), search)
        assert solution.verdict is not Verdict.UNKNOWN
        if solution.verdict is Verdict.WON:
            won.append(deal)
    assert won == [8, 14, 17, 28, 36]


def test_the_exact_key_search_agrees_on_full_deals() -> None:
    game = Escalator()
    search, exact = EscalatorSearch(game), ExactKeySearch(game)
    for deal in (1, 8, 14, 20):
        position = game.deal(DealNumber(deal))
        fast = solve(game, position, search=search).verdict
        assert fast is solve(game, position, search=exact).verdict


def test_one_search_object_serves_searches_in_any_order() -> None:
    """A search object keeps nothing between searches: solving deals in turn, or from positions
    played outside the search, gives the answers of fresh search objects."""
    game = Escalator()
    shared = EscalatorSearch(game)
    for deal in (8, 3, 8, 14, 3):
        position = game.deal(DealNumber(deal))
        fresh = EscalatorSearch(Escalator())
        assert (
            solve(game, position, search=shared).verdict
            is solve(game, position, None, fresh).verdict
        )
    positions = list(walk(game, 5, seed=5, steps=40))
    for position in reversed(positions):
        fresh = EscalatorSearch(Escalator())
        assert shared.is_dead(position) == fresh.is_dead(position)
        assert shared.key(position) == fresh.key(position)
        assert shared.moves_to_try(position) == game.legal_moves(position)


def test_play_is_unchanged_for_players() -> None:
    """play builds the positions of the rules: the card (or the turned stock card) on the waste,
    its pile emptied, every other pile the same."""
    game = Escalator()
    for position in many_positions():
        for move in game.legal_moves(position):
            after = game.play(position, move)
            piles = list(position.piles)
            if move.target is None:
                card = piles[STOCK][-1]
                piles[STOCK] = piles[STOCK][:-1]
                piles[WASTE] += (card.turned(True),)
            else:
                piles[WASTE] += (piles[move.source][0],)
                piles[move.source] = ()
            assert after == Position(tuple(piles))
            assert type(after) is Position
            assert move == Move.deal(STOCK) or move.target == WASTE


def test_a_search_object_that_has_searched_copies_and_pickles() -> None:
    game = Escalator()
    search = EscalatorSearch(game)
    position = game.deal(DealNumber(8))
    assert solve(game, position, search=search).verdict is Verdict.WON
    assert vars(game) == vars(Escalator())  # the game itself keeps nothing of the search
    for other in (pickle.loads(pickle.dumps(search)), copy.deepcopy(search)):
        assert solve(other.game, position, search=other).verdict is Verdict.WON
