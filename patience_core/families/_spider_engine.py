"""The spider family's compact engine: its rules on compact states (:class:`Engine`).

Layer 3½ (above :mod:`patience_core.games`). Play and move generation work on the compact states
of :mod:`patience_core.families._spider_piles` directly, with the declaration's policies as
tables: :meth:`Engine.all_moves` lists every legal move (the solver's exhaustive search space),
:meth:`Engine.moves` the pruned moves and macro moves the win finder tries (the docstring of
:mod:`patience_core.families._spider_search` says which), and :meth:`Engine.to_moves` expands
compact steps into the game's moves. The win finder (:mod:`patience_core.families._spider_finder`)
builds on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience_core.families._spider_moves import all_moves, dig
from patience_core.families._spider_piles import (
    _DEAL,
    _ONE_CARD,
    _PILE_TABLE,
    _SUITS,
    _WEIGHTS,
    State,
    Step,
    Tables,
    _capacity,
    _Facts,
    _facts,
    _Pick,
    _picker,
    _run_lengths,
    _sequence_steps,
    code,
)
from patience_core.model import Move, Position

__all__ = ["Engine"]


class Engine:
    """The compact engine of one spider position: the rules on compact states (moves, play,
    key, score) and the expansion of compact steps into the game's moves.

    :param tables: the declaration's policies (:class:`Tables`).
    :param game: the spider-family game (its pile indices).
    :param position: a position whose columns hold face-down cards only below their face-up
        cards, and whose foundations each hold one complete suit or nothing (every position of
        a game does).
    :raises ValueError: for any other position (the caller then skips this search).
    """

    def __init__(self, tables: Tables, columns: Sequence[int], foundations: Sequence[int],
                 position: Position) -> None:  # fmt: skip
        self.tables = tables
        self._auto = tables.auto
        self.nc = len(columns)
        self.columns = tuple(columns)
        hidden: list[tuple[int, ...]] = []
        downs: list[int] = []
        ups: list[bytes] = []
        for column in columns:
            pile = position[column]
            down = 0
            while down < len(pile) and not pile[down].face_up:
                down += 1
            if any(not card.face_up for card in pile[down:]):
                raise ValueError("a face-down card above a face-up one")
            if down and down == len(pile):
                raise ValueError("a column with no face-up card")
            hidden.append(tuple(code(card) for card in pile[:down]))
            downs.append(down)
            ups.append(bytes(code(card) for card in pile[down:]))
        self.hidden = tuple(hidden)
        #: The stock in deal order (the top card first).
        self.stock = tuple(code(card) for card in reversed(position[0]))
        self.homes = [f for f in foundations if not position[f]]
        for home in foundations:
            pile = position[home]
            if pile and not (all(c.face_up for c in pile) and bytes(map(code, pile)) in _SUITS):
                raise ValueError("a foundation that is not one complete suit")
        filled = len(foundations) - len(self.homes)
        self.root: State = (len(self.stock), tuple(downs), tuple(ups), filled)
        if tables.auto:
            self.root = self._removed(self.root)
        self.nodes = 0
        #: :meth:`_split` per (columns a deal reaches, face-down counts).
        self._splits: dict[tuple[int, tuple[int, ...]], tuple[_Pick, _Pick]] = {}
        #: Facts of the piles seen (:func:`_facts`).
        self._pile_facts: dict[bytes, _Facts] = {}
        #: The runs every legal move may lift off each pile seen (``_spider_moves._segments``).
        self._segments: dict[bytes, tuple[tuple[int, int, bool, bool], ...]] = {}
        #: The cards each card may go on (``_spider_dead``), made on first use.
        self._dead_targets: tuple[tuple[int, ...], ...] | None = None
        #: The face-down cards of each column as bytes (``_spider_dead``), made on first use.
        self._dead_hidden: tuple[bytes, ...] | None = None

    # -- the rules on compact states ------------------------------------------------------------

    def _learn(self, pile: bytes) -> _Facts:
        """:func:`_facts` of ``pile`` (non-empty), kept in the table (emptied when it holds
        ``_PILE_TABLE`` piles)."""
        table = self._pile_facts
        if len(table) >= _PILE_TABLE:
            table.clear()
        fact = table[pile] = _facts(pile, self.tables)
        return fact

    def can_deal(self, stock: int, empties: object) -> bool:
        """Whether the stock may be dealt (cards left; no empty column unless declared)."""
        return bool(stock) and (not empties or self.tables.deal_onto_empty)

    def moves(self, state: State) -> list[Step]:
        """The pruned moves of ``state`` (see :mod:`patience_core.families._spider_search`);
        every one is legal."""
        stock, downs, ups, filled = state
        tables = self.tables
        tkey, want, fits, joins, accepts = (
            tables.tkey, tables.want, tables.fits, tables.joins, tables.accepts
        )  # fmt: skip
        out: list[Step] = []
        tops: dict[int, list[int]] = {}
        empties: list[int] = []
        table = self._pile_facts
        facts: list[_Facts | None] = []
        for j, pile in enumerate(ups):
            if pile:
                tops.setdefault(tkey[pile[-1]], []).append(j)
                fact = table.get(pile)
                facts.append(self._learn(pile) if fact is None else fact)
            else:
                empties.append(j)
                facts.append(None)
        home = filled < tables.homes
        exact, any_empty = tables.exact, tables.any_empty
        for i, fact in enumerate(facts):
            if fact is None:
                continue
            k, base, lateral = fact[0], fact[1], fact[2]
            pile = ups[i]
            if fact[6] and home:
                out.append((i, -1, 13))
                continue
            if stock and empties:
                if any_empty:
                    out.extend((i, empties[0], part) for part in range(1, k))
                else:
                    out.extend((i, empties[0], p) for p in range(1, k) if accepts[pile[-p]])
            for j in tops.get(want[base], ()):
                top = ups[j][-1]
                if (exact or fits[base << 6 | top]) and (not lateral or joins[base << 6 | top]):
                    out.append((i, j, k))
            if empties and (k < len(pile) or downs[i]) and (any_empty or accepts[base]):
                if stock:
                    out.extend((i, j, k) for j in empties)
                else:
                    out.append((i, empties[0], k))
        if any_empty:
            self._macros(out, stock, downs, ups, facts, tops, empties)
        if stock and (not empties or tables.deal_onto_empty):
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
        """Add the win finder's macro moves to ``out`` (only when an empty column takes any
        card): a column's top sequence of several runs moved whole onto a card it builds on or
        into an empty column, through the other empty columns (:func:`_capacity`); and a dig,
        the sequence moved off in pieces (each onto a card it builds on, through the empty
        columns, or alone into one) so as to uncover the card below it or empty the column."""
        want, fits, joins = self.tables.want, self.tables.fits, self.tables.joins
        e = len(empties)
        cap = _capacity(e)
        into_cap = _capacity(e - 1) if e else 0
        for i, fact in enumerate(facts):
            if fact is None:
                continue
            seq = fact[3]
            r = len(seq)
            if r < 2 or fact[6]:
                continue
            pile = ups[i]
            whole = seq[-1][0] == len(pile)
            for j in range(2, min(r, cap) + 1):
                count, bottom = seq[j - 1]
                for t in tops.get(want[bottom], ()):
                    top = ups[t][-1]
                    if fits[bottom << 6 | top] and (j == r or joins[bottom << 6 | top]):
                        out.append((i, t, count))
            if e and r <= into_cap and (not whole or downs[i]):
                count = seq[-1][0]
                if stock:
                    out.extend((i, t, count) for t in empties)
                else:
                    out.append((i, empties[0], count))
            if whole:
                step = dig(self.tables, i, seq, ups, tops, empties)
                if step is not None:
                    out.append(step)

    def all_moves(self, state: State) -> list[Step]:
        """Every legal move of ``state`` (:func:`~patience_core.families._spider_moves.all_moves`,
        which says which moves are left out as repeats)."""
        return all_moves(self, state)

    def play(self, state: State, step: Step) -> State:
        """The state after ``step`` (a deal, or a run moved with the uncovered card turned);
        then, with ``suit-removal`` "auto", every complete suit to a foundation."""
        if len(step) > 3:
            for at in range(0, len(step), 3):
                state = self.play(state, step[at : at + 3])
            return state
        stock, downs, ups, filled = state
        source, target, count = step
        piles = list(ups)
        if source < 0:
            start = len(self.stock) - stock
            dealt = min(self.nc, stock)
            for t in range(dealt):
                piles[t] = piles[t] + _ONE_CARD[self.stock[start + t]]
            state = (stock - dealt, downs, tuple(piles), filled)
            return self._removed(state) if self._auto else state
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
        state = (stock, downs, tuple(piles), filled)
        return self._removed(state) if self._auto else state

    def _removed(self, state: State) -> State:
        """``state`` with every complete suit at the top of a column on a foundation, t1
        first, each uncovered face-down card turned (``suit-removal`` "auto")."""
        stock, downs, ups, filled = state
        while filled < self.tables.homes:
            column = next((c for c, p in enumerate(ups) if p[-13:] in _SUITS), None)
            if column is None:
                break
            rest = ups[column][:-13]
            if not rest and downs[column]:
                down = downs[column] - 1
                rest = _ONE_CARD[self.hidden[column][down]]
                downs = (*downs[:column], down, *downs[column + 1 :])
            ups = (*ups[:column], rest, *ups[column + 1 :])
            filled += 1
        return stock, downs, ups, filled

    def key(self, state: State) -> tuple[object, ...]:
        """Equal keys: the same future. Columns no deal reaches and that hold no face-down card
        are interchangeable (their index says nothing more), so their piles are sorted: the
        key is then the stock, the face-down counts, the other columns' piles in order and the
        sorted piles. (The face-down counts say which columns are which.)"""
        stock, downs, ups, _ = state
        if stock >= self.nc:
            return (stock, downs, ups)
        split = self._splits.get((stock, downs))
        if split is None:
            split = self._split(stock, downs)
        return (stock, downs, split[0](ups), tuple(sorted(split[1](ups))))

    def _split(self, reach: int, downs: tuple[int, ...]) -> tuple[_Pick, _Pick]:
        """Functions that pick, from the face-up piles, those of the columns the last deal
        still reaches (the first ``reach``) or that hold face-down cards, and the others; kept
        per (``reach``, ``downs``)."""
        fixed: list[int] = []
        free: list[int] = []
        for column, down in enumerate(downs):
            (fixed if down or column < reach else free).append(column)
        split = self._splits[reach, downs] = (_picker(fixed), _picker(free))
        return split

    def won(self, state: State) -> bool:
        """Every suit complete: on the foundations or as K..A runs alone in their columns."""
        stock, downs, ups, filled = state
        if filled == self.tables.homes:
            return True
        if stock or any(downs):
            return False
        return all(not pile or pile in _SUITS for pile in ups)

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

    def to_moves(self, steps: Sequence[Step]) -> list[Move]:
        """The game's moves for compact ``steps`` played from the root: a sequence of several
        runs goes through the empty columns (:func:`_sequence_steps`); suits the rules remove
        at once are not moves.

        :raises ValueError: for a sequence move with too few empty columns (a bug).
        """
        out: list[Move] = []
        homes = iter(self.homes)
        state = self.root
        columns = self.columns
        for step in steps:
            for at in range(0, len(step), 3):
                source, target, count = part = step[at : at + 3]
                if source < 0:
                    out.append(Move.deal(0))
                elif target < 0:
                    out.append(Move.transfer(columns[source], next(homes), count))
                else:
                    ups = state[2]
                    lengths = _run_lengths(ups[source][-count:], self.tables.joins)
                    free = [c for c in range(self.nc) if not ups[c] and c not in (source, target)]
                    out.extend(
                        Move.transfer(columns[a], columns[b], n)
                        for a, b, n in _sequence_steps(lengths, source, target, free)
                    )
                state = self.play(state, part)
        return out
