"""Diamond Mine's solver hooks are sound: the dead-end proofs (diamond order, relaxed game), the
forced diamond, the suit-blind key and the pruned move list agree with searches that use none of
them, on positions both can decide; and the relaxed game allows every real move."""

from __future__ import annotations

from collections.abc import Hashable, Iterator

import pytest
from patience_diamond_mine import DiamondMine
from patience_diamond_mine.game import FOUNDATION, TABLEAU
from patience_diamond_mine.search import (
    CARD_CODE,
    DiamondMineSearch,
    Relaxation,
    diamond_orders_fit,
    relaxed_fits,
    relaxed_state,
    relaxed_successors,
    relaxed_won,
)

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


def exact_key(position: Position) -> Hashable:
    """A key with every suit: the piles as full card codes, sorted, and the foundation's size."""
    piles = sorted(bytes(CARD_CODE[card] for card in pile) for pile in position.piles[1:])
    return (len(position[FOUNDATION]), tuple(piles))


#: The game every search below plays (games hold no state).
GAME = DiamondMine()


class PlainSearch(DiamondMineSearch):
    """The search with nothing that can make "dead" a lie: the exact key, every legal move, no
    forced move, no dead-end proof (Diamond Mine's move order kept)."""

    forced_move = GameSearch.forced_move
    is_dead = GameSearch.is_dead
    moves_to_try = GameSearch.moves_to_try

    def key(self, position: Position) -> Hashable:
        return exact_key(position)


class OrderOnly(DiamondMineSearch):
    """The search as first shipped (exact key, every legal move, the forced diamond and the
    diamond-order proof, both tested against PlainSearch below): the reference for the
    newer members on positions too big for the plain search."""

    moves_to_try = GameSearch.moves_to_try

    def key(self, position: Position) -> Hashable:
        return exact_key(position)

    def is_dead(self, position: Position) -> bool:
        return not diamond_orders_fit(position)


class NoRelaxation(DiamondMineSearch):
    """Every hook but the relaxed dead-end proof."""

    def is_dead(self, position: Position) -> bool:
        return not diamond_orders_fit(position)


class ExactKey(DiamondMineSearch):
    """Every member but the suit-blind key."""

    def key(self, position: Position) -> Hashable:
        return exact_key(position)


class AllMoves(DiamondMineSearch):
    """Every member but the pruned move list."""

    moves_to_try = GameSearch.moves_to_try


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


