"""Spiderette's compact engine: the solver's exact search space, and a heuristic win finder.

Both work on a compact state: the stock count, the number of face-down cards left in each
column (the face-down cards themselves never change order, so the count says which they are),
the face-up cards of each column as the bytes of small integers (``suit * 16 + rank``, bottom
first; bytes keep their hash, so the columns a move leaves alone are not hashed again), and the
number of suits on the foundations. Play and move generation work on these tuples directly.

* :class:`Space` (:meth:`Spiderette.search_space`) is the solver's exhaustive search space: every
  legal move (:meth:`Search.all_moves`), so the solver's "dead" stays a proof.
* :meth:`Search.find` (:meth:`Spiderette.find_win`) looks for wins only. The solver replays every
  line it returns with the rules and checks that it wins, so nothing here can make a verdict
  wrong, which lets it prune moves that are rarely useful (:meth:`Search.moves`): a same-suit
  run moves whole, never split, except into an empty column while the stock still has to be
  dealt (the deal needs every column filled); a run lying on a card one rank higher is not
  moved onto another such card unless it joins its own suit; a column with no face-down card is
  not moved whole into an empty column; with the stock empty, only the first empty column is
  tried. Macro moves make up for part of that and save depth (:meth:`Search._macros`): a
  descending sequence of several same-suit runs (any suits) moves whole onto a card one rank
  higher or into an empty column when the empty columns allow (2 ** e runs with e to spare),
  and a column's whole face-up sequence is dug off in pieces (each onto a card one rank higher,
  lateral moves allowed, or into an empty column) to turn the card below or empty the column.
  A step of several pieces is a flat tuple of (source, target, count) triples;
  :meth:`Search.to_moves` expands every multi-run move into single-run moves of the game.

The win finder (figures in ``docs/games/spiderette.md``, "Solver"): the game splits into phases
at the deals (stock 24, 17, 10, 3, 0). From a position, a best-first search on a progress score
(face-down cards weigh most, then the same-suit runs that cover them, then cards not on their
same-suit successor; empty columns count in favour) explores a bounded number of positions of
its phase, novel positions first (a best-first width search: a position is novel when its move
put a card on a card, or turned one over, as no earlier position of that search with as many
face-down cards did); every position that can deal gives a candidate, the position after the
deal. Two stages share the time:

1. Two fifths of it (of the CPU seconds or of the nodes, whichever ends first) go depth first
   over the phases: the best few candidates of each phase
   are followed in turn, each searched the same way in its own phase, down to the last phase,
   where the best-first search looks for the win; the pass is repeated in a second order of the
   candidates (the best one of each set of face-down counts first: different cards turned up are
   different plans), then with twice the candidates and positions per phase. Candidates whose
   whole pruned future was searched without a win are skipped. Quick on most deals.
2. The rest goes to a beam over the phases: from every position of a level (first the root),
   search its phase; pool the deal candidates of the whole level (one per key, so candidates of
   different parents are compared with each other) and keep the best few (at most two per set
   of face-down counts first) as the next level; in the last phase, look for the win. Failing
   that, the pass is repeated with a beam twice as wide (or, when the beam left no candidate
   out, with twice the positions per phase search). Phase searches are kept across passes
   (up to ``_KEPT_CANDIDATES`` candidates), so a wider pass searches only what is new to it.

Either stage ends the search when a pass cuts nothing short: the pruned space holds no win.
"""

from __future__ import annotations

import heapq
import itertools
import operator
import time
from collections.abc import Callable, Hashable, Iterator, Sequence
from typing import NamedTuple

from patience_core.api import Card, GameSearch, Move, MoveKind, Position, time_is_up

#: Pile indices (the game's Aisleriot slots).
STOCK = 0
FOUNDATIONS = (1, 2, 3, 4)
COLUMNS = (5, 6, 7, 8, 9, 10, 11)
_NC = len(COLUMNS)
_LAST_DEAL = 3

#: A move of the compact engine: (source column, target column, count); target -1 is a
#: foundation (count 13); source -1 is the deal. The count may span several same-suit runs
#: (a descending sequence moved through empty columns, :func:`_sequence_steps`), and a step
#: of the win finder may chain several such triples from one column (a dig: 6, 9, ... ints).
Step = tuple[int, ...]
#: (stock left, face-down count per column, face-up cards per column as bytes, suits on the
#: foundations).
State = tuple[int, tuple[int, ...], tuple[bytes, ...], int]
#: A deal candidate: (its score, its key, the state just after the deal, the line to it).
_Candidate = tuple[float, tuple[object, ...], State, object]

_DEAL: Step = (-1, -1, 0)
#: Each card code as a pile of one card.
_ONE_CARD = tuple(bytes((code,)) for code in range(64))


class Weights(NamedTuple):
    """The progress score's weights (:meth:`Search.score`, lower is better)."""

    #: Each face-down card.
    down: float = 5.0
    #: Each face-up card not on a card one rank higher.
    brk: float = 1.0
    #: Each face-up card on a card one rank higher of another suit.
    off_suit: float = 0.5
    #: Each empty column (a bonus: subtracted).
    empty: float = 2.0
    #: Each same-suit run of face-up cards that covers face-down cards (the moves needed to
    #: reach them).
    cover: float = 2.0


#: The weights the win finder scores with.
_WEIGHTS = Weights()

