"""Freecell Solver's board text for free-cell family positions (RULES.md Part A "Baker's Game").

The text ``fc-solve`` reads, and ``make-microsoft-freecell-board -t N`` prints::

    Foundations: H-6 C-A D-0 S-0
    Freecells: 3D - JH -
    4C 2C 9C 8C QS JD
    ...

* ``Foundations:`` (optional; ``Founds:`` as PySolFC writes it): ``SUIT-RANK`` for each suit
  (``0`` for none). Written only when a foundation holds a card; non-empty foundations are listed
  in f1..f4 order, then the empty suits in H C D S order. Read back, the non-empty ones fill f1,
  f2, ... in the order given.
* ``Freecells:`` (optional; ``FC:`` as PySolFC writes it): one entry per free cell, ``-`` for
  an empty cell; written only when a cell holds a card. Fewer entries leave the last cells empty.
* Then one line per column t1, t2, ..., **bottom first** (the last card is the one that moves).
  A line may start with ``:``; an empty column is written ``:``.

Read: header spellings in either case and in any order (each once); comments (``#`` to the end
of the line) and blank lines anywhere are skipped. Cards are rank (``A 2..9 T J Q K``; ``10``
and, as Freecell Solver reads it, ``1`` for the ace also read) then suit (``H C D S``), upper case
when written, either case when read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.errors import BadSave
from patience_core.model import Card, PileKind, Position, Rank, Suit

if TYPE_CHECKING:
    from collections.abc import Sequence

    from patience_core.games import Game

__all__ = ["read_fcs", "write_fcs"]

#: Freecell Solver lists foundations hearts, clubs, diamonds, spades.
FCS_SUITS = (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)


def _kinds(game: Game) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """The free cells, foundations and columns of ``game``."""
    return tuple(
        game.pile_indices(kind)
        for kind in (PileKind.FREE_CELL, PileKind.FOUNDATION, PileKind.TABLEAU)
    )  # type: ignore[return-value]


def _code(card: Card) -> str:
    return card.rank.letter + card.suit.letter.upper()


def write_fcs(game: Game, position: Position) -> str:
    """Freecell Solver board text of a free-cell ``position`` (see the module docstring).

    :returns: lines ending in a newline; for a fresh ``ms:N`` deal exactly what
        ``make-microsoft-freecell-board -t N`` prints.
    """
    cell_piles, home_piles, column_piles = _kinds(game)
    lines: list[str] = []
    homes = [position[f] for f in home_piles if position[f]]
    if homes:
        used = [pile[-1].suit for pile in homes]
        parts = [f"{pile[-1].suit.letter.upper()}-{pile[-1].rank.letter}" for pile in homes]
        parts += [f"{s.letter.upper()}-0" for s in FCS_SUITS if s not in used]
        lines.append("Foundations: " + " ".join(parts))
    if any(position[c] for c in cell_piles):
        cells = [_code(position[c][-1]) if position[c] else "-" for c in cell_piles]
        lines.append("Freecells: " + " ".join(cells))
    for t in column_piles:
        lines.append(" ".join(_code(card) for card in position[t]) or ":")
    return "\n".join(lines) + "\n"


def meant_card(text: str) -> str | None:
    """The card a board likely meant by ``text``, which is not a card: the suit written first
    (``HA``, ``S10``: ``AH``, ``TS``) or ``0`` for the ten (``0C``: ``TC``); ``None`` when there
    is no likely reading."""
    readings = [text[1:] + text[:1]]
    if text[:-1] == "0":
        readings.append("T" + text[-1:])
    for reading in readings:
        try:
            return _code(_parse(reading))
        except ValueError:
            continue
    return None


def _parse(text: str) -> Card:
    """The card of a board's code (``1`` also reads as the ace, as Freecell Solver reads it).

    :raises ValueError: for anything else (a face-down ``*`` code included).
    """
    rank, suit = text[:-1], text[-1:]
    if text.startswith("*") or not rank:
        raise ValueError(text)
    try:
        return Card.of(Rank.ACE if rank == "1" else Rank.from_text(rank), Suit.from_letter(suit))
    except KeyError:
        raise ValueError(text) from None


def _card(text: str, where: str) -> Card:
    """The card of ``text``, found ``where`` (for the message).

    :raises BadSave: one line, with the likely meaning (:func:`meant_card`) when there is one.
    """
    try:
        return _parse(text)
    except ValueError:
        meant = meant_card(text)
        hint = f"did you mean {meant}?" if meant else "e.g. 9H, TD, KS"
        raise BadSave(f"{where}: {text[:20]!r} is not a card ({hint})") from None


def _foundations(fields: Sequence[str], where: str) -> list[tuple[Card, ...]]:
    """The foundations of a ``Foundations:`` line's entries, in the order given."""
    piles: list[tuple[Card, ...]] = []
    seen: set[Suit] = set()
    for field in fields:
        suit_text, dash, rank_text = field.partition("-")
        try:
            suit = Suit.from_letter(suit_text)
            top = 0 if rank_text == "0" else int(_parse(rank_text + "H").rank)
        except ValueError:
            raise BadSave(f"{where}: {field[:20]!r} is not SUIT-RANK (e.g. H-5, S-0)") from None
        if not dash or suit in seen:
            raise BadSave(f"{where}: bad or repeated entry {field[:20]!r}")
        seen.add(suit)
        if top:
            piles.append(tuple(Card.of(rank, suit) for rank in range(1, top + 1)))
    return piles


