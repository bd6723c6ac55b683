"""The free-cell family's fast play: a variant's :class:`Shape`, the compact :data:`Summary` of a
position, :func:`play` and the search key.

:func:`play` computes the game's ``play`` (the move, then auto-play) on the tuples of a position
directly and returns piles (:class:`Piles`) that carry their :data:`Summary`, derived from the
previous position's in a few steps; :func:`solver_key` is the search key (why it is sound: the
docstring of :mod:`patience_core.families._freecell_search`). Generalised from Baker's Game's
search: every variant with one standard deck gets it.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import TYPE_CHECKING

from patience_core.model import Card, Move, Position, Rank, Suit

if TYPE_CHECKING:
    from collections.abc import Sequence

    from patience_core.families._freecell import FreeCellFamily

#: Card texts: one character per face-up card, ``chr(48 + suit * 16 + rank)``.
TEXT = {Card.of(rank, suit): chr(48 + int(suit) * 16 + int(rank)) for suit in Suit for rank in Rank}


class Shape:
    """What the fast functions need to know of one variant (its options in force): pile
    indices, the build as pairs of card texts, the auto-play rule and the supermove limits.

    :param game: a free-cell family game.
    """

    def __init__(self, game: FreeCellFamily) -> None:
        deck = game.new_deck()
        #: Whether the fast functions apply: one standard deck (each card once, four suits).
        self.fast = len(deck) == 52 and set(deck) == set(TEXT)
        self.cells = game.cell_piles
        self.foundations = game.foundation_piles
        self.columns = game.column_piles
        self.sources = game.sources
        self.first_found = len(self.cells)
        self.first_column = len(self.cells) + len(self.foundations)
        self.size = size = len(game.piles)
        #: Every transfer, interned: ``moves[(source * size + target) * 14 + count]``.
        self.moves = [Move.transfer(s, t, n) for s in range(size) for t in range(size)
                      for n in range(14)]  # fmt: skip
        self.shift = size * size * 14
        cards = list(TEXT)
        #: ``below + above`` texts of every pair the build allows (a run's links).
        self.fits = frozenset(TEXT[o] + TEXT[c] for o in cards for c in cards if game.fits(c, o))
        #: Per card text, the texts of the cards it may go on.
        self.parents = {TEXT[c]: "".join(TEXT[o] for o in cards if game.fits(c, o)) for c in cards}
        #: Whether each card goes on at most one card: then only a whole run's bottom card can
        #: fit another column (the one above any other card of the run is its own parent).
        self.unique_parent = all(len(p) <= 1 for p in self.parents.values())
        #: The card texts an empty column takes.
        self.empty_ok = frozenset(TEXT[c] for c in cards if game.accepts(c))
        self.single = game.lift == "single"
        self.auto = game.auto_play
        #: Whether auto-play asks :meth:`safe` (``safe``); under ``all`` every card is.
        self.check_safe = self.auto == "safe"
        #: Per card text, (suit, rank) of the cards that could be built on it (safe auto-play).
        self.children = {
            TEXT[c]: () if self.auto == "all" else tuple(
                (int(d.suit), int(d.rank)) for d in cards if game.fits(d, c)
            ) for c in cards
        }  # fmt: skip
        #: The supermove rule: "full" (doubling for empty columns), "cells" or "none".
        self.supermove = "cells" if game.supermove == "full" and not game.open_columns else (
            game.supermove
        )  # fmt: skip

    def limits(self, free: int, empty: int) -> tuple[int, int]:
        """The longest run onto a card and into an empty column, for ``free`` empty free cells
        and ``empty`` empty columns (the rules' :meth:`FreeCellFamily.max_run`)."""
        if self.single:
            return 1, 1
        if self.supermove == "none":
            return 52, 52
        if self.supermove == "cells":
            return free + 1, free + 1
        return (free + 1) << empty, (free + 1) << (empty - 1) if empty else 0

    def homes(self, piles: Sequence[tuple[Card, ...]]) -> tuple[list[int], list[int]] | None:
        """Per suit: the rank its foundation takes next (14 when complete) and the foundation
        index a card of that suit goes to (the first empty one for a suit not started).

        :returns: ``None`` when the foundations are not each one suit from the Ace up.
        """
        need = [1, 1, 1, 1]
        dest = [-1, -1, -1, -1]
        first_empty = -1
        for f in self.foundations:
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

    def text_run(self, text: str) -> int:
        """The length of the built run at the top of a pile's ``text`` (0 if empty)."""
        size = len(text)
        if not size:
            return 0
        fits = self.fits
        length = 1
        while length < size and text[size - 1 - length : size + 1 - length] in fits:
            length += 1
        return length

    def safe(self, code: int, need: list[int]) -> bool:
        """Whether the card of text code ``code`` (its foundation's next) may go home now under
        the auto-play rule: always for ``all``, when no card that could go on it is out for
        ``safe``."""
        return all(need[suit] > rank for suit, rank in self.children[chr(48 + code)])

    def key_text(self, texts: list[str]) -> str:
        """:func:`solver_key`'s text from the pile texts."""
        cells = texts[: self.first_found]
        cells.sort()
        columns = texts[self.first_column :]
        columns.sort()
        return "".join(cells) + "," + ",".join(columns)


#: What the fast functions need of a position: ``(texts, runs, need, dest, key)``: per pile its
#: cards' :data:`TEXT` characters bottom first (foundations ``""``); per pile the built run on top
#: (free cells: their card count; foundations 0); per suit the rank its foundation takes next and
#: the foundation a card of that suit goes to; the :func:`solver_key` text.
Summary = tuple[list[str], list[int], list[int], list[int], str]


class Piles(tuple[tuple[Card, ...], ...]):
    """A position's piles (a plain tuple to everyone else) that carry their :data:`Summary`.
    Only :func:`play` makes them, so their positions are settled: no auto-play is due."""

    summary: Summary


def summarise(shape: Shape, piles: tuple[tuple[Card, ...], ...]) -> tuple[Summary, bool] | None:
    """The :data:`Summary` of ``piles`` and whether the position is settled (no auto-play due).

    :returns: ``None`` when a card is face down or the foundations are malformed.
    """
    if type(piles) is Piles:
        return piles.summary, True
    found = shape.homes(piles)
    if found is None:
        return None
    need, dest = found
    texts = []
    for index, pile in enumerate(piles):
        if shape.first_found <= index < shape.first_column:
            texts.append("")
            continue
        chars = [TEXT.get(card) for card in pile]
        if None in chars:
            return None
        texts.append("".join(chars))  # type: ignore[arg-type]
    runs = [len(t) if i < shape.first_found else shape.text_run(t) for i, t in enumerate(texts)]
    settled = True
    if shape.auto != "none":
        for index in shape.sources:
            text = texts[index]
            if text:
                code = ord(text[-1]) - 48
                if code & 15 == need[code >> 4] and shape.safe(code, need):
                    settled = False
    return (texts, runs, need, dest, shape.key_text(texts)), settled


def play(shape: Shape, piles: tuple[tuple[Card, ...], ...], move: Move) -> Position | None:
    """The position after the legal ``move`` and its auto-play, as the rules' ``play``. Its
    piles are :class:`Piles` carrying their summary.

    When the position is settled and the move is not to a foundation, only the card the move
    uncovers can start an auto-play (no foundation changed, so no other card became safe).

    :returns: ``None`` for a position :func:`summarise` cannot summarise.
    """
    if type(piles) is Piles:
        texts, runs, need, dest, _ = piles.summary
        settled = True
    else:
        summary = summarise(shape, piles)
        if summary is None:
            return None
        (texts, runs, need, dest, _), settled = summary
    source, target, count = move.source, move.target, move.count
    assert target is not None
    first_column = shape.first_column
    new = list(piles)
    pile = new[source]
    cut = len(pile) - count
    new[target] = new[target] + pile[cut:]
    new[source] = pile[:cut]
    texts = texts.copy()
    runs = runs.copy()
    text = texts[source]
    moved = text[cut:]
    texts[source] = text = text[:cut]
    run = runs[source]
    if source >= first_column:
        runs[source] = run - count if count < run else shape.text_run(text)
    else:
        runs[source] = len(text)
    if target >= first_column:
        under = texts[target]
        texts[target] = under + moved
        if count <= run and (not under or under[-1] + moved[0] in shape.fits):
            runs[target] += count
        else:
            runs[target] = shape.text_run(texts[target])
    elif target < shape.first_found:
        texts[target] += moved
        runs[target] = len(texts[target])
    else:
        found = shape.homes(new)
        if found is None:
            return None
        need, dest = found
        settled = False
    if shape.auto == "none":
        settled = True
    elif settled and text:
        code = ord(text[-1]) - 48
        settled = code & 15 != need[code >> 4] or (shape.check_safe and not shape.safe(code, need))
    if not settled:
        need = need.copy()
        dest = dest.copy()
        _auto_play(shape, new, texts, runs, need, dest)
    result = Piles(new)
    result.summary = (texts, runs, need, dest, shape.key_text(texts))
    return Position(result)


def _auto_play(
    shape: Shape,
    new: list[tuple[Card, ...]],
    texts: list[str],
    runs: list[int],
    need: list[int],
    dest: list[int],
) -> None:
    """Auto-play in place: the first source (cells, then columns) whose top card goes home
    (and is safe, under ``safe``) moves, and the scan restarts, until none does."""
    # The texts of the cards the foundations take next, by suit ("no card" when complete).
    wanted = "".join([chr(48 + suit * 16 + rank) for suit, rank in enumerate(need)])
    check = shape.check_safe
    while True:
        for source in shape.sources:
            text = texts[source]
            if text and text[-1] in wanted and (not check or shape.safe(ord(text[-1]) - 48, need)):
                break
        else:
            return
        code = ord(text[-1]) - 48
        suit = code >> 4
        home = dest[suit]
        pile = new[source]
        new[home] = new[home] + pile[-1:]
        new[source] = pile[:-1]
        texts[source] = text = text[:-1]
        if source >= shape.first_column:
            run = runs[source]
            runs[source] = run - 1 if run > 1 else shape.text_run(text)
        else:
            runs[source] = 0
        need[suit] += 1
        wanted = wanted[:suit] + chr(49 + code) + wanted[suit + 1 :]
        if need[suit] == 2:
            first = next((f for f in shape.foundations if not new[f]), -1)
            for other in range(4):
                if need[other] == 1:
                    dest[other] = first


def solver_key(shape: Shape, piles: tuple[tuple[Card, ...], ...]) -> Hashable:
    """The canonical key: the free-cell texts sorted, ``,``, the column texts sorted and joined
    by ``,``; the foundations are left out. A position :func:`summarise` cannot summarise gets
    a tuple of card codes instead (free cells sorted, columns sorted, foundations as they are).
    """
    if type(piles) is Piles:
        return piles.summary[4]
    summary = summarise(shape, piles) if shape.fast else None
    if summary is None:
        return (
            tuple(sorted(" ".join(map(str, piles[i])) for i in shape.cells)),
            tuple(sorted(" ".join(map(str, piles[i])) for i in shape.columns)),
            tuple(" ".join(map(str, piles[i])) for i in shape.foundations),
        )
    return summary[0][4]