#: The beam's first width (deal candidates kept per level), and positions explored per phase
#: search (before the last deal, and in the last phase). A pass that left candidates out of the
#: beam doubles the width; a pass that did not (but cut a phase search short) doubles the
#: phase limits.
_BEAM = 8
_PHASE_NODES = 2000
_LAST_NODES = 5000
#: Candidates kept first per set of face-down counts (different cards turned up are different
#: plans, while near-equal scores often differ by little); the rest of the beam is filled in
#: score order.
_PER_PLAN = 2

#: The win finder's first stage (a share of its time): depth first over the phases, with the
#: best ``_WIDTH`` deal candidates followed from each phase (times the phase's factor: early
#: choices are followed more widely than the last deal's, whose futures are small); each pass
#: that cut something short doubles the width and the phase limits.
_DEPTH_FIRST_SHARE = 0.4
_WIDTH = 4
_WIDTH_FACTOR = {24: 2.0, 17: 2.0, 10: 1.0, 3: 0.5}
#: Deal candidates kept by the beam's phase searches at most (their states and lines); the
#: kept searches are forgotten when they hold more (a speed-up only).
_KEPT_CANDIDATES = 1_000_000
#: CPU seconds it takes to free one kept candidate (measured: about 0.55 microseconds): the
#: finder stops that much earlier, so that freeing its tables fits in its budget too.
_FREE_SECONDS = 7e-7
#: Candidates pooled by the beam between two readings of the clock.
_POOL_CHECK = 4096


#: What the win finder knows of a non-empty column's face-up cards (:func:`_facts`): its top
#: same-suit run's length and bottom card, whether that card lies on a card one rank higher
#: (:func:`_top_run`), its top descending sequence (:func:`_sequence`), its share of
#: :meth:`Search.score` and its number of same-suit runs (:func:`_pile_score`).
_Facts = tuple[int, int, bool, tuple[tuple[int, int], ...], float, int]

#: Piles whose facts are kept at most (a few hundred bytes each); the table is emptied then.
_PILE_TABLE = 500_000


def _pile_score(pile: bytes) -> tuple[float, int]:
    """A non-empty column's share of :meth:`Search.score`, and its number of same-suit runs."""
    value = _WEIGHTS.brk
    runs = 1
    for upper, lower in itertools.pairwise(pile):
        if upper != lower + 1:
            runs += 1
            value += _WEIGHTS.off_suit if (upper & 15) == (lower & 15) + 1 else _WEIGHTS.brk
    return value, runs


def _facts(pile: bytes) -> _Facts:
    """The facts (:data:`_Facts`) of a non-empty column's face-up cards."""
    k, base, lateral = _top_run(pile)
    value, runs = _pile_score(pile)
    return k, base, lateral, _sequence(pile), value, runs


def _top_run(pile: bytes) -> tuple[int, int, bool]:
    """A non-empty column's top same-suit run: (its length, its bottom card, whether that card
    lies on a card one rank higher)."""
    card = pile[-1]
    n = len(pile)
    k = 1
    while k < n and pile[-k - 1] == card + 1:
        card += 1
        k += 1
    lateral = k < n and (pile[-k - 1] & 15) == (card & 15) + 1
    return k, card, lateral


def _sequence(pile: bytes) -> tuple[tuple[int, int], ...]:
    """A non-empty column's top descending sequence (any suit, each card one rank below the
    one it lies on), as its same-suit runs, top first: for each r, (the number of cards in
    the top r runs, the bottom card of run r)."""
    out: list[tuple[int, int]] = []
    n = len(pile)
    k = 1
    while True:
        card = pile[-k]
        if k == n or (pile[-k - 1] & 15) != (card & 15) + 1:
            out.append((k, card))
            return tuple(out)
        if pile[-k - 1] != card + 1:
            out.append((k, card))
        k += 1


#: Picks some piles of a state's face-up piles, as a tuple (:func:`_picker`).
_Pick = Callable[[tuple[bytes, ...]], tuple[bytes, ...]]


def _picker(columns: Sequence[int]) -> _Pick:
    """A function that returns the piles of ``columns`` (in that order) as a tuple."""
    if len(columns) >= 2:
        return operator.itemgetter(*columns)
    if columns:
        column = columns[0]
        return lambda ups: (ups[column],)
    return lambda ups: ()


def _capacity(empties: int) -> int:
    """Same-suit runs a descending sequence can hold to move onto a card with ``empties``
    empty columns to spare (Spider's classic result: 2 to the power of the empty columns)."""
    return 1 << empties


def _sequence_steps(
    lengths: Sequence[int], source: int, target: int, free: Sequence[int]
) -> list[tuple[int, int, int]]:
    """Single-run moves that carry a descending sequence from ``source`` to ``target`` through
    the empty columns ``free``: its top half to ``free[0]`` (through the others), its bottom
    half to ``target``, the top half after it.

    :param lengths: the sequence's same-suit runs' lengths, top first (at most
        ``2 ** len(free)`` of them).
    :raises ValueError: when there are too few empty columns.
    """
    if len(lengths) == 1:
        return [(source, target, lengths[0])]
    if not free:
        raise ValueError("too few empty columns for the sequence")
    park, rest = free[0], free[1:]
    half = len(lengths) // 2
    return [
        *_sequence_steps(lengths[:half], source, park, rest),
        *_sequence_steps(lengths[half:], source, target, rest),
        *_sequence_steps(lengths[:half], park, target, rest),
    ]