def mixed_position(seed: int) -> Position:
    """Clubs complete; hearts from K down to a seeded rank and spades from K down to another,
    each in a pile of its own or (some seeds) above face-down cards; the lower hearts and spades
    and 2-5 diamonds shuffled face down over 3..10 piles, each pile's top card turned up; the
    foundation holding the other diamonds (sometimes one fewer)."""
    loose_diamonds = 2 + seed % 4
    start = 1 + (seed // 4) % 13
    ranks = [(start - 1 + k) % 13 + 1 for k in range(13)]
    home = 13 - loose_diamonds - (1 if seed % 7 == 0 else 0)
    foundation = tuple(Card.of(r, Suit.DIAMONDS) for r in ranks[:home])
    loose = [Card.of(r, Suit.DIAMONDS) for r in ranks[home:]]
    spades_low = 4 + (seed // 3) % 4
    hearts_low = 1 + (seed // 5) % 4
    loose += [Card.of(rank, Suit.SPADES) for rank in range(1, spades_low)]
    loose += [Card.of(rank, Suit.HEARTS) for rank in range(1, hearts_low)]
    piles: list[tuple[Card, ...]] = [() for _ in TABLEAU]
    width = 3 + (seed // 2) % 8
    for k, card in enumerate(aisleriot_shuffle(loose, seed)):
        piles[3 + k % width] += (card.turned(False),)
    piles[0] = run(Suit.CLUBS)
    piles[1] = run(Suit.HEARTS, 13, hearts_low)
    piles[2] = run(Suit.SPADES, 13, spades_low)
    if seed % 3 == 1 and piles[3]:
        piles[3], piles[2] = piles[3] + piles[2], ()
    piles = [p[:-1] + (p[-1].turned(True),) if p else p for p in piles]
    return Position((foundation, *piles))


SEEDS = range(1, 41)
#: Deals whose winning lines (found in a few hundredths of a second) give reachable positions.
LINE_DEALS = (2, 25, 41, 97, 102, 178)


def pick(seed: int, step: int, moves: list[Move]) -> Move:
    """A move chosen by a fixed formula (no randomness)."""
    return moves[(seed * 2654435761 + step * 40503) % len(moves)]


def reachable_positions() -> Iterator[Position]:
    """The positions along the winning line of each of LINE_DEALS, and along short walks that
    leave each line at every fourth step (moves chosen by :func:`pick`)."""
    game = DiamondMine()
    for deal in LINE_DEALS:
        position = game.deal(DealNumber(deal))
        solution = solve(game, position, Budget(seconds=30), DiamondMineSearch(game))
        assert solution.verdict is Verdict.WON, deal
        for step, move in enumerate(solution.moves):
            yield position
            if step % 4 == 0:
                walk = position
                for k in range(12):
                    moves = game.legal_moves(walk)
                    if not moves:
                        break
                    walk = game.play(walk, pick(deal + step, k, moves))
                    yield walk
            position = game.play(position, move)
        yield position


def test_the_relaxed_game_allows_every_real_move() -> None:
    """The lemma behind the relaxed proof: each real move leaves the relaxed state as it was or
    gives one of its relaxed successors (or a state the diamond order already rules out), and
    every won position is relaxed-won."""
    game = DiamondMine()
    checked = 0
    kinds = set()
    for position in reachable_positions():
        state = relaxed_state(position)
        assert state is not None  # every reachable position keeps the invariants
        assert relaxed_won(state) is game.is_won(position) or not game.is_won(position)
        successors = relaxed_successors(state)
        for move in game.legal_moves(position):
            after = relaxed_state(game.play(position, move))
            assert after is not None
            assert after == state or after in successors or not relaxed_fits(after), move
            kinds.add("same" if after == state else "changed")
            checked += 1
    assert checked > 2000
    assert kinds == {"same", "changed"}


def test_won_positions_are_relaxed_won() -> None:
    game = DiamondMine()
    for deal in LINE_DEALS:
        position = game.deal(DealNumber(deal))
        for move in solve(game, position, Budget(seconds=30), DiamondMineSearch(game)).moves:
            position = game.play(position, move)
        assert game.is_won(position)
        state = relaxed_state(position)
        assert state is not None and relaxed_won(state)


def test_positions_the_relaxed_game_proves_dead_are_dead() -> None:
    """Thirty positions met while solving deals 1, 2, ... (at most 100) that only the relaxed
    proof calls dead (the last two of each deal): the search with the first hooks (OrderOnly)
    never wins from one, and proves most of them dead."""
    found: list[Position] = []

    class Collecting(DiamondMineSearch):
        def is_dead(self, position: Position) -> bool:
            if not diamond_orders_fit(position):
                return True
            state = relaxed_state(position)
            if state is not None and self.relaxation.dead(state):
                found.append(position)
                return True
            return False

    search = Collecting(GAME)
    for deal in range(1, 101):
        before = len(found)
        solve(GAME, GAME.deal(DealNumber(deal)), Budget(seconds=30), search)
        found[before:] = found[len(found) - 2 :] if len(found) - before > 2 else found[before:]
        if len(found) >= 30:  # enough to judge; the deals after add more of the same
            break
    assert len(found) >= 30
    proved = 0
    for position in found:
        verdict = solve(GAME, position, Budget(nodes=5_000, seconds=60), OrderOnly(GAME)).verdict
        assert verdict is not Verdict.WON
        proved += verdict is Verdict.DEAD
    assert proved >= len(found) // 2


def test_the_relaxation_proves_known_dead_deals_at_once() -> None:
    """Deals 9, 51 and 59 are dead (9 proved by the exact-key search in 29 s, 51 and 59 by the
    suit-blind search without the relaxed proof); the relaxed game alone proves each."""
    game = DiamondMine()
    for deal in (9, 51, 59):
        state = relaxed_state(game.deal(DealNumber(deal)))
        assert state is not None and Relaxation().dead(state)
    for deal in (25, 33, 99):  # winnable
        state = relaxed_state(game.deal(DealNumber(deal)))
        assert state is not None and not Relaxation().dead(state)


def test_verdicts_agree_with_the_first_hooks() -> None:
    """On positions the search with the first hooks decides (the plain search proves none of
    these dead), every hook together gives the same verdict."""
    budget = Budget(nodes=60_000, seconds=60)
    verdicts = []
    for seed in range(60):
        position = mixed_position(seed)
        expected = solve(GAME, position, budget, OrderOnly(GAME)).verdict
        if expected is Verdict.UNKNOWN:
            continue
        assert solve(GAME, position, budget, DiamondMineSearch(GAME)).verdict is expected, seed
        verdicts.append(expected)
    assert len(verdicts) >= 30
    assert verdicts.count(Verdict.WON) >= 10
    assert verdicts.count(Verdict.DEAD) >= 5


@pytest.mark.parametrize("hookless", [NoRelaxation, ExactKey, AllMoves])
def test_each_new_hook_alone_keeps_the_verdicts(hookless: type[DiamondMineSearch]) -> None:
    """With and without each newer hook (the others kept) the verdicts on deals agree."""
    budget = Budget(nodes=100_000, seconds=20)
    decided = 0
    for deal in (1, 2, 12, 22, 25, 49, 66, 180, 185):
        position = DiamondMine().deal(DealNumber(deal))
        with_hook = solve(GAME, position, budget, DiamondMineSearch(GAME)).verdict
        without = solve(GAME, position, budget, hookless(GAME)).verdict
        assert with_hook is not Verdict.UNKNOWN
        assert without in (with_hook, Verdict.UNKNOWN), deal
        decided += without is with_hook
    assert decided >= 6


def swap_suits(position: Position, first: Card, second: Card) -> Position:
    """``position`` with two cards of one rank exchanged (each keeps its place and face)."""

    def swapped(card: Card) -> Card:
        for a, b in ((first, second), (second, first)):
            if (card.rank, card.suit) == (a.rank, a.suit):
                return Card.of(b.rank, b.suit, card.face_up)
        return card

    return Position(tuple(tuple(swapped(card) for card in pile) for pile in position.piles))


def test_the_suit_blind_key_merges_positions_alike() -> None:
    """Exchanging a club and a spade (or heart) of one rank keeps the key and the legal moves,
    and the searches without the key agree that both positions are won or both lost."""
    budget = Budget(nodes=60_000, seconds=60)
    decided = 0
    for seed in range(40):
        position = mixed_position(seed)
        rank = 1 + seed % 3
        other = Suit.SPADES if seed % 2 else Suit.HEARTS
        twin = swap_suits(position, Card.of(rank, Suit.CLUBS), Card.of(rank, other))
        assert twin != position
        game = DiamondMine()
        search = DiamondMineSearch(game)
        assert search.key(twin) == search.key(position)
        triples = [(m.source, m.target, m.count) for m in game.legal_moves(position)]
        assert [(m.source, m.target, m.count) for m in game.legal_moves(twin)] == triples
        one = solve(GAME, position, budget, OrderOnly(GAME)).verdict
        two = solve(GAME, twin, budget, OrderOnly(GAME)).verdict
        if Verdict.UNKNOWN not in (one, two):
            assert one is two, seed
            decided += 1
    assert decided >= 20


def test_the_key_is_exact_once_every_diamond_is_home_and_every_card_up() -> None:
    game = DiamondMine()
    search = DiamondMineSearch(game)
    done = Position(
        (
            tuple(Card.of(r, Suit.DIAMONDS) for r in range(1, 14)),
            run(Suit.CLUBS, 13, 2),
            run(Suit.HEARTS),
            run(Suit.SPADES, 13, 2) + (Card.of(1, Suit.CLUBS),),
            (Card.of(1, Suit.SPADES),),
            *([()] * 9),
        )
    )
    twin = swap_suits(done, Card.of(1, Suit.CLUBS), Card.of(1, Suit.SPADES))
    assert search.key(done) != search.key(twin)
    assert game.is_won(game.play(twin, Move.transfer(TABLEAU[3], TABLEAU[0])))
    # With one card still face down the same exchange keeps the key.
    hidden = done.piles[4][0].turned(False)
    early = Position((*done.piles[:4], (hidden,), *done.piles[5:]))
    early_twin = swap_suits(early, Card.of(1, Suit.CLUBS), Card.of(1, Suit.SPADES))
    assert search.key(early) == search.key(early_twin)


def test_moves_left_out_of_the_search_repeat_a_key() -> None:
    """Every legal move the search skips gives the key of the position or of a move it keeps."""
    game = DiamondMine()
    search = DiamondMineSearch(game)
    skipped = 0
    for position in reachable_positions():
        kept = search.moves_to_try(position)
        legal = game.legal_moves(position)
        assert set(kept) <= set(legal) and len(set(kept)) == len(kept)
        keys = {search.key(position)} | {search.key(game.play(position, m)) for m in kept}
        for move in legal:
            if move not in kept:
                skipped += 1
                assert search.key(game.play(position, move)) in keys
    assert skipped > 50


def test_wins_agree_with_and_without_the_forced_move() -> None:
    budget = Budget(nodes=50_000, seconds=60)
    won = 0
    for seed in SEEDS:
        position = small_position(seed)
        fast = solve(GAME, position, budget, DiamondMineSearch(GAME))
        if fast.verdict is Verdict.DEAD:
            continue  # checked by the next test (the plain search cannot exhaust these)
        assert fast.verdict is Verdict.WON, seed
        assert solve(GAME, position, budget, PlainSearch(GAME)).verdict is Verdict.WON, seed
        won += 1
    assert won >= 20


@pytest.mark.parametrize("seed", SEEDS)
def test_a_dead_verdict_is_never_won_without_the_hooks(seed: int) -> None:
    position = small_position(seed)
    if solve(GAME, position, Budget(nodes=50_000), DiamondMineSearch(GAME)).verdict is Verdict.DEAD:
        plain = solve(GAME, position, Budget(nodes=5_000, seconds=60), PlainSearch(GAME))
        assert plain.verdict is not Verdict.WON


@pytest.mark.parametrize("seed", SEEDS)
def test_a_forced_move_keeps_a_won_position_won(seed: int) -> None:
    game = DiamondMine()
    search = DiamondMineSearch(game)
    position = small_position(seed)
    budget = Budget(nodes=50_000, seconds=60)
    if solve(GAME, position, budget, DiamondMineSearch(GAME)).verdict is not Verdict.WON:
        return
    while (move := search.forced_move(position)) is not None:
        assert move in game.legal_moves(position)
        position = game.play(position, move)
        assert solve(GAME, position, budget, PlainSearch(GAME)).verdict is Verdict.WON


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
    search = DiamondMineSearch(game)
    spade = Card.of(9, Suit.SPADES, False)
    started = Position(((d(3, True),), *piles_with((spade, d(4, True)))))
    move = search.forced_move(started)
    assert move is not None and move.target == FOUNDATION
    assert search.forced_move(Position(((), *piles_with((spade, d(4, True)))))) is None


def test_the_key_ignores_the_order_of_piles() -> None:
    game = DiamondMine()
    search = DiamondMineSearch(game)
    position = small_position(7)
    piles = list(position.piles)
    piles[1], piles[9] = piles[9], piles[1]
    assert search.key(Position(tuple(piles))) == search.key(position)


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


def test_the_relaxation_gives_up_unproved_when_the_solvers_time_is_spent() -> None:
    """Inside a search whose clock has run out, a proof that needs a search is "not proved"
    (so the solver, about to stop, is not held up), and that answer is not remembered."""
    game = DiamondMine()
    searched = [
        state
        for deal in (9, 51, 59)
        if (state := relaxed_state(game.deal(DealNumber(deal)))) is not None and relaxed_fits(state)
    ]
    assert searched
    for state in searched:
        relaxation = Relaxation()
        with search_limits(60.0, 0.0):
            assert not relaxation.dead(state)
        assert relaxation.dead(state)
