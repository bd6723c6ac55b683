"""Fast move generation, play and solver hooks for Baker's Game (RULES.md Part B §3).

The solver (``patience_core.solver``) spends nearly all its time in :meth:`Game.legal_moves`,
:meth:`Game.play` and :meth:`Game.solver_key`. The functions here compute exactly what the
generic building blocks (:func:`run_moves`, :func:`move_cards`, :func:`auto_play`) compute, on the
tuples of a position directly, with the foundations summarised per suit; the rule tests compare
them with the generic versions move for move.

Why the solver hooks are sound (each is tested against a search without it):

* :func:`solver_key` keeps the free cells as a sorted set of cards and the columns as a sorted list
  of card strings, and leaves the foundations out. Free cells are interchangeable (any empty one
  may be chosen), and so are columns (the rules never name a column: every column takes the same
  cards, and the supermove limit counts only how many are empty). The foundations are the cards in
  no cell or column, and which foundation holds a suit never matters (a card goes to the one that
  takes it). So positions with equal keys have the same legal lines, up to renaming piles.
* No :meth:`forced_move`: every foundation move is already made by auto-play in :meth:`play`
  (safe in Baker's Game: a card on a foundation is never needed, since the only card that could be
  built on it, one rank lower in the same suit, is already home).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.api import Card, Move, Position, Rank, Suit

if TYPE_CHECKING:
    from collections.abc import Sequence

CELLS = (0, 1, 2, 3)
FOUNDATIONS = (4, 5, 6, 7)
COLUMNS = (8, 9, 10, 11, 12, 13, 14, 15)
AUTO_SOURCES = CELLS + COLUMNS
_KING = int(Rank.KING)

#: Every transfer, interned: ``_MOVES[(source * 16 + target) * 14 + count]``.
_MOVES = [Move.transfer(s, t, n) for s in range(16) for t in range(16) for n in range(14)]
#: The same moves, longest run first: ``_RUN_MOVES[(source * 16 + target) * 14 + 13 - count]``.
_RUN_MOVES = [Move.transfer(s, t, 13 - n) for s in range(16) for t in range(16) for n in range(14)]

#: One character per card for the solver key (``A``.. for clubs, then diamonds, hearts, spades).
_CHAR = {
    Card.of(rank, suit): chr(65 + int(suit) * 13 + int(rank) - 1) for suit in Suit for rank in Rank
}


def transfer(source: int, target: int, count: int = 1) -> Move:
    """The interned transfer move (same value as :meth:`Move.transfer`)."""
    return _MOVES[(source * 16 + target) * 14 + count]


def homes(piles: Sequence[tuple[Card, ...]]) -> tuple[list[int], list[int]] | None:
    """Per suit: the rank its foundation takes next (14 when complete) and the foundation index a
    card of that suit goes to (the first empty one for a suit not started).

    :returns: ``None`` when the foundations are not each one suit from the Ace up (a malformed
        position; callers fall back to the generic building blocks).
    """
    need = [1, 1, 1, 1]
    dest = [-1, -1, -1, -1]
    first_empty = -1
    for f in FOUNDATIONS:
        pile = piles[f]
        if not pile:
            if first_empty < 0:
                first_empty = f
            continue
        top = pile[-1]
        suit = top.suit
        if dest[suit] >= 0 or len(pile) != top.rank or pile[0].suit != suit:
            return None
        need[suit] = top.rank + 1
        dest[suit] = f
    for index in range(4):
        if dest[index] < 0:
            dest[index] = first_empty
    return need, dest


def run_length(pile: tuple[Card, ...]) -> int:
    """The length of the same-suit descending run at the top of a non-empty ``pile``."""
    length = 1
    top = pile[-1]
    suit = top.suit
    rank = int(top.rank)
    for i in range(len(pile) - 2, -1, -1):
        card = pile[i]
        rank += 1
        if card.suit != suit or card.rank != rank:
            break
        length += 1
    return length


def legal_moves(piles: tuple[tuple[Card, ...], ...], kings_only: bool) -> list[Move] | None:
    """Baker's Game's legal moves, in the order of :meth:`BakersGame.reference_legal_moves`:
    foundation moves by source; runs by source, then target, then the longest first; cards into
    free cells by source, then cell.

    :returns: ``None`` for a malformed position (the caller uses the generic code).
    """
    summary = homes(piles)
    if summary is None:
        return None
    need, dest = summary
    moves: list[Move] = []
    sources = [i for i in AUTO_SOURCES if piles[i]]
    for source in sources:
        card = piles[source][-1]
        if card.rank == need[card.suit]:
            moves.append(_MOVES[(source * 16 + dest[card.suit]) * 14 + 1])
    empty_cells = [i for i in CELLS if not piles[i]]
    free = len(empty_cells) + 1
    by_suit: list[list[tuple[int, int]]] = [[], [], [], []]
    empty_columns = []
    for target in COLUMNS:
        pile = piles[target]
        if pile:
            card = pile[-1]
            by_suit[card.suit].append((target, card.rank))
        else:
            empty_columns.append(target)
    if kings_only:
        onto_card = onto_empty = free
    else:
        onto_card = free << len(empty_columns)
        onto_empty = free << (len(empty_columns) - 1) if empty_columns else 0
    found: list[int] = []
    for source in sources:
        pile = piles[source]
        top = pile[-1]
        rank = top.rank
        length = 1 if source < 4 else run_length(pile)
        base = source * 224 + 13
        for target, under in by_suit[top.suit]:
            count = under - rank
            if 1 <= count <= length and count <= onto_card and target != source:
                found.append(base + target * 14 - count)
        if empty_columns:
            if kings_only:
                count = 14 - rank
                if count <= length and count <= onto_empty:
                    found += [base + t * 14 - count for t in empty_columns if t != source]
            else:
                top_count = min(length, onto_empty)
                for target in empty_columns:
                    found += range(base + target * 14 - top_count, base + target * 14)
    if found:
        found.sort()
        moves += [_RUN_MOVES[i] for i in found]
    if empty_cells:
        for source in sources:
            base = source * 224 + 1
            moves += [_MOVES[base + cell * 14] for cell in empty_cells]
    return moves


def play(
    piles: tuple[tuple[Card, ...], ...], move: Move, keys: KeyMaker | None = None
) -> Position | None:
    """The position after ``move`` and its auto-play, as :func:`move_cards` then
    :func:`auto_play` (cells first, then columns; each round restarts the scan; an Ace goes to the
    first empty foundation).

    :param keys: a :class:`KeyMaker` to tell the strings of the new piles (derived from the old
        piles' strings when it knows them), so that the key of the result is cheap.
    :returns: ``None`` for a malformed position (the caller uses the generic code).
    """
    new = list(piles)
    source = move.source
    target = move.target
    assert target is not None
    pile = new[source]
    cut = len(pile) - move.count
    new[target] = new[target] + pile[cut:]
    new[source] = pile[:cut]
    summary = homes(new)
    if summary is None:
        return None
    need, dest = summary
    texts: dict[int, str] = {}
    if keys is not None:
        known = keys.texts
        source_text = known.get(id(pile))
        target_text = known.get(id(piles[target]))
        if source_text is not None and target_text is not None:
            texts[source] = source_text[:cut]
            if target >= 8 or target < 4:
                texts[target] = target_text + source_text[cut:]
    scanning = True
    while scanning:
        scanning = False
        for source in AUTO_SOURCES:
            pile = new[source]
            if not pile:
                continue
            card = pile[-1]
            suit = card.suit
            if card.rank != need[suit] or not card.face_up:
                continue
            home = dest[suit]
            new[home] = new[home] + (card,)
            new[source] = pile[:-1]
            if keys is not None:
                text = texts.get(source)
                if text is None:
                    text = keys.texts.get(id(pile))
                if text is not None:
                    texts[source] = text[:-1]
            need[suit] += 1
            if need[suit] == 2:
                empty = [f for f in FOUNDATIONS if not new[f]]
                first = empty[0] if empty else -1
                for other in range(4):
                    if need[other] == 1:
                        dest[other] = first
            scanning = True
            break
    if texts and keys is not None:
        keys.learn([(new[index], text) for index, text in texts.items()])
    return Position(tuple(new))


class KeyMaker:
    """Builds :func:`solver_key` strings, remembering each pile's string by the identity of the
    pile's tuple (positions next to each other in a search share most of their piles).

    The memory holds every tuple it has a string for, so an identity it knows cannot be reused by
    another tuple; it is emptied when it holds ``limit`` piles.
    """

    def __init__(self, limit: int = 300_000) -> None:
        self.limit = limit
        self.texts: dict[int, str] = {}
        self.kept: list[tuple[Card, ...]] = []

    def learn(self, pairs: list[tuple[tuple[Card, ...], str]]) -> None:
        """Remember the given strings of piles (computed by the caller)."""
        if len(self.kept) >= self.limit:
            self.texts.clear()
            self.kept.clear()
        texts = self.texts
        for pile, text in pairs:
            texts[id(pile)] = text
            self.kept.append(pile)

    def text(self, pile: tuple[Card, ...]) -> str:
        """The string of ``pile`` (one character per card, bottom first), remembered."""
        if len(self.kept) >= self.limit:
            self.texts.clear()
            self.kept.clear()
        text = "".join([_CHAR[card] for card in pile])
        self.texts[id(pile)] = text
        self.kept.append(pile)
        return text

    def __call__(self, position: Position) -> str:
        """The canonical key: sorted free-cell cards, ``|``, the sorted column strings."""
        piles = position.piles
        get = self.texts.get
        cells = [get(i) for i in map(id, piles[:4])]
        columns = [get(i) for i in map(id, piles[8:])]
        if None in cells:
            cells = [
                t if t is not None else self.text(p) for p, t in zip(piles[:4], cells, strict=True)
            ]
        if None in columns:
            columns = [
                t if t is not None else self.text(p)
                for p, t in zip(piles[8:], columns, strict=True)
            ]
        cells.sort()
        columns.sort()
        return "".join(cells) + "|" + "|".join(columns)  # type: ignore[arg-type]


def _dig(pile: tuple[Card, ...], need: list[int], stop: int) -> int:
    """How many cards lie above the shallowest card of ``pile[:stop]`` that goes home next
    (``stop`` when none does)."""
    for depth in range(stop):
        card = pile[stop - 1 - depth]
        if card.rank == need[card.suit]:
            return depth
    return 20


def order_moves(
    piles: tuple[tuple[Card, ...], ...], moves: list[Move], prune: bool = False
) -> list[Move]:
    """``moves`` sorted best first for the solver (a stable sort).

    Classes, best first: to a foundation; onto the card one rank higher in suit (from a free
    cell first, then moves that empty a column or uncover a card that goes home, then those that
    dig towards such a card); into a free cell; into an empty column; last the moves whose result
    is the same position up to the solver key's symmetry (a whole column into an empty column, a
    free-cell card into another free cell).

    :param prune: leave out the moves whose result has the same :func:`solver_key` as the
        position or as the result of a move kept: a free-cell card into another free cell, a
        whole column into an empty column, and any move into an empty free cell or empty column
        other than the first one.
    """
    summary = homes(piles)
    if summary is None:
        return list(moves)
    need = summary[0]
    first_cell = next((i for i in CELLS if not piles[i]), -1)
    first_column = next((i for i in COLUMNS if not piles[i]), -1)
    scored = []
    for index, move in enumerate(moves):
        source = move.source
        target = move.target
        count = move.count
        pile = piles[source]
        if target is None:
            score = 900
        elif 4 <= target < 8:
            score = 0
        elif target < 4:
            if source < 4:
                if prune:
                    continue
                score = 990
            else:
                if prune and target != first_cell:
                    continue
                rest = len(pile) - count
                if rest == 0:
                    score = 300
                else:
                    under = pile[rest - 1]
                    card = pile[rest]
                    natural = under.suit == card.suit and under.rank == card.rank + 1
                    score = 300 + _dig(pile, need, rest) + (100 if natural else 0)
        elif piles[target]:
            if source < 4:
                score = 100
            else:
                rest = len(pile) - count
                score = 110 if rest == 0 else 120 + _dig(pile, need, rest)
        else:
            if prune and target != first_column:
                continue
            rest = len(pile) - count
            if source < 4:
                score = 350
            elif rest == 0:
                if prune:
                    continue
                score = 980
            else:
                under = pile[rest - 1]
                card = pile[rest]
                natural = under.suit == card.suit and under.rank == card.rank + 1
                score = 400 + _dig(pile, need, rest) + (100 if natural else 0)
        scored.append((score, index, move))
    scored.sort()
    return [move for _, _, move in scored]


def solver_moves(piles: tuple[tuple[Card, ...], ...], kings_only: bool) -> list[Move] | None:
    """The moves :func:`order_moves` with ``prune`` keeps, in about the same order, generated
    directly (the solver's hot path).

    :returns: ``None`` for a malformed position (the caller uses the generic code).
    """
    summary = homes(piles)
    if summary is None:
        return None
    need, dest = summary
    scored: list[int] = []  # score * 4096 + index in _MOVES
    sources = [i for i in AUTO_SOURCES if piles[i]]
    for source in sources:
        card = piles[source][-1]
        if card.rank == need[card.suit]:
            scored.append(0 * 4096 + (source * 16 + dest[card.suit]) * 14 + 1)
    first_cell = next((i for i in CELLS if not piles[i]), -1)
    free = sum(1 for i in CELLS if not piles[i]) + 1
    by_suit: list[list[tuple[int, int]]] = [[], [], [], []]
    empty_columns = 0
    first_column = -1
    for target in COLUMNS:
        pile = piles[target]
        if pile:
            card = pile[-1]
            by_suit[card.suit].append((target, card.rank))
        else:
            empty_columns += 1
            if first_column < 0:
                first_column = target
    if kings_only:
        onto_card = onto_empty = free
    else:
        onto_card = free << empty_columns
        onto_empty = free << (empty_columns - 1) if empty_columns else 0
    for source in sources:
        pile = piles[source]
        top = pile[-1]
        rank = top.rank
        size = len(pile)
        length = 1 if source < 4 else 0  # 0: not measured yet
        base = source * 224
        for target, under in by_suit[top.suit]:
            count = under - rank
            if count > 1 and not length:
                length = run_length(pile)
            if 1 <= count <= max(length, 1) and count <= onto_card and target != source:
                if source < 4:
                    score = 100
                elif count == size:
                    score = 110
                else:
                    score = 120 + _dig(pile, need, size - count)
                scored.append(score * 4096 + base + target * 14 + count)
        if first_column >= 0:
            if not length:
                length = run_length(pile)
            if kings_only:
                counts: Sequence[int] = (14 - rank,) if 14 - rank <= min(length, onto_empty) else ()
            else:
                counts = range(min(length, onto_empty), 0, -1)
            for count in counts:
                rest = size - count
                if source < 4:
                    score = 350
                elif rest == 0:
                    continue
                else:
                    under_card = pile[rest - 1]
                    card = pile[rest]
                    natural = under_card.suit == card.suit and under_card.rank == card.rank + 1
                    score = 400 + _dig(pile, need, rest) + (100 if natural else 0)
                scored.append(score * 4096 + base + first_column * 14 + count)
        if first_cell >= 0 and source >= 4:
            rest = size - 1
            if rest == 0:
                score = 300
            else:
                under_card = pile[rest - 1]
                natural = under_card.suit == top.suit and under_card.rank == rank + 1
                score = 300 + _dig(pile, need, rest) + (100 if natural else 0)
            scored.append(score * 4096 + base + first_cell * 14 + 1)
    scored.sort()
    return [_MOVES[i & 4095] for i in scored]