#: The header lines, by each spelling Freecell Solver and PySolFC write (read in either case).
HEADERS = {
    "foundations": "foundations",
    "founds": "foundations",
    "freecells": "free cells",
    "fc": "free cells",
}


def _twice(placed: Sequence[tuple[Card, str, str]], deck: Sequence[Card]) -> str | None:
    """The first card placed twice, in one line: both places, and the cards of ``deck`` then
    missing (a copy usually stands for one); ``None`` when no card is placed twice.

    :param placed: each card with its line (``line 3 (column 1)``) and its place in that line
        (``card 2``, from the bottom card, as the line is written; ``""`` for a line of one card
        per pile): the place in the line is said when both copies are in the same line.
    """
    first: dict[Card, tuple[str, str]] = {}
    for card, where, spot in placed:
        if card in first:
            used = {card for card, _, _ in placed}
            missing = [_code(c) for c in deck if c not in used]
            said = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")
            lacking = f"; {said} {'is' if len(missing) == 1 else 'are'} missing" if missing else ""
            before, before_spot = first[card]
            if before == where and spot:
                before = f"{before[:-1]}, {before_spot})"
                where = f"{where[:-1]}, {spot})"
            return f"card {_code(card)} appears too often: {before} and {where}{lacking}"
        first[card] = (where, spot)
    return None


def read_fcs(game: Game, text: str) -> Position:
    """The free-cell position described by Freecell Solver board ``text``.

    Comments (``#`` to the end of the line) and blank lines are skipped anywhere; the header
    lines may come in any order, each at most once, spelt as in :data:`HEADERS`.

    :raises BadSave: with a one-line message for a malformed line, a wrong number of columns,
        free cells or foundations, a card placed twice (both places and the card then
        missing), or cards that are not one full deck.
    """
    cell_piles, home_piles, column_piles = _kinds(game)
    foundations: list[tuple[Card, ...]] = []
    cells: list[tuple[Card, ...]] = []
    columns: list[tuple[int, str]] = []
    headers: dict[str, int] = {}
    placed: list[tuple[Card, str, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.partition("#")[0].strip()
        if not line:
            continue
        head, colon, rest = line.partition(":")
        kind = HEADERS.get(head.strip().lower()) if colon else None
        if kind is None:
            columns.append((number, line.removeprefix(":")))
            continue
        where = f"line {number} ({kind})"
        if kind in headers:
            raise BadSave(f"{where}: a second {kind} line (the first is line {headers[kind]})")
        headers[kind] = number
        if kind == "foundations":
            foundations = _foundations(rest.split(), where)
            placed += [(card, where, "") for pile in foundations for card in pile]
            continue
        entries = rest.split()
        if len(entries) > len(cell_piles):
            raise BadSave(
                f"{where}: {len(entries)} entries; {game.title} has {len(cell_piles)} free cells"
            )
        cells = [() if e == "-" else (_card(e, where),) for e in entries]
        placed += [
            (c[0], f"line {number} (free cell {k})", "") for k, c in enumerate(cells, 1) if c
        ]
    if len(columns) != len(column_piles):
        lines_ = "line" if len(columns) == 1 else "lines"
        raise BadSave(
            f"board has {len(columns)} column {lines_}; "
            f"{game.title} has {len(column_piles)} columns"
        )
    piles = []
    for k, (number, line) in enumerate(columns, 1):
        where = f"line {number} (column {k})"
        piles.append(tuple(_card(code, where) for code in line.split()))
        placed += [(card, where, f"card {i}") for i, card in enumerate(piles[-1], 1)]
    problem = _twice(placed, game.new_deck())
    if problem:
        raise BadSave(problem)
    cells += [()] * (len(cell_piles) - len(cells))
    foundations += [()] * (len(home_piles) - len(foundations))
    position = Position(tuple(cells + foundations + piles))
    game.check_position(position)
    return position
