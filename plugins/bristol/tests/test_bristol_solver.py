"""Bristol's solver hooks are sound: with and without them the solver reaches the same verdict
on small positions it can decide both ways, and the key and the forced move keep the future."""

from __future__ import annotations

import pytest
from patience_bristol import Bristol
from patience_bristol.game import FOUNDATIONS, RESERVES, STOCK, TABLEAU

from patience_core.api import Card, DealNumber, Game, Position, Suit, aisleriot_shuffle
from patience_core.solver import Budget, Verdict, solve


class PlainBristol(Bristol):
    """Bristol with the Game defaults for every search hook."""

    solver_key = Game.solver_key
    forced_move = Game.forced_move
    order_moves = Game.order_moves
    is_dead = Game.is_dead


class UnforcedBristol(Bristol):
    """Bristol with its key but no forced moves and the default order."""

    forced_move = Game.forced_move
    order_moves = Game.order_moves


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


@pytest.mark.parametrize(("low", "plain_game"), [(11, PlainBristol()), (10, UnforcedBristol())])
def test_verdicts_agree_with_and_without_the_hooks(low: int, plain_game: Game) -> None:
    budget = Budget(nodes=100_000, seconds=60)
    verdicts = []
    for seed in SEEDS:
        position = small_position(seed, low)
        fast = solve(Bristol(), position, budget)
        plain = solve(plain_game, position, budget)
        if plain.verdict is Verdict.UNKNOWN:
            continue  # too big for the plain search; the hooks decide it (checked below)
        assert fast.verdict is plain.verdict, seed
        verdicts.append(fast.verdict)
    assert len(verdicts) >= len(SEEDS) - 5
    # The sample holds both kinds, so the agreement means something.
    assert verdicts.count(Verdict.WON) >= 3
    assert verdicts.count(Verdict.DEAD) >= 2


@pytest.mark.parametrize("seed", SEEDS)
def test_a_forced_move_keeps_a_won_position_won(seed: int) -> None:
    game, plain = Bristol(), UnforcedBristol()
    position = small_position(seed, 10 + seed % 2)
    budget = Budget(nodes=200_000, seconds=60)
    while (move := game.forced_move(position)) is not None:
        assert move in game.legal_moves(position)
        before = solve(plain, position, budget).verdict
        position = game.play(position, move)
        assert solve(plain, position, budget).verdict is before


def test_the_key_ignores_suits_and_the_order_of_tableau_piles_and_foundations() -> None:
    game = Bristol()
    position = game.deal(DealNumber(5))
    piles = list(position.piles)
    swapped = [tuple(Card.of(c.rank, (c.suit + 1) % 4, c.face_up) for c in p) for p in piles]
    swapped[TABLEAU[0]], swapped[TABLEAU[5]] = swapped[TABLEAU[5]], swapped[TABLEAU[0]]
    assert game.solver_key(Position(tuple(swapped))) == game.solver_key(position)


def test_the_key_keeps_reserves_apart_while_the_stock_can_reach_them() -> None:
    game = Bristol()
    ace, two, three = Card.of(1, 0), Card.of(2, 0), Card.of(3, 0)
    base: list[tuple[Card, ...]] = [() for _ in range(16)]
    base[TABLEAU[0]] = (Card.of(9, 1),)

    def key(stock: int, reserves: tuple[Card, Card, Card]) -> object:
        piles = list(base)
        piles[STOCK] = tuple(Card.of(13, s, False) for s in range(stock))
        for r, card in zip(RESERVES, reserves, strict=True):
            piles[r] = (card,)
        return game.solver_key(Position(tuple(piles)))

    assert key(4, (ace, two, three)) != key(4, (ace, three, two))
    assert key(1, (ace, two, three)) == key(1, (ace, three, two))
    assert key(1, (ace, two, three)) != key(1, (two, ace, three))
    assert key(0, (ace, two, three)) == key(0, (three, ace, two))


def test_a_two_is_forced_only_once_every_ace_is_home() -> None:
    game = Bristol()
    piles: list[tuple[Card, ...]] = [() for _ in range(16)]
    piles[FOUNDATIONS[0]] = (Card.of(1, 0),)
    piles[FOUNDATIONS[1]] = (Card.of(1, 1),)
    piles[FOUNDATIONS[2]] = (Card.of(1, 2),)
    piles[TABLEAU[0]] = (Card.of(1, 3), Card.of(2, 0))
    assert game.forced_move(Position(tuple(piles))) is None
    piles[TABLEAU[0]] = (Card.of(5, 3), Card.of(2, 0))
    piles[FOUNDATIONS[3]] = (Card.of(1, 3),)
    move = game.forced_move(Position(tuple(piles)))
    assert move is not None and move.source == TABLEAU[0] and move.target in FOUNDATIONS