def _run_lengths(cards: bytes) -> list[int]:
    """The lengths of the same-suit runs of ``cards`` (bottom first), top run first."""
    lengths = [1]
    for above, below in itertools.pairwise(reversed(cards)):
        if below == above + 1:
            lengths[-1] += 1
        else:
            lengths.append(1)
    return lengths


def complete_suit(pile: Sequence[Card]) -> bool:
    """Whether ``pile`` (bottom first) is one suit's 13 cards, King at the bottom, Ace on top:
    the only thing a Spiderette foundation can hold (RULES.md Part B §5)."""
    codes = [_code(card) for card in pile]
    return (
        len(codes) == 13
        and codes[0] & 15 == 13
        and all(upper == lower + 1 for upper, lower in itertools.pairwise(codes))
    )


def _code(card: Card) -> int:
    return int(card.suit) * 16 + int(card.rank)


def _atom(level: int, below: int, card: int) -> int:
    """One fact of a position for the novelty test of :meth:`Search._phase`, as an int: card
    code ``card`` lies on ``below`` (a card code, or 64 plus the face-down cards under it when
    it is the column's lowest face-up card), in a position with ``level`` face-down cards in
    all."""
    return (level << 13) | (below << 6) | card


def _new_atoms(atoms: set[int], parent: State, child: State, step: Step) -> None:
    """Add to ``atoms`` the facts (:func:`_atom`) that ``step`` made in ``child``: where a run
    landed and the card it turned over (for a step of several moves, every card of the
    columns it changed)."""
    level = sum(child[1])
    downs, piles = child[1], child[2]
    if len(step) == 3:
        source, target, count = step
        if target >= 0:
            pile = piles[target]
            below = len(pile) - count - 1
            atoms.add(_atom(level, pile[below] if below >= 0 else 64, pile[below + 1]))
        if downs[source] != parent[1][source]:
            atoms.add(_atom(level, 64 + downs[source], piles[source][0]))
        return
    before = parent[2]
    for column, pile in enumerate(piles):
        if pile and pile is not before[column]:
            atoms.add(_atom(level, 64 + downs[column], pile[0]))
            atoms.update(_atom(level, lower, upper) for lower, upper in itertools.pairwise(pile))


class _Found(Exception):
    """A winning line was found (its linked list of steps is the argument)."""


class _OutOfBudget(Exception):
    """The node or time budget ran out."""


