"""Bristol's solver hooks are sound: with and without them the solver reaches the same verdict
on small positions it can decide both ways; the dead-end proof never calls a winnable position
dead; the key, the forced move and the pruned moves keep the future; the win finder's lines win."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from patience_bristol import Bristol
from patience_bristol.game import FOUNDATIONS, RESERVES, STOCK, TABLEAU
from patience_bristol.search import BristolSearch, best_first, homes_impossible, inversions

from patience_core.api import (
    Card,
    DealNumber,
    GameSearch,
    Move,
    Position,
    Suit,
    aisleriot_shuffle,
)
from patience_core.engine import search_limits
from patience_core.solve import Budget, Verdict, solve

#: The game every search below plays (games hold no state).
GAME = Bristol()


class UnforcedSearch(GameSearch):
    """The generic search with Bristol's key: no forced moves, no dead-end proof, every legal
    move, the default order and no win finder."""

    key = BristolSearch.key


class AllMoves(BristolSearch):
    """Every member of Bristol's search object but the pruned move list (and the win finder)."""

    moves_to_try = GameSearch.moves_to_try
    find_win = GameSearch.find_win


def small_position(seed: int, low: int) -> Position:
    """Foundations built to rank ``low - 1`` (suits mixed); the other cards shuffled (seeded)
    over a few tableau piles, the reserves and a short stock."""
    homes = [tuple(Card.of(rank, (suit + rank) % 4) for rank in range(1, low)) for suit in range(4)]
    rest = [Card.of(rank, suit) for rank in range(low, 14) for suit in Suit]
    cards = aisleriot_shuffle(rest, seed)
    stock_size = (0, 1, 4)[seed % 3]
    stock = tuple(card.turned(False) for card in cards[:stock_size])
    cards = cards[stock_size:]
    depth = 1 + seed % 2
    reserves = [tuple(cards[k * depth : (k + 1) * depth]) for k in range(3)]
    cards = cards[3 * depth :]
    tableau: list[tuple[Card, ...]] = [() for _ in TABLEAU]
    piles = 2 + seed % 3
    for k, card in enumerate(cards):
        tableau[k % piles] += (card,)
    return Position((stock, *reserves, *homes, *tableau))


SEEDS = range(1, 61)


@pytest.mark.parametrize(("low", "plain_search"), [(11, GameSearch), (10, UnforcedSearch)])
def test_verdicts_agree_with_and_without_the_hooks(
    low: int, plain_search: type[GameSearch]
) -> None:
    budget = Budget(nodes=100_000, seconds=60)
    verdicts = []
    for seed in SEEDS:
        position = small_position(seed, low)
        fast = solve(GAME, position, budget, BristolSearch(GAME))
        plain = solve(GAME, position, budget, plain_search(GAME))
        if plain.verdict is Verdict.UNKNOWN:
            continue  # too big for the plain search; the hooks decide it (checked below)
        assert fast.verdict is plain.verdict, seed
        verdicts.append(fast.verdict)
    assert len(verdicts) >= len(SEEDS) - 5
    # The sample holds both kinds, so the agreement means something.
    assert verdicts.count(Verdict.WON) >= 3
    assert verdicts.count(Verdict.DEAD) >= 2


def walk_positions(deals: range, steps: int = 40) -> Iterator[Position]:
    """Positions along walks from real deals: each move chosen by a fixed formula among the
    legal moves, foundation moves first when there are any (so the walks get far)."""
    game = Bristol()
    for deal in deals:
        position = game.deal(DealNumber(deal))
        for step in range(steps):
            yield position
            moves = game.legal_moves(position)
            if not moves:
                break
            home = [m for m in moves if m.target in FOUNDATIONS]
            choice = home or moves
            position = game.play(position, choice[(deal * 7919 + step * 104729) % len(choice)])


