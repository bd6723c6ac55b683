"""A heuristic search that finds winning lines of Spiderette quickly (thoughtful: all cards known).

Used through :meth:`Spiderette.find_win`; the solver replays every line it returns with the rules
and checks that it wins, so nothing here can make a verdict wrong: this search only ever says
"here is a win" or "none found" (never "dead"), which lets it prune moves that are rarely useful.

How it works (figures in ``docs/games/spiderette.md``, "Solver"):

* A compact state: the stock count, the number of face-down cards left in each column (the
  face-down cards themselves never change order, so the count says which they are), the face-up
  cards of each column as small integers (``suit * 16 + rank``), and the number of suits on the
  foundations. Play and move generation work on these tuples directly.
* Pruned moves (unsound, fine for a win finder): a same-suit run moves whole, never split, except
  into an empty column while the stock still has to be dealt (the deal needs every column
  filled); a run lying on a card one rank higher is not moved onto another such card unless it
  joins its own suit; a column with no face-down card is not moved whole into an empty column;
  with the stock empty, only the first empty column is tried (they are interchangeable).
* The game splits into phases at the deals (stock 24, 17, 10, 3, 0). A beam search over phases:
  from each kept position a best-first search on a progress score (face-down cards weigh most,
  then cards not on their same-suit successor; empty columns count in favour) explores a bounded
  number of positions of its phase; every position that can deal gives a candidate (the position
  after the deal) and the best candidates by score form the beam of the next phase. In the last
  phase the same best-first search looks for the win. When a pass fails the beam width and the
  per-position budgets double, until the time or node budget runs out.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Hashable, Iterator, Sequence

from patience_core.api import Card, Move, Position

#: Pile indices (the game's Aisleriot slots).
STOCK = 0
FOUNDATIONS = (1, 2, 3, 4)
COLUMNS = (5, 6, 7, 8, 9, 10, 11)
_NC = len(COLUMNS)
_LAST_DEAL = 3

#: A move of the compact engine: (source column, target column, count); target -1 is a
#: foundation (count 13); source -1 is the deal.
Step = tuple[int, int, int]
#: (stock left, face-down count per column, face-up cards per column, suits on foundations).
State = tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...], int]

_DEAL: Step = (-1, -1, 0)

#: Score weights (lower is better): a face-down card, a card not on a card one rank higher, a
#: card on a card one rank higher of another suit, an empty column (a bonus).
_W_DOWN = 5.0
_W_BREAK = 1.0
_W_OFF_SUIT = 0.5
_W_EMPTY = 2.0

#: First pass: beam width, positions explored per kept position (before the last deal, and in
#: the last phase). Each failed pass doubles all three.
_BEAM = 30
_PHASE_NODES = 3000
_LAST_NODES = 20000


def _code(card: Card) -> int:
    return int(card.suit) * 16 + int(card.rank)


class _Found(Exception):
    """A winning line was found (its linked list of steps is the argument)."""


class Search:
    """The compact engine of one Spiderette position and the win-finding search.

    :param position: a Spiderette position whose columns hold face-down cards only below their
        face-up cards (every position of a game does).
    :raises ValueError: for any other position (the caller then skips this search).
    """

    def __init__(self, position: Position) -> None:
        hidden: list[tuple[int, ...]] = []
        downs: list[int] = []
        ups: list[tuple[int, ...]] = []
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
            ups.append(tuple(_code(card) for card in pile[down:]))
        self.hidden = tuple(hidden)
        #: The stock in deal order (the top card first).
        self.stock = tuple(_code(card) for card in reversed(position[STOCK]))
        self.homes = [f for f in FOUNDATIONS if not position[f]]
        filled = len(FOUNDATIONS) - len(self.homes)
        self.root: State = (len(self.stock), tuple(downs), tuple(ups), filled)
        self.nodes = 0

    # -- the rules on compact states ------------------------------------------------------------

    def moves(self, state: State) -> list[Step]:
        """The pruned moves of ``state`` (see the module docstring); every one is legal."""
        stock, downs, ups, _ = state
        out: list[Step] = []
        tops: dict[int, list[int]] = {}
        empties: list[int] = []
        runs: list[tuple[int, int]] = []
        for j in range(_NC):
            pile = ups[j]
            if pile:
                card = pile[-1]
                tops.setdefault(card & 15, []).append(j)
                n = len(pile)
                k = 1
                while k < n and pile[-k - 1] == card + 1:
                    card += 1
                    k += 1
                runs.append((k, card))
            else:
                empties.append(j)
                runs.append((0, 0))
        for i in range(_NC):
            pile = ups[i]
            if not pile:
                continue
            k, base = runs[i]
            if k == 13:
                out.append((i, -1, 13))
                continue
            n = len(pile)
            if stock and empties:
                out.extend((i, empties[0], part) for part in range(1, k))
            rank = base & 15
            below = pile[-k - 1] if k < n else 0
            lateral = below != 0 and (below & 15) == rank + 1
            for j in tops.get(rank + 1, ()):
                if not lateral or ups[j][-1] == base + 1:
                    out.append((i, j, k))
            if empties and (k < n or downs[i]):
                if stock:
                    out.extend((i, j, k) for j in empties)
                else:
                    out.append((i, empties[0], k))
        if stock and not empties:
            out.append(_DEAL)
        return out

    def all_moves(self, state: State) -> list[Step]:
        """Every legal move of ``state`` (sound: for the exhaustive search), best first.

        Left out are only moves whose result has the same :meth:`key` as the result of a move
        kept: with the stock empty, moves into the second and later empty columns, and a whole
        column (no face-down card) moved into an empty one; with only the last deal left, the
        same for the columns t4..t7 it does not reach. Order: a complete suit to a foundation,
        runs joining their own suit, runs onto other cards, runs into an empty column, the deal.
        """
        stock, downs, ups, _ = state
        home: list[Step] = []
        join: list[Step] = []
        onto: list[Step] = []
        into: list[Step] = []
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
            k = 1
            while True:
                # The top k cards form a same-suit run whose bottom card is ``card``.
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
        home += onto
        home += into
        if stock and not empties:
            home.append(_DEAL)
        return home

    def play(self, state: State, step: Step) -> State:
        """The state after ``step`` (a deal, or a run moved with the uncovered card turned)."""
        stock, downs, ups, filled = state
        source, target, count = step
        piles = list(ups)
        if source < 0:
            start = len(self.stock) - stock
            dealt = min(_NC, stock)
            for t in range(dealt):
                piles[t] = piles[t] + (self.stock[start + t],)
            return (stock - dealt, downs, tuple(piles), filled)
        pile = piles[source]
        run = pile[-count:]
        rest = pile[:-count]
        if not rest and downs[source]:
            down = downs[source] - 1
            rest = (self.hidden[source][down],)
            downs = (*downs[:source], down, *downs[source + 1 :])
        piles[source] = rest
        if target < 0:
            filled += 1
        else:
            piles[target] = piles[target] + run
        return (stock, downs, tuple(piles), filled)

    def key(self, state: State) -> tuple[object, ...]:
        """Equal keys: the same future. Columns no deal reaches and that hold no face-down card
        are interchangeable (their index says nothing more), so their piles are sorted."""
        stock, downs, ups, _ = state
        if stock > _LAST_DEAL:
            return (stock, downs, ups)
        if stock == 0:
            if not any(downs):
                return (0, tuple(sorted(ups)))
            return (
                0,
                downs,
                tuple(pile if down else () for pile, down in zip(ups, downs, strict=True)),
                tuple(sorted(pile for pile, down in zip(ups, downs, strict=True) if not down)),
            )
        rest = downs[_LAST_DEAL:]
        return (
            stock,
            downs,
            ups[:_LAST_DEAL],
            tuple(pile if down else () for pile, down in zip(ups[_LAST_DEAL:], rest, strict=True)),
            tuple(
                sorted(pile for pile, down in zip(ups[_LAST_DEAL:], rest, strict=True) if not down)
            ),
        )

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

    @staticmethod
    def score(state: State) -> float:
        """Progress score, lower is better (see the weights above)."""
        _, downs, ups, _ = state
        value = _W_DOWN * sum(downs)
        for pile in ups:
            if not pile:
                value -= _W_EMPTY
                continue
            value += _W_BREAK
            for upper, lower in itertools.pairwise(pile):
                if upper != lower + 1:
                    value += _W_OFF_SUIT if (upper & 15) == (lower & 15) + 1 else _W_BREAK
        return value

    # -- the search -----------------------------------------------------------------------------

    def find(self, nodes: int, seconds: float) -> list[Step] | None:
        """A winning line from the root (compact steps), or ``None`` when the budget ran out.

        :param nodes: positions generated at most (``self.nodes`` counts them).
        :param seconds: CPU seconds (:func:`time.process_time`) at most.
        """
        deadline = time.process_time() + seconds
        max_nodes = self.nodes + nodes
        width, phase_nodes, last_nodes = _BEAM, _PHASE_NODES, _LAST_NODES
        if self.won(self.root):
            return []
        try:
            while True:
                seen = {self.key(self.root)}
                beam: list[tuple[State, object]] = [(self.root, None)]
                # A pass that cut nothing (no phase stopped at its limit, no beam dropped a
                # candidate) searched the whole pruned space: a wider pass cannot find more.
                cut = False
                while beam:
                    candidates: list[tuple[float, int, State, object]] = []
                    for state, line in beam:
                        limit = phase_nodes if state[0] else last_nodes
                        limit = min(limit, max_nodes - self.nodes)
                        cut |= self._phase(state, line, limit, deadline, seen, candidates)
                        if self.nodes >= max_nodes or time.process_time() >= deadline:
                            return None
                    candidates.sort(key=lambda c: c[:2])
                    cut |= len(candidates) > width
                    beam = [(c[2], c[3]) for c in candidates[:width]]
                if not cut:
                    return None
                width, phase_nodes, last_nodes = 2 * width, 2 * phase_nodes, 2 * last_nodes
        except _Found as found:
            steps: list[Step] = []
            link = found.args[0]
            while link is not None:
                steps.append(link[0])
                link = link[1]
            return steps[::-1]

    def _phase(
        self,
        start: State,
        line: object,
        limit: int,
        deadline: float,
        seen: set[tuple[object, ...]],
        candidates: list[tuple[float, int, State, object]],
    ) -> bool:
        """Best-first within ``start``'s phase for ``limit`` positions or until the CPU clock
        reaches ``deadline`` (read every 1024 positions): deals go to ``candidates``; a win
        raises :class:`_Found`. :returns: whether the limit or the clock cut the phase short
        (positions were left unexplored)."""
        order = itertools.count()
        score, key, play, moves, won = self.score, self.key, self.play, self.moves, self.won
        heap: list[tuple[float, int, State, object]] = [(0.0, 0, start, line)]
        spent = 0
        check = 1024
        while heap and spent < limit:
            if spent >= check:
                check = spent + 1024
                if time.process_time() >= deadline:
                    break
            _, _, state, link = heapq.heappop(heap)
            for step in moves(state):
                if spent >= limit:
                    break
                child = play(state, step)
                spent += 1
                child_key = key(child)
                if child_key in seen:
                    continue
                seen.add(child_key)
                child_line = (step, link)
                if won(child):
                    self.nodes += spent
                    raise _Found(child_line)
                entry = (score(child), next(order), child, child_line)
                if step[0] < 0:
                    candidates.append(entry)
                else:
                    heapq.heappush(heap, entry)
        self.nodes += spent
        return spent >= limit or bool(heap)

    def to_moves(self, steps: Sequence[Step]) -> list[Move]:
        """The game's moves for compact ``steps`` played from the root."""
        out: list[Move] = []
        homes = iter(self.homes)
        for source, target, count in steps:
            if source < 0:
                out.append(Move.deal(STOCK))
            elif target < 0:
                out.append(Move.transfer(COLUMNS[source], next(homes), count))
            else:
                out.append(Move.transfer(COLUMNS[source], COLUMNS[target], count))
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