class Search:
    """The compact engine of one Spiderette position and the win-finding search.

    :param position: a Spiderette position whose columns hold face-down cards only below their
        face-up cards (every position of a game does).
    :raises ValueError: for any other position (the caller then skips this search).
    """

    def __init__(self, position: Position) -> None:
        hidden: list[tuple[int, ...]] = []
        downs: list[int] = []
        ups: list[bytes] = []
        for column in COLUMNS:
            pile = position[column]
            down = 0
            while down < len(pile) and not pile[down].face_up:
                down += 1
            if any(not card.face_up for card in pile[down:]):
                raise ValueError("a face-down card above a face-up one")
            if down and down == len(pile):
                raise ValueError("a column with no face-up card")
            hidden.append(tuple(_code(card) for card in pile[:down]))
            downs.append(down)
            ups.append(bytes(_code(card) for card in pile[down:]))
        self.hidden = tuple(hidden)
        #: The stock in deal order (the top card first).
        self.stock = tuple(_code(card) for card in reversed(position[STOCK]))
        self.homes = [f for f in FOUNDATIONS if not position[f]]
        if not all(complete_suit(position[home]) for home in FOUNDATIONS if position[home]):
            raise ValueError("a foundation that is not one complete suit")
        filled = len(FOUNDATIONS) - len(self.homes)
        self.root: State = (len(self.stock), tuple(downs), tuple(ups), filled)
        self.nodes = 0
        #: :meth:`_split` per (stock left, face-down counts).
        self._splits: dict[tuple[bool, tuple[int, ...]], tuple[_Pick, _Pick]] = {}
        #: Facts of the piles seen (:func:`_facts`).
        self._pile_facts: dict[bytes, _Facts] = {}
        # The win finder's budget and memory (set by find).
        self._deadline = 0.0
        self._max_nodes = 0
        self._next_check = 0
        self._calls = 0
        self._diverse = False
        #: Deal candidates whose whole pruned future the depth-first stage searched in vain.
        self._failed: set[tuple[object, ...]] = set()
        #: Deal candidates searched in the current depth-first pass.
        self._tried: set[tuple[object, ...]] = set()
        #: Candidates held in ``_searched``.
        self._kept = 0
        #: Phase searches done: key -> (limit, deal candidates, whether cut short).
        self._searched: dict[tuple[object, ...], tuple[int, list[_Candidate], bool]] = {}

    # -- the rules on compact states ------------------------------------------------------------

    def _learn(self, pile: bytes) -> _Facts:
        """:func:`_facts` of ``pile`` (non-empty), kept in the table (emptied when it holds
        ``_PILE_TABLE`` piles)."""
        table = self._pile_facts
        if len(table) >= _PILE_TABLE:
            table.clear()
        fact = table[pile] = _facts(pile)
        return fact

    def moves(self, state: State) -> list[Step]:
        """The pruned moves of ``state`` (see the module docstring); every one is legal."""
        stock, downs, ups, _ = state
        out: list[Step] = []
        tops: dict[int, list[int]] = {}
        empties: list[int] = []
        table = self._pile_facts
        facts: list[_Facts | None] = []
        for j, pile in enumerate(ups):
            if pile:
                tops.setdefault(pile[-1] & 15, []).append(j)
                fact = table.get(pile)
                facts.append(self._learn(pile) if fact is None else fact)
            else:
                empties.append(j)
                facts.append(None)
        for i, fact in enumerate(facts):
            if fact is None:
                continue
            k, base, lateral = fact[0], fact[1], fact[2]
            if k == 13:
                out.append((i, -1, 13))
                continue
            if stock and empties:
                out.extend((i, empties[0], part) for part in range(1, k))
            for j in tops.get((base & 15) + 1, ()):
                if not lateral or ups[j][-1] == base + 1:
                    out.append((i, j, k))
            if empties and (k < len(ups[i]) or downs[i]):
                if stock:
                    out.extend((i, j, k) for j in empties)
                else:
                    out.append((i, empties[0], k))
        self._macros(out, stock, downs, ups, facts, tops, empties)
        if stock and not empties:
            out.append(_DEAL)
        return out

    def _macros(
        self,
        out: list[Step],
        stock: int,
        downs: tuple[int, ...],
        ups: tuple[bytes, ...],
        facts: list[_Facts | None],
        tops: dict[int, list[int]],
        empties: list[int],
    ) -> None:
        """Add the win finder's macro moves to ``out``: a column's top descending sequence of
        several same-suit runs moved whole onto a card one rank higher or into an empty column,
        through the other empty columns (:func:`_capacity`); and a dig, the sequence moved off
        in pieces (each onto a card one rank higher, through the empty columns, or alone into
        one) so as to uncover the card below it or empty the column."""
        e = len(empties)
        cap = _capacity(e)
        into_cap = _capacity(e - 1) if e else 0
        for i, fact in enumerate(facts):
            if fact is None:
                continue
            seq = fact[3]
            r = len(seq)
            if r < 2 or fact[0] == 13:
                continue
            pile = ups[i]
            whole = seq[-1][0] == len(pile)
            for j in range(2, min(r, cap) + 1):
                count, bottom = seq[j - 1]
                for t in tops.get((bottom & 15) + 1, ()):
                    if j == r or ups[t][-1] == bottom + 1:
                        out.append((i, t, count))
            if e and r <= into_cap and (not whole or downs[i]):
                count = seq[-1][0]
                if stock:
                    out.extend((i, t, count) for t in empties)
                else:
                    out.append((i, empties[0], count))
            if whole:
                dig = self._dig(i, seq, ups, tops, empties)
                if dig is not None:
                    out.append(dig)

    @staticmethod
    def _dig(
        source: int,
        seq: tuple[tuple[int, int], ...],
        ups: tuple[bytes, ...],
        tops: dict[int, list[int]],
        empties: list[int],
    ) -> Step | None:
        """Column ``source``'s top sequence ``seq`` (:func:`_sequence`) moved off in two or
        more pieces, top first: each piece the fewest runs that fit onto a card one rank higher
        (own suit first) through the empty columns left, else one run into an empty column.
        ``None`` when it does not all fit or one piece would do."""
        free = list(empties)
        pieces: list[int] = []
        done = 0  # runs moved
        moved = 0  # cards moved
        r = len(seq)
        while done < r:
            cap = _capacity(len(free))
            for j in range(done + 1, min(r, done + cap) + 1):
                count, bottom = seq[j - 1]
                targets = tops.get((bottom & 15) + 1)
                if targets:
                    target = targets[0]
                    for t in targets:
                        if ups[t][-1] == bottom + 1:
                            target = t
                            break
                    pieces += (source, target, count - moved)
                    done, moved = j, count
                    break
            else:
                if not free:
                    return None
                count = seq[done][0]
                pieces += (source, free.pop(0), count - moved)
                done, moved = done + 1, count
        if len(pieces) == 3:
            return None
        return tuple(pieces)

    def all_moves(self, state: State) -> list[Step]:
        """Every legal move of ``state`` (sound: for the exhaustive search), best first.

        Left out are only moves whose result has the same :meth:`key` as the result of a move
        kept: with the stock empty, moves into the second and later empty columns, and a whole
        column (no face-down card) moved into an empty one; with only the last deal left, the
        same for the columns t4..t7 it does not reach. Order: a complete suit to a foundation,
        runs joining their own suit, runs onto other cards, runs into an empty column, the deal,
        last the moves that split a same-suit run (as :meth:`Spiderette.order_moves` does).
        """
        stock, downs, ups, _ = state
        home: list[Step] = []
        join: list[Step] = []
        whole_onto: list[Step] = []
        whole_into: list[Step] = []
        split_onto: list[Step] = []
        split_into: list[Step] = []
        tops: dict[int, list[int]] = {}
        empties: list[int] = []
        for j in range(_NC):
            pile = ups[j]
            if pile:
                tops.setdefault(pile[-1] & 15, []).append(j)
            else:
                empties.append(j)
        for i in range(_NC):
            pile = ups[i]
            if not pile:
                continue
            n = len(pile)
            card = pile[-1]
            fact = self._pile_facts.get(pile)
            run = (self._learn(pile) if fact is None else fact)[0]
            k = 1
            while True:
                # The top k cards form a same-suit run whose bottom card is ``card``.
                onto, into = (whole_onto, whole_into) if k == run else (split_onto, split_into)
                if k == 13:
                    home.append((i, -1, 13))
                for j in tops.get((card & 15) + 1, ()):
                    (join if ups[j][-1] == card + 1 else onto).append((i, j, k))
                if empties:
                    whole = k == n and not downs[i]
                    if stock > _LAST_DEAL:
                        into.extend((i, j, k) for j in empties)
                    elif stock:
                        # t1..t3 still get a card; t4..t7 are interchangeable.
                        first_free = True
                        for j in empties:
                            if j < _LAST_DEAL:
                                into.append((i, j, k))
                            elif first_free and not (whole and i >= _LAST_DEAL):
                                first_free = False
                                into.append((i, j, k))
                    elif not whole:
                        into.append((i, empties[0], k))
                if k < n and pile[-k - 1] == card + 1:
                    card += 1
                    k += 1
                else:
                    break
        home += join
        home += whole_onto
        home += whole_into
        if stock and not empties:
            home.append(_DEAL)
        home += split_onto
        home += split_into
        return home

    def play(self, state: State, step: Step) -> State:
        """The state after ``step`` (a deal, or a run moved with the uncovered card turned)."""
        if len(step) > 3:
            for at in range(0, len(step), 3):
                state = self.play(state, step[at : at + 3])
            return state
        stock, downs, ups, filled = state
        source, target, count = step
        piles = list(ups)
        if source < 0:
            start = len(self.stock) - stock
            dealt = min(_NC, stock)
            for t in range(dealt):
                piles[t] = piles[t] + _ONE_CARD[self.stock[start + t]]
            return (stock - dealt, downs, tuple(piles), filled)
        pile = piles[source]
        run = pile[-count:]
        rest = pile[:-count]
        if not rest and downs[source]:
            down = downs[source] - 1
            rest = _ONE_CARD[self.hidden[source][down]]
            downs = (*downs[:source], down, *downs[source + 1 :])
        piles[source] = rest
        if target < 0:
            filled += 1
        else:
            piles[target] = piles[target] + run
        return (stock, downs, tuple(piles), filled)

    def key(self, state: State) -> tuple[object, ...]:
        """Equal keys: the same future. Columns no deal reaches and that hold no face-down card
        are interchangeable (their index says nothing more), so their piles are sorted: the
        key is then the stock, the face-down counts, the other columns' piles in order and the
        sorted piles. (The face-down counts say which columns are which.)"""
        stock, downs, ups, _ = state
        if stock > _LAST_DEAL:
            return (stock, downs, ups)
        split = self._splits.get((stock > 0, downs))
        if split is None:
            split = self._split(stock > 0, downs)
        return (stock, downs, split[0](ups), tuple(sorted(split[1](ups))))

    def _split(self, dealt: bool, downs: tuple[int, ...]) -> tuple[_Pick, _Pick]:
        """Functions that pick, from the face-up piles, those of the columns a deal still
        reaches (t1..t3 while ``dealt``) or that hold face-down cards, and the others; kept
        per (``dealt``, ``downs``)."""
        fixed: list[int] = []
        free: list[int] = []
        for column, down in enumerate(downs):
            (fixed if down or (dealt and column < _LAST_DEAL) else free).append(column)
        split = self._splits[dealt, downs] = (_picker(fixed), _picker(free))
        return split

    @staticmethod
    def won(state: State) -> bool:
        """Every suit complete: on the foundations or as K..A runs alone in their columns."""
        stock, downs, ups, filled = state
        if filled == 4:
            return True
        if stock or any(downs):
            return False
        for pile in ups:
            if pile and (len(pile) != 13 or any(pile[t] != pile[t + 1] + 1 for t in range(12))):
                return False
        return True

    def score(self, state: State) -> float:
        """Progress score, lower is better (:class:`Weights`); piles' shares are kept in a
        table (bounded: emptied at ``_PILE_TABLE`` entries)."""
        _, downs, ups, _ = state
        table = self._pile_facts
        weights = _WEIGHTS
        value = weights.down * sum(downs)
        for down, pile in zip(downs, ups, strict=True):
            if not pile:
                value -= weights.empty
                continue
            fact = table.get(pile)
            if fact is None:
                fact = self._learn(pile)
            value += fact[4]
            if down:
                value += weights.cover * fact[5]
        return value

    # -- the search -----------------------------------------------------------------------------

    def find(self, nodes: int, seconds: float) -> list[Step] | None:
        """A winning line from the root (compact steps), or ``None`` when the budget ran out or
        the pruned space holds no win.

        :param nodes: positions generated at most (``self.nodes`` counts them).
        :param seconds: CPU seconds (:func:`time.process_time`) at most; the search also stops
            when the solver's own limits pass (:func:`patience_core.api.time_is_up`).
        """
        if self.won(self.root):
            return []
        started = time.process_time()
        # The first stage ends at its share of the seconds or of the nodes, whichever comes
        # first: under a node budget that binds, the hand-over (and so the whole search) is
        # the same on every run and machine.
        first_nodes = self.nodes + int(_DEPTH_FIRST_SHARE * nodes)
        last_nodes = self.nodes + nodes
        try:
            self._max_nodes = first_nodes
            self._deadline = started + _DEPTH_FIRST_SHARE * seconds
            self._next_check = self.nodes
            try:
                self._depth_first_passes()
                return None  # the pruned space holds no win
            except _OutOfBudget:
                pass
            self._max_nodes = last_nodes
            self._deadline = started + seconds
            self._next_check = self.nodes
            self._beam_passes()
            return None
        except _Found as found:
            steps: list[Step] = []
            link = found.args[0]
            while link is not None:
                steps.append(link[0])
                link = link[1]
            return steps[::-1]
        except _OutOfBudget:
            return None
        finally:
            # Freed here, within the budget (:meth:`_time_up` leaves time for it).
            self._searched = {}
            self._kept = 0

    def _check_budget(self) -> None:
        """:raises _OutOfBudget: when the nodes, the CPU seconds or the solver's time are spent
        (the clocks are read every 1024 positions)."""
        if self.nodes >= self._max_nodes:
            raise _OutOfBudget
        if self.nodes >= self._next_check:
            self._next_check = self.nodes + 1024
            if self._time_up():
                raise _OutOfBudget

    def _time_up(self) -> bool:
        """Whether the stage's CPU seconds, less the time freeing the kept phase searches will
        take (``_FREE_SECONDS`` each), or the solver's own time are spent."""
        return time.process_time() + self._kept * _FREE_SECONDS >= self._deadline or time_is_up()

    # -- the first stage: depth first over the phases --------------------------------------------

    def _depth_first_passes(self) -> None:
        """Depth-first passes, each in two orders of the candidates, widths and phase limits
        doubling, until a pass cuts nothing short (then it returns: no win in the pruned
        space). :raises _Found: :raises _OutOfBudget:"""
        self._failed = set()
        width, phase_nodes, last_nodes = _WIDTH, _PHASE_NODES, _LAST_NODES
        while True:
            cut = False
            for diverse in (False, True):
                self._diverse = diverse
                self._tried = set()
                cut |= self._depth_first(self.root, None, width, phase_nodes, last_nodes)
            if not cut:
                return
            width, phase_nodes, last_nodes = 2 * width, 2 * phase_nodes, 2 * last_nodes

    def _depth_first(
        self, state: State, line: object, width: int, phase_nodes: int, last_nodes: int
    ) -> bool:
        """Search ``state``'s phase, then, depth first, its best deal candidates (``width``
        times the phase's ``_WIDTH_FACTOR``).

        :returns: whether anything was cut short (a phase limit, or candidates beyond
            ``width``); ``False`` means this future holds no win in the pruned space.
        :raises _Found: with the winning line. :raises _OutOfBudget: when the budget ran out.
        """
        self._check_budget()
        left = self._max_nodes - self.nodes
        candidates: list[tuple[float, int, State, object]] = []
        limit = min(phase_nodes if state[0] else last_nodes, left)
        cut = self._phase(state, line, limit, candidates)
        if not state[0]:
            return cut
        here = max(1, int(width * _WIDTH_FACTOR.get(state[0], 1.0)))
        candidates.sort(key=lambda c: c[:2])
        if self._diverse:
            # The best candidate of each set of face-down counts first: different cards
            # turned up are different plans, while near-equal scores often differ by little.
            firsts: list[tuple[float, int, State, object]] = []
            others: list[tuple[float, int, State, object]] = []
            plans: set[tuple[int, ...]] = set()
            for candidate in candidates:
                downs = candidate[2][1]
                (others if downs in plans else firsts).append(candidate)
                plans.add(downs)
            candidates = firsts + others
        tried = 0
        for _, _, child, child_line in candidates:
            if tried == here:
                return True
            child_key = self.key(child)
            if child_key in self._failed:
                continue
            if child_key in self._tried:
                cut = True  # searched from another line of this pass, and cut short there
                continue
            self._tried.add(child_key)
            tried += 1
            if self._depth_first(child, child_line, width, phase_nodes, last_nodes):
                cut = True
            else:
                self._failed.add(child_key)
        return cut

    # -- the second stage: a beam over the phases -----------------------------------------------

    def _beam_passes(self) -> None:
        """Beam passes, the beam doubling while it leaves candidates out (else the phase
        limits double), until a pass cuts nothing short (then it returns: no win in the
        pruned space). :raises _Found: :raises _OutOfBudget:"""
        self._searched = {}
        self._kept = 0
        beam, phase_nodes, last_nodes = _BEAM, _PHASE_NODES, _LAST_NODES
        while True:
            beam_cut, phase_cut = self._beam_pass(beam, phase_nodes, last_nodes)
            if not (beam_cut or phase_cut):
                return
            if beam_cut:
                beam *= 2
            else:
                phase_nodes, last_nodes = 2 * phase_nodes, 2 * last_nodes

    def _phase_of(self, state: State, line: object, limit: int) -> tuple[list[_Candidate], bool]:
        """The deal candidates of ``state``'s phase searched for ``limit`` positions, and
        whether the search was cut short; kept across passes (searched again only with a
        larger limit). :raises _Found: :raises _OutOfBudget:"""
        self._calls += 1
        if self._calls >= 256:
            # Kept searches answer without new positions: read the clocks now and then too.
            self._calls = 0
            self._next_check = self.nodes
        self._check_budget()
        state_key = self.key(state)
        known = self._searched.get(state_key)
        if known is not None and (known[0] >= limit or not known[2]):
            return known[1], known[2]
        left = self._max_nodes - self.nodes
        found: list[tuple[float, int, State, object]] = []
        cut = self._phase(state, line, min(limit, left), found)
        key = self.key
        candidates = [(score, key(child), child, link) for score, _, child, link in found]
        if self._kept + len(candidates) > _KEPT_CANDIDATES:
            self._searched.clear()
            self._kept = 0
        previous = self._searched.get(state_key)
        self._kept += len(candidates) - (len(previous[1]) if previous else 0)
        self._searched[state_key] = (limit, candidates, cut)
        return candidates, cut

    def _beam_pass(self, beam: int, phase_nodes: int, last_nodes: int) -> tuple[bool, bool]:
        """One pass of the beam: from each position of a level (the root, then positions just
        after a deal), search its phase; pool the level's deal candidates and keep the
        ``beam`` best (at most ``_PER_PLAN`` per set of face-down counts first); in the last
        phase, look for the win.

        :returns: whether the beam left candidates out, and whether a phase search was cut
            short.
        """
        level: list[tuple[State, object]] = [(self.root, None)]
        cut = beam_cut = False
        while level:
            stock = level[0][0][0]
            pool: dict[tuple[object, ...], tuple[float, int, State, object]] = {}
            order = 0
            pooled = 0
            for state, line in level:
                candidates, parent_cut = self._phase_of(
                    state, line, phase_nodes if stock else last_nodes
                )
                cut |= parent_cut
                for score, child_key, child, child_line in candidates:
                    known = pool.get(child_key)
                    if known is None or known[0] > score:
                        pool[child_key] = (score, order, child, child_line)
                        order += 1
                pooled += len(candidates)
                if pooled >= _POOL_CHECK:
                    # Kept searches answer without new positions: read the clock by the
                    # candidates pooled.
                    pooled = 0
                    self._next_check = self.nodes
                    self._check_budget()
            if not stock:
                return beam_cut, cut
            self._next_check = self.nodes
            self._check_budget()  # before sorting a large pool
            # (score, order) decide: the orders are distinct, so nothing further is compared.
            ranked = sorted(pool.values())
            chosen: list[tuple[State, object]] = []
            rest: list[tuple[State, object]] = []
            plans: dict[tuple[int, ...], int] = {}
            for _, _, child, child_line in ranked:
                if len(chosen) == beam:
                    break
                downs = child[1]
                seen_plan = plans.get(downs, 0)
                plans[downs] = seen_plan + 1
                if seen_plan < _PER_PLAN and len(chosen) < beam:
                    chosen.append((child, child_line))
                elif len(chosen) + len(rest) < beam:
                    rest.append((child, child_line))
            level = chosen + rest[: beam - len(chosen)]
            if len(level) < len(ranked):
                beam_cut = True
        return beam_cut, cut

    def _phase(
        self,
        start: State,
        line: object,
        limit: int,
        candidates: list[tuple[float, int, State, object]],
    ) -> bool:
        """Best-first within ``start``'s phase for ``limit`` positions or until the time is up
        (:meth:`_time_up`, asked every 1024 positions): deals go to ``candidates``; a win
        raises :class:`_Found`.

        Novel positions come first (a best-first width search): a position is novel when its
        move made a pair of cards (:func:`_atom`: a card on the card below it, on an empty
        column, or turned over on its face-down cards) that no position of this search with
        as many face-down cards showed before. The rest follow, each group by :meth:`score`.

        :returns: whether the limit or the clock cut the phase short (positions were left
            unexplored).
        """
        order = itertools.count()
        seen = {start[:3]}
        score, play, moves, won = self.score, self.play, self.moves, self.won
        push, pop = heapq.heappush, heapq.heappop
        # Entries: (0 if novel else 1, score, order, state, line, the step back to the
        # parent or None).
        heap: list[tuple[int, float, int, State, object, Step | None]] = [
            (0, 0.0, 0, start, line, None)
        ]
        atoms: set[int] = set()
        spent = 0
        check = 1024
        while heap and spent < limit:
            if spent >= check:
                check = spent + 1024
                if self._time_up():
                    break
            _, _, _, state, link, back = pop(heap)
            downs = state[1]
            for step in moves(state):
                if spent >= limit:
                    break
                spent += 1
                if step == back:
                    continue  # the parent, seen already: not played again
                child = play(state, step)
                # The state without the foundation count (which the columns imply) as its
                # key: no columns sorted, which costs more than the repeats it would catch.
                child_key = child[:3]
                size = len(seen)
                seen.add(child_key)
                if len(seen) == size:
                    continue
                child_line = (step, link)
                if won(child):
                    self.nodes += spent
                    raise _Found(child_line)
                if step[0] < 0:
                    candidates.append((score(child), next(order), child, child_line))
                    continue
                # Moving the same cards straight back gives the parent again, unless the move
                # turned a face-down card.
                undo = None
                if len(step) == 3 and step[1] >= 0 and child[1] is downs:
                    undo = (step[1], step[0], step[2])
                size = len(atoms)
                _new_atoms(atoms, state, child, step)
                stale = 0 if len(atoms) > size else 1
                push(heap, (stale, score(child), next(order), child, child_line, undo))
        self.nodes += spent
        return spent >= limit or bool(heap)

    def to_moves(self, steps: Sequence[Step]) -> list[Move]:
        """The game's moves for compact ``steps`` played from the root: a sequence of several
        same-suit runs goes through the empty columns (:func:`_sequence_steps`).

        :raises ValueError: for a sequence move with too few empty columns (a bug).
        """
        out: list[Move] = []
        homes = iter(self.homes)
        state = self.root
        for step in steps:
            for at in range(0, len(step), 3):
                source, target, count = part = step[at : at + 3]
                if source < 0:
                    out.append(Move.deal(STOCK))
                elif target < 0:
                    out.append(Move.transfer(COLUMNS[source], next(homes), count))
                else:
                    ups = state[2]
                    lengths = _run_lengths(ups[source][-count:])
                    free = [c for c in range(_NC) if not ups[c] and c not in (source, target)]
                    out.extend(
                        Move.transfer(COLUMNS[a], COLUMNS[b], n)
                        for a, b, n in _sequence_steps(lengths, source, target, free)
                    )
                state = self.play(state, part)
        return out


