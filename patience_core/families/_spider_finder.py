"""The spider family's win finder: the rules on compact states and a best-first search for a
win that prunes moves (so it proves nothing lost; the solver replays what it finds).

Layer 3½ (above :mod:`patience_core.games`). A compact state is the stock count, the number
of face-down cards left in each column (they never change order, so the count says which they
are), the face-up cards of each column as bytes of ``suit * 16 + rank`` (bottom first), and the
number of suits on the foundations. Moves tried (:meth:`_Finder.steps`): a run moves whole onto
a card it builds on; part of a run only when it joins its own suit; a run already lying on a card
it builds on moves only to join its own suit; into an empty column (the first one) the whole
run, and while the stock is left its top card alone too; a complete suit to a foundation; the
deal. The progress score (lower first): face-down cards weigh 5, each face-up card not on its
same-suit successor 1 (0.5 on another suit's), each same-suit run covering face-down cards 2,
each card in the stock 1.2; each empty column counts 2 in favour.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from patience_core.model import Card, Move, Position

if TYPE_CHECKING:
    from patience_core.families._spider_search import SpiderSearch

__all__ = ["Finder"]

#: (stock left, face-down count per column, face-up cards per column, suits on foundations).
State = tuple[int, tuple[int, ...], tuple[bytes, ...], int]
#: (source column, target column, count); target -1 a foundation; source -1 the deal.
Step = tuple[int, int, int]
_DEAL: Step = (-1, -1, 0)
#: Weights of the progress score (module docstring).
_DOWN, _BREAK, _OFF_SUIT, _COVER, _STOCK, _EMPTY = 5.0, 1.0, 0.5, 2.0, 1.2, 2.0
#: The beam's first width (positions after a deal kept per level) and positions explored per
#: phase search; a pass that cut something short doubles both.
_BEAM = 8
_PHASE_NODES = 2000


#: Piles whose facts are kept at most (the table is emptied then).
_FACTS_KEPT = 200_000
#: (run length, lies on a card it builds on, top 13 a complete suit, card -> count from top).
_Facts = tuple[int, bool, bool, dict[int, int]]


class _OutOfBudget(Exception):
    """The node or time budget ran out."""


def code(card: Card) -> int:
    """A card's compact code, ``suit * 16 + rank``."""
    return int(card.suit) * 16 + int(card.rank)


