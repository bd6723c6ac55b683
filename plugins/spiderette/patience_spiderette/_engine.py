"""Spiderette's compact engine: the rules on compact states (:class:`Engine`).

Play and move generation work on the compact states of :mod:`patience_spiderette._piles`
directly: :meth:`Engine.all_moves` lists every legal move (the solver's exhaustive search space),
:meth:`Engine.moves` the pruned moves and macro moves the win finder tries (the module docstring
of :mod:`patience_spiderette.search` says which), and :meth:`Engine.to_moves` expands compact
steps into the game's moves. The win finder (:mod:`patience_spiderette._finder`) builds on it.
"""

from __future__ import annotations

from collections.abc import Sequence

from patience_core.api import Move, Position
from patience_spiderette._piles import (
    _DEAL,
    _LAST_DEAL,
    _NC,
    _ONE_CARD,
    _PILE_TABLE,
    _WEIGHTS,
    COLUMNS,
    FOUNDATIONS,
    STOCK,
    State,
    Step,
    _capacity,
    _code,
    _Facts,
    _facts,
    _Pick,
    _picker,
    _run_lengths,
    _sequence_steps,
)
from patience_spiderette.game import complete_suit


class Engine:
    """The compact engine of one Spiderette position: the rules on compact states (moves, play,
    key, score) and the expansion of compact steps into the game's moves.

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