def test_the_dead_end_proof_never_calls_a_position_the_plain_search_wins_dead() -> None:
    """Positions the proof calls dead, met while solving small positions (the cards from Tens or
    Jacks up): the search without it never finds a win from one, and proves most dead."""
    found: list[Position] = []

    class Collecting(BristolSearch):
        find_win = GameSearch.find_win

        def is_dead(self, position: Position) -> bool:
            dead = homes_impossible(position)
            if dead and len(found) < 400:
                found.append(position)
            return dead

    for seed in SEEDS:
        for low in (10, 11):
            solve(GAME, small_position(seed, low), Budget(nodes=20_000), Collecting(GAME))
    assert len(found) >= 100
    proved = 0
    for position in found[::4]:
        budget = Budget(nodes=20_000, seconds=60)
        verdict = solve(GAME, position, budget, UnforcedSearch(GAME)).verdict
        assert verdict is not Verdict.WON
        proved += verdict is Verdict.DEAD
    assert proved >= len(found[::4]) // 2


@pytest.fixture(scope="module")
def winning_lines() -> dict[int, list[Move]]:
    """Winning lines of a few deals: by the solver for deals it wins at once, by the best-first
    search for deals the depth-first search finds hard."""
    game = Bristol()
    search = BristolSearch(game)
    lines = {}
    for deal in (1, 5):
        solution = solve(game, game.deal(DealNumber(deal)), Budget(seconds=30), search)
        assert solution.verdict is Verdict.WON
        lines[deal] = list(solution.moves)
    for deal in (23, 85, 149, 175):
        line, played = best_first(search, game.deal(DealNumber(deal)), 2_000_000, 30.0)
        assert line is not None and played > 0
        lines[deal] = line
    return lines


def test_positions_on_winning_lines_are_never_called_dead(
    winning_lines: dict[int, list[Move]],
) -> None:
    """Every position on a winning line is winnable, so the proof must never fire there."""
    game = Bristol()
    for deal, line in winning_lines.items():
        position = game.deal(DealNumber(deal))
        for move in line:
            assert not homes_impossible(position)
            position = game.play(position, move)
        assert game.is_won(position)


def test_the_dead_end_proof_counts_foundation_slots() -> None:
    """A hand-made dead end: the last 2 lies under a Queen in a reserve; the Queen can go
    neither home (the only foundation not full is at Ace: no Jack can come before the 2) nor
    onto the tableau (the only King lies under the 3..Jack run)."""
    piles: list[tuple[Card, ...]] = [() for _ in range(16)]
    piles[FOUNDATIONS[0]] = tuple(Card.of(rank, Suit.CLUBS) for rank in range(1, 14))
    piles[FOUNDATIONS[1]] = tuple(Card.of(rank, Suit.HEARTS) for rank in range(1, 14))
    piles[FOUNDATIONS[2]] = tuple(Card.of(rank, Suit.SPADES) for rank in range(1, 14))
    piles[FOUNDATIONS[3]] = (Card.of(1, Suit.DIAMONDS),)
    rest = [Card.of(rank, Suit.DIAMONDS) for rank in range(2, 14)]
    # r1: 2d under Qd; t1: Kd under Jd, Td, ..., 3d (3d on top).
    piles[RESERVES[0]] = (rest[0], rest[10])
    piles[TABLEAU[0]] = (rest[11], *reversed(rest[1:10]))
    position = Position(tuple(piles))
    assert homes_impossible(position)
    assert solve(GAME, position, search=GameSearch(GAME)).verdict is Verdict.DEAD
    # With the Queen and the 2 the other way round it is won.
    piles[RESERVES[0]] = (rest[10], rest[0])
    position = Position(tuple(piles))
    assert not homes_impossible(position)
    assert solve(GAME, position, search=BristolSearch(GAME)).verdict is Verdict.WON


