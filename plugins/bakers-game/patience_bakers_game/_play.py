"""Baker's Game's fast play: the compact :data:`Summary` of a position, :func:`play` and the key.

:func:`play` computes the game's ``play`` (the move, then auto-play) on the tuples of a position
directly and returns piles (:class:`Piles`) that carry their :data:`Summary`, derived from the
previous position's in a few steps; :func:`solver_key` is the search key (why it is sound: the
docstring of :mod:`patience_bakers_game.search`).
"""

from __future__ import annotations

from collections.abc import Hashable

from patience_bakers_game._rules import (
    AUTO_SOURCES,
    CELLS,
    COLUMNS,
    FOUNDATIONS,
    homes,
)
from patience_core.api import Card, Move, Position, Rank, Suit

#: Card texts: one character per face-up card, ``chr(48 + suit * 16 + rank)``. Ranks 14 and 15
#: are unused, so the code of a card's parent in a build (same suit, one rank higher) is its code
#: plus one, and a King's code plus one is no card.
_TEXT = {
    Card.of(rank, suit): chr(48 + int(suit) * 16 + int(rank)) for suit in Suit for rank in Rank
}


#: What the fast functions need of a position, in compact form: ``(texts, runs, need, dest, key)``.
#:
#: * ``texts``: per pile (16), its cards' :data:`_TEXT` characters, bottom first (foundations:
#:   ``""``);
#: * ``runs``: per pile, the length of the same-suit descending run at its top (free cells: their
#:   card count; foundations: 0);
#: * ``need``: per suit, the rank its foundation takes next (14 when complete);
#: * ``dest``: per suit, the foundation a card of that suit goes to;
#: * ``key``: the :func:`solver_key` text.
Summary = tuple[list[str], list[int], list[int], list[int], str]


class Piles(tuple[tuple[Card, ...], ...]):
    """A position's piles (an ordinary tuple of piles, equal to and hashing as one) that carry
    their :data:`Summary`, so that the solver's next :func:`play`, :func:`solver_key` and
    :func:`solver_moves` need not recompute it. Only :func:`play` makes them, so their positions
    are settled: no top card fits its foundation."""

    summary: Summary


def text_run(text: str) -> int:
    """The length of the same-suit descending run at the top of a pile's ``text`` (0 if empty)."""
    size = len(text)
    if not size:
        return 0
    top = ord(text[-1])
    length = 1
    while length < size and ord(text[size - 1 - length]) == top + length:
        length += 1
    return length


def _key(texts: list[str]) -> str:
    """:func:`solver_key`'s text from the pile texts."""
    cells = texts[:4]
    cells.sort()
    columns = texts[8:]
    columns.sort()
    return "".join(cells) + "," + ",".join(columns)


def summarise(piles: tuple[tuple[Card, ...], ...]) -> tuple[Summary, bool] | None:
    """The :data:`Summary` of ``piles`` (kept with :class:`Piles`, computed for other tuples),
    and whether the position is settled (no top card fits its foundation).

    :returns: ``None`` when a card is face down or the foundations are malformed (callers then
        use the generic building blocks).
    """
    if type(piles) is Piles:
        return piles.summary, True
    found = homes(piles)
    if found is None:
        return None
    need, dest = found
    texts = []
    for index, pile in enumerate(piles):
        if 4 <= index < 8:
            texts.append("")
            continue
        chars = [_TEXT.get(card) for card in pile]
        if None in chars:
            return None
        texts.append("".join(chars))  # type: ignore[arg-type]
    runs = [len(t) if i < 4 else 0 if i < 8 else text_run(t) for i, t in enumerate(texts)]
    settled = True
    for index in AUTO_SOURCES:
        text = texts[index]
        if text:
            code = ord(text[-1]) - 48
            if code & 15 == need[code >> 4]:
                settled = False
    return (texts, runs, need, dest, _key(texts)), settled


def play(piles: tuple[tuple[Card, ...], ...], move: Move) -> Position | None:
    """The position after the legal ``move`` and its auto-play, as :func:`move_cards` then
    :func:`auto_play` (cells first, then columns; each round restarts the scan; an Ace goes to the
    first empty foundation). Its piles are :class:`Piles` carrying their summary.

    When the position is settled (no top card fits a foundation, as after every move) and the
    move is not to a foundation, only the card the move uncovers can start an auto-play, so the
    scan is made only when that card fits.

    :returns: ``None`` for a position :func:`summarise` cannot summarise (the caller uses the
        generic code).
    """
    if type(piles) is Piles:
        texts, runs, need, dest, _ = piles.summary
        settled = True
    else:
        summary = summarise(piles)
        if summary is None:
            return None
        (texts, runs, need, dest, _), settled = summary
    source = move.source
    target = move.target
    assert target is not None
    count = move.count
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
    natural = count <= run
    if source >= 8:
        runs[source] = run - count if count < run else text_run(text)
    else:
        runs[source] = len(text)
    if target >= 8:
        under = texts[target]
        texts[target] = under + moved
        if natural and (not under or ord(under[-1]) == ord(moved[0]) + 1):
            runs[target] += count
        else:
            runs[target] = text_run(texts[target])
    elif target < 4:
        texts[target] += moved
        runs[target] = len(texts[target])
    else:
        found = homes(new)
        if found is None:
            return None
        need, dest = found
        settled = False
    if settled and text:
        code = ord(text[-1]) - 48
        settled = code & 15 != need[code >> 4]
    if not settled:
        need = need.copy()
        dest = dest.copy()
        # The texts of the cards the foundations take next, by suit ("no card" when complete).
        wanted = "".join([chr(48 + suit * 16 + rank) for suit, rank in enumerate(need)])
        while True:
            for source in AUTO_SOURCES:
                text = texts[source]
                if text and text[-1] in wanted:
                    break
            else:
                break
            code = ord(text[-1]) - 48
            suit = code >> 4
            home = dest[suit]
            pile = new[source]
            new[home] = new[home] + pile[-1:]
            new[source] = pile[:-1]
            texts[source] = text = text[:-1]
            if source >= 8:
                run = runs[source]
                runs[source] = run - 1 if run > 1 else text_run(text)
            else:
                runs[source] = 0
            need[suit] += 1
            wanted = wanted[:suit] + chr(49 + code) + wanted[suit + 1 :]
            if need[suit] == 2:
                first = -1
                for index in FOUNDATIONS:
                    if not new[index]:
                        first = index
                        break
                for other in range(4):
                    if need[other] == 1:
                        dest[other] = first
    result = Piles(new)
    result.summary = (texts, runs, need, dest, _key(texts))
    return Position(result)


def solver_key(piles: tuple[tuple[Card, ...], ...]) -> Hashable:
    """The canonical key: the free-cell cards' texts sorted, ``,``, the column texts sorted and
    joined by ``,``. Foundations are left out (module docstring).

    A position :func:`summarise` cannot summarise gets a tuple of card codes instead (free cells
    sorted, columns sorted, foundations as they are).
    """
    if type(piles) is Piles:
        return piles.summary[4]
    summary = summarise(piles)
    if summary is None:
        return (
            tuple(sorted(" ".join(map(str, piles[i])) for i in CELLS)),
            tuple(sorted(" ".join(map(str, piles[i])) for i in COLUMNS)),
            tuple(" ".join(map(str, piles[i])) for i in FOUNDATIONS),
        )
    return summary[0][4]
