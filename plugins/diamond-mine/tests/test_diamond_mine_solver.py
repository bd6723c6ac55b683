"""Diamond Mine's solver hooks are sound: the diamond-order dead proof, the forced diamond and
the key agree with a search that uses none of them, on small positions both can decide."""

from __future__ import annotations

import pytest
from patience_diamond_mine import DiamondMine
from patience_diamond_mine.game import FOUNDATION, TABLEAU, diamond_orders_fit

from patience_core.api import Card, Game, Position, Suit, aisleriot_shuffle
from patience_core.solver import Budget, Verdict, solve


class PlainDiamondMine(DiamondMine):
    """Diamond Mine without the hooks that can make "dead" a lie: no forced move, no dead-end
    proof. (Without the key and the order too, the search cannot decide even these positions;
    the key is checked on its own below.)"""

    forced_move = Game.forced_move
    is_dead = Game.is_dead


def run(suit: Suit, high: int = 13, low: int = 1) -> tuple[Card, ...]:
    return tuple(Card.of(rank, suit) for rank in range(high, low - 1, -1))


def small_position(seed: int) -> Position:
    """Clubs and hearts complete (loose cards hidden under them), spades K..6 in one pile; the
    other spades and 3-5 diamonds shuffled (seeded), face down under one face-up card; the
    foundation started (or not) just before the loose diamonds."""
    loose_diamonds = 3 + seed % 3
    start = 1 + seed % 13
    on_foundation = 13 - loose_diamonds
    ranks = [(start - 1 + k) % 13 + 1 for k in range(13)]
    foundation = tuple(Card.of(r, Suit.DIAMONDS) for r in ranks[:on_foundation])
    if seed % 4 == 0:
        foundation = ()
        loose = [Card.of(r, Suit.DIAMONDS) for r in ranks]
    else:
        loose = [Card.of(r, Suit.DIAMONDS) for r in ranks[on_foundation:]]
    loose += run(Suit.SPADES, 5)
    cards = aisleriot_shuffle(loose, seed)
    piles: list[tuple[Card, ...]] = [() for _ in TABLEAU]
    homes = 3 + seed % 4
    for k, card in enumerate(cards):
        piles[k % homes] += (card.turned(False),)
    piles[0] += run(Suit.CLUBS)
    piles[1] += run(Suit.HEARTS)
    piles[homes] = run(Suit.SPADES, 13, 6)
    piles = [p[:-1] + (p[-1].turned(True),) if p else p for p in piles]
    return Position((foundation, *piles))


SEEDS = range(1, 41)


def test_wins_agree_with_and_without_the_forced_move() -> None:
    budget = Budget(nodes=50_000, seconds=60)
    won = 0
    for seed in SEEDS:
        position = small_position(seed)
        fast = solve(DiamondMine(), position, budget)
        if fast.verdict is Verdict.DEAD:
            continue  # checked by the next test (the plain search cannot exhaust these)
        assert fast.verdict is Verdict.WON, seed
        assert solve(PlainDiamondMine(), position, budget).verdict is Verdict.WON, seed
        won += 1
    assert won >= 20


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dead_verdict_is_never_won_without_the_hooks(seed: int) -> None:
    position = small_position(seed)
    if solve(DiamondMine(), position, Budget(nodes=50_000)).verdict is Verdict.DEAD:
        plain = solve(PlainDiamondMine(), position, Budget(nodes=5_000, seconds=60))
        assert plain.verdict is not Verdict.WON


@pytest.mark.parametrize("seed", SEEDS)
def test_a_forced_move_keeps_a_won_position_won(seed: int) -> None:
    game = DiamondMine()
    position = small_position(seed)
    budget = Budget(nodes=50_000, seconds=60)
    if solve(DiamondMine(), position, budget).verdict is not Verdict.WON:
        return
    while (move := game.forced_move(position)) is not None:
        assert move in game.legal_moves(position)
        position = game.play(position, move)
        assert solve(PlainDiamondMine(), position, budget).verdict is Verdict.WON


def piles_with(*tableau: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    return [*tableau, *([()] * (13 - len(tableau)))]


def d(rank: int, up: bool = False) -> Card:
    return Card.of(rank, Suit.DIAMONDS, up)


def test_a_pile_with_a_later_diamond_above_an_earlier_one_is_dead() -> None:
    clubs = run(Suit.CLUBS)
    # Diamonds 5 (top) above 4: with the foundation at 3, 4 is due first but lies under 5.
    assert not diamond_orders_fit(
        Position(((d(3, True),), *piles_with(clubs + (d(4), d(5, True)))))
    )
    # Started at 5 instead, 6 comes before 4 (after the wrap): in order.
    assert diamond_orders_fit(Position(((d(5, True),), *piles_with((d(4), d(6, True))))))
    # Empty foundation: piles [4 over 6] and [6 over 4] (top first) contradict for every start.
    assert not diamond_orders_fit(
        Position(((), *piles_with((d(6), d(4, True)), (d(4), d(6, True)))))
    )
    assert diamond_orders_fit(Position(((), *piles_with((d(6), d(4, True)), (d(7), d(5, True))))))


def test_the_next_diamond_is_forced_only_on_a_started_foundation() -> None:
    game = DiamondMine()
    spade = Card.of(9, Suit.SPADES, False)
    started = Position(((d(3, True),), *piles_with((spade, d(4, True)))))
    move = game.forced_move(started)
    assert move is not None and move.target == FOUNDATION
    assert game.forced_move(Position(((), *piles_with((spade, d(4, True)))))) is None


def test_the_key_ignores_the_order_of_piles() -> None:
    game = DiamondMine()
    position = small_position(7)
    piles = list(position.piles)
    piles[1], piles[9] = piles[9], piles[1]
    assert game.solver_key(Position(tuple(piles))) == game.solver_key(position)


def test_legal_moves_are_those_of_the_rules_text() -> None:
    """The fast move generator lists exactly the moves the rules allow, in the same order."""
    game = DiamondMine()
    for seed in SEEDS:
        position = small_position(seed)
        expected = []
        for source in TABLEAU:
            pile = position[source]
            if not pile or pile[-1].suit is Suit.DIAMONDS:
                continue
            up = 0
            while up < len(pile) and pile[-1 - up].face_up:
                up += 1
            for count in range(1, up + 1):
                for target in TABLEAU:
                    onto = position.top(target)
                    if target != source and (
                        onto is None
                        or (
                            onto.face_up
                            and onto.suit is not Suit.DIAMONDS
                            and onto.rank == pile[-count].rank + 1
                        )
                    ):
                        expected.append((source, target, count))
        got = [(m.source, m.target, m.count) for m in game.legal_moves(position)]
        assert [g for g in got if g[1] != FOUNDATION] == expected