def test_the_dead_end_proof_sees_a_card_reach_the_tableau_through_another() -> None:
    """The 2 lies under the 7 in r1; the 7 can reach the tableau only once the 9 from r2 has gone
    onto the Ten of t1 and the 8 from r3 onto the 9. Won, so the proof must not fire."""
    piles: list[tuple[Card, ...]] = [() for _ in range(16)]
    for f, suit in zip(FOUNDATIONS[:3], (Suit.CLUBS, Suit.HEARTS, Suit.SPADES), strict=True):
        piles[f] = tuple(Card.of(rank, suit) for rank in range(1, 14))
    piles[FOUNDATIONS[3]] = (Card.of(1, Suit.DIAMONDS),)

    def diamonds(*ranks: int) -> tuple[Card, ...]:
        return tuple(Card.of(rank, Suit.DIAMONDS) for rank in ranks)

    piles[RESERVES[0]] = diamonds(2, 7)
    piles[RESERVES[1]] = diamonds(9)
    piles[RESERVES[2]] = diamonds(8)
    piles[TABLEAU[0]] = diamonds(13, 12, 11, 10)
    piles[TABLEAU[1]] = diamonds(6, 5, 4, 3)
    position = Position(tuple(piles))
    assert not homes_impossible(position)
    assert solve(GAME, position, search=GameSearch(GAME)).verdict is Verdict.WON
    # With the Jack and the Ten under the 9 in r2 instead, nothing can start: dead.
    piles[TABLEAU[0]] = diamonds(13, 12)
    piles[RESERVES[1]] = diamonds(11, 10, 9)
    position = Position(tuple(piles))
    assert homes_impossible(position)
    assert solve(GAME, position, search=GameSearch(GAME)).verdict is Verdict.DEAD


@pytest.mark.parametrize("seed", SEEDS)
def test_a_forced_move_keeps_a_won_position_won(seed: int) -> None:
    game = Bristol()
    search, plain = BristolSearch(game), UnforcedSearch(game)
    position = small_position(seed, 10 + seed % 2)
    budget = Budget(nodes=200_000, seconds=60)
    while (move := search.forced_move(position)) is not None:
        assert move in game.legal_moves(position)
        before = solve(game, position, budget, plain).verdict
        position = game.play(position, move)
        assert solve(game, position, budget, plain).verdict is before


def test_the_moves_left_out_are_a_last_card_onto_another_pile() -> None:
    game = Bristol()
    search = BristolSearch(game)
    skipped = 0
    for position in walk_positions(range(1, 21)):
        kept = search.moves_to_try(position)
        legal = game.legal_moves(position)
        assert sorted(kept, key=legal.index) == [
            move
            for move in legal
            if not (
                move.source in TABLEAU
                and move.target in TABLEAU
                and len(position[move.source]) == 1
            )
        ]
        skipped += len(legal) - len(kept)
    assert skipped >= 5


def test_verdicts_agree_with_and_without_the_pruned_moves() -> None:
    """Small positions with single-card tableau piles (cards from Tens up over 5-7 piles)."""
    budget = Budget(nodes=100_000, seconds=60)
    decided = 0
    for seed in SEEDS:
        position = small_position(seed * 3, 10)
        piles = list(position.piles)
        spread = [card for t in TABLEAU for card in piles[t]]
        width = 5 + seed % 3
        for k, t in enumerate(TABLEAU):
            piles[t] = tuple(spread[k::width]) if k < width else ()
        position = Position(tuple(piles))
        fast = solve(GAME, position, budget, BristolSearch(GAME)).verdict
        slow = solve(GAME, position, budget, AllMoves(GAME)).verdict
        if Verdict.UNKNOWN not in (fast, slow):
            assert fast is slow, seed
            decided += 1
    assert decided >= 40


def test_the_win_finder_lines_win(winning_lines: dict[int, list[Move]]) -> None:
    """On deals the depth-first search finds hard, the best-first search's lines replay to a
    win; on a lost position it finds nothing."""
    game = Bristol()
    search = BristolSearch(game)
    for deal in (23, 85, 149, 175):
        position = game.deal(DealNumber(deal))
        for move in winning_lines[deal]:
            assert move in game.legal_moves(position)
            position = game.play(position, move)
        assert game.is_won(position)
    lost = next(
        small_position(seed, 11)
        for seed in SEEDS
        if solve(GAME, small_position(seed, 11), search=GameSearch(GAME)).verdict is Verdict.DEAD
    )
    assert best_first(search, lost, 100_000, 10.0)[0] is None