class Space:
    """The compact search space of one Spiderette position, for the solver's exhaustive
    depth-first search (:class:`patience_core.api.SearchSpace`): states and keys of
    :class:`Search`, every legal move (:meth:`Search.all_moves`), steps ``(source, target,
    count)`` of column numbers 0..6.

    :param position: as for :class:`Search`.
    :raises ValueError: as :class:`Search` does.
    """

    def __init__(self, position: Position) -> None:
        self.search = Search(position)

    def start(self) -> tuple[State, int]:
        """The position's state; nothing played before it."""
        return self.search.root, 0

    def children(self, state: State) -> Iterator[tuple[Step, State, int]]:
        """Every legal move's result, in :meth:`Search.all_moves` order."""
        play = self.search.play
        for step in self.search.all_moves(state):
            yield step, play(state, step), 1

    def key(self, state: State) -> Hashable:
        """:meth:`Search.key`."""
        return self.search.key(state)

    def is_won(self, state: State) -> bool:
        """:meth:`Search.won`."""
        return self.search.won(state)

    def is_dead(self, state: State) -> bool:
        """Never claimed (no cheap proof is known for Spiderette)."""
        return False

    def moves(self, steps: Sequence[Step]) -> list[Move]:
        """:meth:`Search.to_moves`."""
        return self.search.to_moves(steps)


