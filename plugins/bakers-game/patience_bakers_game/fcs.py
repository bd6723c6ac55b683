"""Freecell Solver's board text for Baker's Game positions (RULES.md Part A "Baker's Game").

The text ``fc-solve`` reads, and ``make-microsoft-freecell-board -t N`` prints::

    Foundations: H-6 C-A D-0 S-0
    Freecells: 3D - JH -
    4C 2C 9C 8C QS JD
    ...

* ``Foundations:`` (optional): ``SUIT-RANK`` for each suit (``0`` for none). Written only when a
  foundation holds a card; non-empty foundations are listed in f1..f4 order, then the empty suits
  in H C D S order. Read back, the non-empty ones fill f1, f2, ... in the order given.
* ``Freecells:`` (optional): four entries, ``-`` for an empty cell; written only when a cell holds a
  card. Fewer entries leave the last cells empty.
* Then one line per column t1..t8, **bottom first** (the last card is the one that moves). A line
  may start with ``:``; an empty column is written ``:``.

Cards are rank (``A 2..9 T J Q K``, ``10`` also read) then suit (``H C D S``), upper case when
written, either case when read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.api import BadSave, Card, Game, Position, Rank, Suit

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = ["read_fcs", "write_fcs"]

#: Freecell Solver lists foundations hearts, clubs, diamonds, spades.
FCS_SUITS = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)
_CELLS, _FOUNDATIONS, _COLUMNS = range(0, 4), range(4, 8), range(8, 16)


def _code(card: Card) -> str:
    return card.rank.letter + card.suit.letter.upper()


def write_fcs(game: Game, position: Position) -> str:
    """Freecell Solver board text of a Baker's Game ``position`` (see the module docstring).

    :returns: lines ending in a newline; for a fresh ``ms:N`` deal exactly what
        ``make-microsoft-freecell-board -t N`` prints.
    """
    lines: list[str] = []
    homes = [position[f] for f in _FOUNDATIONS if position[f]]
    if homes:
        used = [pile[-1].suit for pile in homes]
        parts = [f"{pile[-1].suit.letter.upper()}-{pile[-1].rank.letter}" for pile in homes]
        parts += [f"{s.letter.upper()}-0" for s in FCS_SUITS if s not in used]
        lines.append("Foundations: " + " ".join(parts))
    if any(position[c] for c in _CELLS):
        cells = [_code(position[c][-1]) if position[c] else "-" for c in _CELLS]
        lines.append("Freecells: " + " ".join(cells))
    for t in _COLUMNS:
        lines.append(" ".join(_code(card) for card in position[t]) or ":")
    return "\n".join(lines) + "\n"


def _card(text: str, where: str) -> Card:
    try:
        if text.startswith("*"):
            raise ValueError(text)
        return Card.from_code(text)
    except (ValueError, KeyError):
        raise BadSave(f"{where}: {text!r} is not a card (e.g. 9H, TD, KS)") from None


def _foundations(fields: Sequence[str]) -> list[tuple[Card, ...]]:
    piles: list[tuple[Card, ...]] = []
    seen: set[Suit] = set()
    for field in fields:
        suit_text, dash, rank_text = field.partition("-")
        try:
            suit = Suit.from_letter(suit_text)
            top = 0 if rank_text == "0" else int(Rank.from_text(rank_text))
        except ValueError:
            raise BadSave(f"Foundations: {field!r} is not SUIT-RANK (e.g. H-5, S-0)") from None
        if not dash or suit in seen:
            raise BadSave(f"Foundations: bad or repeated entry {field!r}")
        seen.add(suit)
        if top:
            piles.append(tuple(Card.of(rank, suit) for rank in range(1, top + 1)))
    return piles


def read_fcs(game: Game, text: str) -> Position:
    """The Baker's Game position described by Freecell Solver board ``text``.

    :raises BadSave: with a one-line message for a malformed line, a wrong number of columns,
        free cells or foundations, or cards that are not one full deck.
    """
    lines = [line.strip() for line in text.strip("\n").splitlines()]
    foundations: list[tuple[Card, ...]] = []
    cells: list[tuple[Card, ...]] = []
    while lines and lines[0].lower().startswith(("foundations:", "freecells:")):
        head, _, rest = lines.pop(0).partition(":")
        if head.lower() == "foundations":
            foundations = _foundations(rest.split())
        else:
            entries = rest.split()
            if len(entries) > len(_CELLS):
                raise BadSave(f"Freecells: {len(entries)} entries; Baker's Game has 4 free cells")
            cells = [() if e == "-" else (_card(e, "Freecells"),) for e in entries]
    if len(lines) != len(_COLUMNS):
        lines_ = "line" if len(lines) == 1 else "lines"
        raise BadSave(f"board has {len(lines)} column {lines_}; Baker's Game has 8 columns")
    columns = [
        tuple(_card(code, f"column {k + 1}") for code in line.removeprefix(":").split())
        for k, line in enumerate(lines)
    ]
    cells += [()] * (len(_CELLS) - len(cells))
    foundations += [()] * (len(_FOUNDATIONS) - len(foundations))
    position = Position(tuple(cells + foundations + columns))
    game.check_position(position)
    return position