def test_the_order_keeps_every_move_and_puts_foundation_moves_first() -> None:
    game = Bristol()
    search = BristolSearch(game)
    for position in walk_positions(range(1, 11)):
        moves = game.legal_moves(position)
        ordered = search.order_moves(position, moves)
        assert sorted(ordered, key=moves.index) == moves
        home = [m for m in ordered if m.target in FOUNDATIONS]
        assert ordered[: len(home)] == home


def test_inversions_count_higher_cards_above_lower_ones() -> None:
    assert inversions([5, 9, 2, 7]) == 3  # bottom first: 9 above 5, 7 above 5, 7 above 2
    assert inversions([13, 12, 11]) == 0
    assert inversions([1, 2, 3]) == 3


def test_the_key_ignores_suits_and_the_order_of_tableau_piles_and_foundations() -> None:
    game = Bristol()
    search = BristolSearch(game)
    position = game.deal(DealNumber(5))
    piles = list(position.piles)
    swapped = [tuple(Card.of(c.rank, (c.suit + 1) % 4, c.face_up) for c in p) for p in piles]
    swapped[TABLEAU[0]], swapped[TABLEAU[5]] = swapped[TABLEAU[5]], swapped[TABLEAU[0]]
    assert search.key(Position(tuple(swapped))) == search.key(position)


def test_the_key_keeps_reserves_apart_while_the_stock_can_reach_them() -> None:
    game = Bristol()
    search = BristolSearch(game)
    ace, two, three = Card.of(1, 0), Card.of(2, 0), Card.of(3, 0)
    base: list[tuple[Card, ...]] = [() for _ in range(16)]
    base[TABLEAU[0]] = (Card.of(9, 1),)

    def key(stock: int, reserves: tuple[Card, Card, Card]) -> object:
        piles = list(base)
        piles[STOCK] = tuple(Card.of(13, s, False) for s in range(stock))
        for r, card in zip(RESERVES, reserves, strict=True):
            piles[r] = (card,)
        return search.key(Position(tuple(piles)))

    assert key(4, (ace, two, three)) != key(4, (ace, three, two))
    assert key(1, (ace, two, three)) == key(1, (ace, three, two))
    assert key(1, (ace, two, three)) != key(1, (two, ace, three))
    assert key(0, (ace, two, three)) == key(0, (three, ace, two))


def test_a_two_is_forced_only_once_every_ace_is_home() -> None:
    game = Bristol()
    search = BristolSearch(game)
    piles: list[tuple[Card, ...]] = [() for _ in range(16)]
    piles[FOUNDATIONS[0]] = (Card.of(1, 0),)
    piles[FOUNDATIONS[1]] = (Card.of(1, 1),)
    piles[FOUNDATIONS[2]] = (Card.of(1, 2),)
    piles[TABLEAU[0]] = (Card.of(1, 3), Card.of(2, 0))
    assert search.forced_move(Position(tuple(piles))) is None
    piles[TABLEAU[0]] = (Card.of(5, 3), Card.of(2, 0))
    piles[FOUNDATIONS[3]] = (Card.of(1, 3),)
    move = search.forced_move(Position(tuple(piles)))
    assert move is not None and move.source == TABLEAU[0] and move.target in FOUNDATIONS


def test_the_win_finder_stops_when_the_solvers_time_is_spent() -> None:
    """Inside a search whose clock has run out (a hint's wall-clock cap), the win finder gives
    up at once, whatever CPU seconds it was given."""
    game = Bristol()
    search = BristolSearch(game)
    position = game.deal(DealNumber(1))
    assert search.find_win(position, 10**6, 60.0)[0] is not None
    with search_limits(60.0, 0.0):
        line, played = search.find_win(position, 10**6, 60.0)
    assert line is None
    assert played <= 256