def search_space(position: Position) -> Space | None:
    """The compact search space from ``position``, or ``None`` for a position no game reaches
    (a face-down card above a face-up one), which the solver then searches as positions."""
    try:
        return Space(position)
    except ValueError:
        return None


def find_win(position: Position, nodes: int, seconds: float) -> tuple[list[Move] | None, int]:
    """A winning line of Spiderette from ``position`` found by the heuristic search.

    :param nodes: positions generated at most.
    :param seconds: CPU seconds at most.
    :returns: (the moves, or ``None`` when none was found in the budget or the position is not
        one a game can reach; positions generated).
    """
    try:
        search = Search(position)
    except ValueError:
        return None, 0
    steps = search.find(nodes, seconds)
    return (None if steps is None else search.to_moves(steps)), search.nodes


#: One byte per card for the search key: 1..52 face up, 65..116 face down.
_KEY_CODE = {
    Card.of(rank, suit, up): rank * 4 + suit - 3 + (0 if up else 64)
    for rank in range(1, 14)
    for suit in range(4)
    for up in (True, False)
}


class SpideretteSearch(GameSearch):
    """Spiderette's search object (RULES.md Part A "Spiderette"): a compact key, a move order,
    the compact search space and the beam search of this module.

    :param game: a Spiderette game.
    """

    def key(self, position: Position) -> Hashable:
        """The stock count and every column's cards (face-down ones marked), as bytes.

        Within one deal that is the whole future: the stock's order is fixed, and the cards on
        the foundations are the complete suits missing from the rest (any empty foundation takes
        the next one, so which foundation holds which suit does not matter). Columns are
        interchangeable once no deal can reach them: all seven when the stock is empty, t4..t7
        when only the last 3-card deal (to t1..t3) is left; those are sorted.
        """
        stock = len(position[STOCK])
        columns = [bytes(_KEY_CODE[card] for card in position[c]) for c in COLUMNS]
        if stock == 0:
            columns.sort()
        elif stock <= _LAST_DEAL:
            columns[_LAST_DEAL:] = sorted(columns[_LAST_DEAL:])
        return bytes((stock,)) + b"\xff".join(columns)

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """Best first: a complete suit to a foundation; runs joining a card of their own suit;
        runs whose move turns a face-down card or empties a column; other moves onto cards;
        moves into an empty column; the deal; last, moves that split a same-suit run. Within a
        class, longer runs first. (Order only: every legal move is kept.)"""
        return sorted(moves, key=lambda move: self._move_class(position, move))

    def _move_class(self, position: Position, move: Move) -> tuple[int, int]:
        if move.kind is MoveKind.DEAL:
            return (7, 0)
        assert move.target is not None
        if move.target in FOUNDATIONS:
            return (0, 0)
        pile = position[move.source]
        bottom = pile[-move.count]
        below = pile[-move.count - 1] if len(pile) > move.count else None
        onto = position.top(move.target)
        if below is not None and below.face_up and below.rank == bottom.rank + 1:
            if below.suit == bottom.suit:
                return (8, -move.count)  # splits a same-suit run
            if onto is None or onto.suit != bottom.suit:
                return (6 if onto is None else 5, -move.count)  # same shape elsewhere
        if onto is not None and onto.suit == bottom.suit:
            return (1, -move.count)
        if below is None or not below.face_up:
            return (2 if onto is not None else 3, -move.count)
        return (4 if onto is not None else 6, -move.count)

    def search_space(self, position: Position) -> Space | None:
        """The compact search space of this module (every legal move, on small tuples: about
        twice as many positions per second as the generic search)."""
        return search_space(position)

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """A winning line found by the beam search of this module (which prunes moves unsafely,
        so it never proves anything lost; the solver replays its line)."""
        return find_win(position, nodes, seconds)