class Finder:
    """The compact rules of one position of a spider game, and the best-first search.

    :param search: the game's search object (its policy tables over card codes).
    :param position: a position whose columns hold face-down cards only below face-up ones.
    :raises ValueError: for any other position (the finder is then skipped).
    """

    def __init__(self, search: SpiderSearch, position: Position) -> None:
        game = search.game
        self.game = game
        self.fits, self.joins, self.accepts = search.fits, search.joins, search.accepts
        hidden: list[tuple[int, ...]] = []
        downs: list[int] = []
        ups: list[bytes] = []
        for column in game.tableau:
            pile = position[column]
            down = 0
            while down < len(pile) and not pile[down].face_up:
                down += 1
            if any(not card.face_up for card in pile[down:]) or (down and down == len(pile)):
                raise ValueError("a face-down card above a face-up one, or on top")
            hidden.append(tuple(code(card) for card in pile[:down]))
            downs.append(down)
            ups.append(bytes(code(card) for card in pile[down:]))
        self.hidden = tuple(hidden)
        self.stock = tuple(code(card) for card in reversed(position[0]))
        homes = sum(1 for f in game.foundations if position[f])
        self.root: State = (len(self.stock), tuple(downs), tuple(ups), homes)
        self.position = position
        self.nodes = 0
        self.auto = game.suit_removal == "auto"
        self._values: dict[bytes, tuple[float, int]] = {}
        self._facts: dict[bytes, _Facts] = {}
        self.homes = len(game.foundations)
        #: The codes of the cards that build on each card (the build policy, card by card).
        self.onto: dict[int, tuple[int, ...]] = {}
        for card, below in sorted(self.fits):
            self.onto[below] = (*self.onto.get(below, ()), card)
        for card in search.cards:
            self.onto.setdefault(card, ())
        self._budget = 0
        self._deadline = 0.0
        self._cut = False

    # -- compact rules ------------------------------------------------------------------------

    def run(self, pile: bytes) -> int:
        """The length of the run at the top of a column's face-up cards."""
        k = 1
        while k < len(pile) and (pile[-k], pile[-k - 1]) in self.joins:
            k += 1
        return k

    @staticmethod
    def complete(pile: bytes) -> bool:
        """Whether the top 13 face-up cards are one suit King down to Ace."""
        if len(pile) < 13:
            return False
        king = pile[-13]
        return king & 15 == 13 and pile[-13:] == bytes(range(king, king - 13, -1))

    def facts(self, pile: bytes) -> _Facts:
        """What the finder needs of a non-empty column's face-up cards (kept per pile): its top
        run's length, whether that run lies on a card it builds on, whether its top 13 cards
        are a complete suit, and where each card of the run lies (its count from the top)."""
        known = self._facts.get(pile)
        if known is None:
            if len(self._facts) > _FACTS_KEPT:
                self._facts.clear()
            k = self.run(pile)
            lateral = k < len(pile) and (pile[-k], pile[-k - 1]) in self.fits
            at = {pile[-c]: c for c in range(1, k + 1)}
            known = self._facts[pile] = (k, lateral, k >= 13 and self.complete(pile), at)
        return known

    def steps(self, state: State) -> list[Step]:
        """The pruned moves the finder tries (module docstring), roughly best first."""
        stock, downs, ups, homes = state
        columns = range(len(ups))
        empty = next((c for c in columns if not ups[c]), -1)
        tops = [(t, ups[t][-1]) for t in columns if ups[t]]
        onto, joins = self.onto, self.joins
        out: list[Step] = []
        later: list[Step] = []
        for s in columns:
            pile = ups[s]
            if not pile:
                continue
            k, lateral, complete, at = self.facts(pile)
            if complete and homes < self.homes:
                return [(s, -1, 13)]  # a complete suit: taking it never loses a card
            for t, top in tops:
                if t == s:
                    continue
                for card in onto[top]:
                    c = at.get(card)
                    if c is None:
                        continue
                    if (card, top) in joins:
                        out.append((s, t, c))
                    elif c == k and not lateral:
                        later.append((s, t, c))
            if empty >= 0:
                if pile[-k] in self.accepts and (downs[s] or k < len(pile)):
                    later.append((s, empty, k))
                if stock and k > 1 and pile[-1] in self.accepts:
                    later.append((s, empty, 1))
        if stock and (self.game.deal_onto_empty or empty < 0):
            later.append(_DEAL)
        return out + later

    def play(self, state: State, step: Step) -> State:
        """The compact state after ``step`` (auto-flip, and auto removal when declared)."""
        stock, downs, ups, homes = state
        piles = list(ups)
        down = list(downs)
        s, t, c = step
        if s < 0:
            n = len(self.stock)
            dealt = self.stock[n - stock : n - stock + len(piles)]
            for column, card in enumerate(dealt):
                piles[column] += bytes((card,))
            stock -= len(dealt)
            touched: Sequence[int] = range(len(dealt))
        else:
            moved = piles[s][-c:]
            piles[s] = piles[s][:-c]
            if t >= 0:
                piles[t] += moved
            else:
                homes += 1
            touched = (s, t) if t >= 0 else (s,)
        self._flip(piles, down, s)
        if self.auto:
            for column in touched:
                if homes < self.homes and self.complete(piles[column]):
                    piles[column] = piles[column][:-13]
                    homes += 1
                    self._flip(piles, down, column)
        return stock, tuple(down), tuple(piles), homes

    def _flip(self, piles: list[bytes], down: list[int], column: int) -> None:
        if column >= 0 and not piles[column] and down[column]:
            down[column] -= 1
            piles[column] = bytes((self.hidden[column][down[column]],))

    def key(self, state: State) -> Hashable:
        """Columns no deal reaches sorted (as :meth:`SpiderSearch.key`)."""
        stock, downs, ups, _ = state
        columns = list(zip(downs, ups, strict=True))
        if stock < len(columns):
            columns[stock:] = sorted(columns[stock:])
        return stock, tuple(columns)

    def won(self, state: State) -> bool:
        """Every suit complete: no stock, no face-down card, every column whole suits."""
        stock, downs, ups, _ = state
        if stock or any(downs):
            return False
        return all(
            len(p) % 13 == 0
            and all(self.complete(p[: len(p) - 13 * i]) for i in range(len(p) // 13))
            for p in ups
        )

    def value(self, state: State) -> float:
        """The progress score (lower is better; module docstring)."""
        stock, downs, ups, _ = state
        total = _DOWN * sum(downs) + _STOCK * stock
        for down, pile in zip(downs, ups, strict=True):
            if not pile:
                total -= _EMPTY
                continue
            known = self._values.get(pile)
            if known is None:
                known = self._values[pile] = _pile_value(pile)
            total += known[0] + (_COVER * known[1] if down else 0.0)
        return total

    # -- the search ---------------------------------------------------------------------------

    def find(self, nodes: int, seconds: float) -> list[Step] | None:
        """A winning line of steps from the root within ``nodes`` positions and ``seconds``
        CPU seconds, or ``None``: a beam over the phases between two deals. From each position
        of a level (first the root), a best-first search of its phase (:meth:`_phase`); the
        positions just after a deal reached by all of them are pooled (one per key) and the
        best ``beam`` form the next level; in the last phase the search looks for the win. A
        pass that found nothing is repeated twice as wide and deep, until a pass cut nothing
        short (the pruned space holds no win) or the budget is spent."""
        self._budget = nodes
        self._deadline = time.process_time() + seconds
        beam, limit = _BEAM, _PHASE_NODES
        try:
            while True:
                self._cut = False
                line = self._beam_pass(beam, limit)
                if line is not None:
                    return line
                if not self._cut:
                    return None
                beam, limit = 2 * beam, 2 * limit
        except _OutOfBudget:
            return None

    def _beam_pass(self, beam: int, limit: int) -> list[Step] | None:
        level: list[tuple[State, object]] = [(self.root, None)]
        while level:
            pool: dict[Hashable, tuple[float, State, object]] = {}
            for state, line in level:
                won = self._phase(state, line, limit, pool)
                if won is not None:
                    return _unlink(won)
            ranked = sorted(pool.values(), key=lambda item: item[0])
            if len(ranked) > beam:
                self._cut = True
            level = [(state, line) for _, state, line in ranked[:beam]]
        return None

    def _phase(
        self,
        root: State,
        line: object,
        limit: int,
        pool: dict[Hashable, tuple[float, State, object]],
    ) -> object:
        """Best first on :meth:`value` from ``root`` without dealing, ``limit`` positions at
        most: the line to a win if one is met; each position that can deal adds the position
        after the deal to ``pool`` (by key, the best line kept)."""
        count = itertools.count()
        seen = {self.key(root)}
        heap: list[tuple[float, int, State, object]] = [(0.0, 0, root, line)]
        explored = 0
        while heap:
            if explored >= limit:
                self._cut = True
                return None
            _, _, state, path = heapq.heappop(heap)
            explored += 1
            if self.won(state):
                return path
            self.nodes += 1
            if self.nodes >= self._budget or (
                self.nodes % 512 == 0 and time.process_time() > self._deadline
            ):
                raise _OutOfBudget
            for step in self.steps(state):
                child = self.play(state, step)
                if step == _DEAL:
                    key = self.key(child)
                    value = self.value(child)
                    if key not in pool or pool[key][0] > value:
                        pool[key] = (value, child, (step, path))
                    continue
                key = self.key(child)
                if key not in seen:
                    seen.add(key)
                    heapq.heappush(heap, (self.value(child), next(count), child, (step, path)))
        return None

    def to_moves(self, steps: Sequence[Step]) -> list[Move]:
        """The game's moves for compact ``steps`` from the root (replayed on positions, so a
        suit goes to the first empty foundation as the rules say)."""
        game, position = self.game, self.position
        moves: list[Move] = []
        for s, t, c in steps:
            if s < 0:
                move = Move.deal(0)
            elif t < 0:
                home = next(f for f in game.foundations if not position[f])
                move = Move.transfer(game.tableau[s], home, c)
            else:
                move = Move.transfer(game.tableau[s], game.tableau[t], c)
            moves.append(move)
            position = game.play(position, move)
        return moves


def _pile_value(pile: bytes) -> tuple[float, int]:
    """A non-empty column's share of the progress score, and its number of same-suit runs."""
    value, runs = _BREAK, 1
    for lower, upper in itertools.pairwise(pile):
        if upper != lower - 1:
            runs += 1
            value += _OFF_SUIT if (upper & 15) == (lower & 15) - 1 else _BREAK
    return value, runs


def _unlink(line: object) -> list[Step]:
    steps: list[Step] = []
    while line is not None:
        step: Step
        step, line = line  # type: ignore[misc]
        steps.append(step)
    return steps[::-1]
