"""Move notation: reading what a player types, and writing moves back as text.

The notation is generic over every game (docs/cli.md, "Move notation"):

* ``deal`` (also ``d``, or the stock's pile name alone): deal from the stock.
* ``SRC DST`` with pile names, e.g. ``t1 f``, ``t3 t5``, ``c1 t2``; also written together
  (``t3t5``). A pile kind's letter alone (``f``, ``c``, ``t``) means "any pile of that kind".
* ``SRC DST N``: move N cards (a run).
* ``CARD`` or ``CARD DST``: the card, and every card on top of it, e.g. ``9h`` or ``9h t4``.
* A source alone (``t3``) when only one move leaves it.

When several legal moves match, the longest run is taken, then the first matching destination; a
text that leaves the source open, or leaves the destination open between tableau piles, is reported
as ambiguous with the candidates.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from patience_core.errors import BadMoveText, IllegalMove, shown
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position

__all__ = ["NOTATION_HELP", "counted", "format_move", "parse_move", "read_candidate", "shown"]
__all__ += ["unseen_card"]

#: Ends the message of a move that cannot be read, for a player typing it (left out where no
#: player typed the move, e.g. a save that does not replay).
NOTATION_HELP = "; type 'help' for the notation"

_TOKEN = re.compile(r"\*?(?:10|[a2-9tjqk])[cdhs♣♦♥♠]|[a-z]+\d*|\d+", re.I)
_CARD = re.compile(r"^(?:10|[a2-9tjqk])[cdhs♣♦♥♠]$", re.I)
_DEAL_WORDS = ("deal", "d")
#: Pile kinds whose piles a player does not tell apart as a destination: "to a foundation" or "to a
#: free cell" means the first one that takes the card, as Aisleriot's double-click does.
_INTERCHANGEABLE = (PileKind.FOUNDATION, PileKind.FREE_CELL)
#: Letters that stand for "any pile of this kind".
KIND_LETTERS = {
    "f": PileKind.FOUNDATION,
    "t": PileKind.TABLEAU,
    "c": PileKind.FREE_CELL,
    "r": PileKind.RESERVE,
    "w": PileKind.WASTE,
    "s": PileKind.STOCK,
}


def format_move(piles: Sequence[PileSpec], move: Move, legal: Sequence[Move] | None = None) -> str:
    """The canonical text of ``move``: ``deal``, ``SRC DST``, or ``SRC DST N``.

    The count N is written when more than one card moves, or when ``legal`` holds another move
    between the same piles with another count (a bare ``SRC DST`` reads as the longest run).
    Canonical text is what saved games store and what hints print; :func:`parse_move` reads it back
    to the same move when given the same legal moves.
    """
    if move.kind is MoveKind.DEAL:
        return "deal"
    assert move.target is not None
    text = f"{piles[move.source].name} {piles[move.target].name}"
    longer = legal is not None and any(
        m.source == move.source and m.target == move.target and m.count > move.count for m in legal
    )
    return f"{text} {move.count}" if move.count > 1 or longer else text


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless the count is one: ``"1 move"``, ``"3 moves"``."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


#: The readings of an ambiguous move its message lists at most.
_AMBIGUOUS_SHOWN = 6

#: Digits a move's card count is read with at most: a longer count names no move.
_COUNT_DIGITS = 6


def _tokens(text: str) -> tuple[list[str], list[str]]:
    """The tokens of ``text`` (lower case), and for each one what the player typed from its
    start to the end of its word: ``9x`` gives the tokens ``9`` and ``x``, and a message about
    the token ``9`` quotes ``9x``, not a ``9`` nobody typed alone."""
    typed = text.strip()
    # Separators become spaces of the same length, so positions in both texts agree.
    cleaned = typed.replace(",", " ").replace("->", "  ").replace(">", " ")
    matches = list(_TOKEN.finditer(cleaned))
    if "".join(m.group() for m in matches) != re.sub(r"\s+", "", cleaned):
        raise BadMoveText(f"cannot read move {shown(text)}{NOTATION_HELP}")
    words = [typed[m.start() : _word_end(cleaned, m.end())] for m in matches]
    return [m.group().lower() for m in matches], words


def _word_end(text: str, index: int) -> int:
    """Where the word of ``text`` that goes on at ``index`` ends (at white space, or the end)."""
    space = re.compile(r"\s").search(text, index)
    return len(text) if space is None else space.start()


def _moved_cards(position: Position, move: Move) -> tuple[Card, ...]:
    pile = position[move.source]
    return pile[len(pile) - move.count :]


def parse_move(
    text: str, piles: Sequence[PileSpec], position: Position, legal: Sequence[Move]
) -> Move:
    """Read the move a player typed.

    :param text: the player's text, e.g. ``"t1 f"``, ``"9h"``, ``"deal"``.
    :param piles: the game's layout.
    :param position: the current position.
    :param legal: the legal moves in ``position``, in the game's order.
    :returns: one of ``legal``.
    :raises BadMoveText: when the text names no pile, card or keyword, or is ambiguous.
    :raises IllegalMove: when the text is readable but no legal move matches it.
    """
    tokens, typed = _tokens(text)
    if not tokens:
        raise BadMoveText(f"empty move{NOTATION_HELP}")
    names = {spec.name: i for i, spec in enumerate(piles)}

    def pile_set(token: str) -> set[int] | None:
        if token in names:
            return {names[token]}
        kind = KIND_LETTERS.get(token)
        if kind is not None:
            return {i for i, spec in enumerate(piles) if spec.kind is kind}
        return None

    # Deals.
    if len(tokens) == 1 and (
        tokens[0] in _DEAL_WORDS
        or (tokens[0] in names and piles[names[tokens[0]]].kind is PileKind.STOCK)
    ):
        deals = [m for m in legal if m.kind is MoveKind.DEAL]
        if deals:
            return deals[0]
        if not any(spec.kind is PileKind.STOCK for spec in piles):
            raise IllegalMove("this game has no stock to deal from")
        raise IllegalMove("no deal is possible now")

    # Source: a pile (or kind) or a card.
    first = tokens[0]
    source_piles = pile_set(first)
    source_card: Card | None = None
    if source_piles is None:
        if not _CARD.match(first.lstrip("*")):
            raise BadMoveText(f"unknown pile or card {shown(typed[0])}{NOTATION_HELP}")
        source_card = Card.from_code(first.lstrip("*"))
    target_piles: set[int] | None = None
    count: int | None = None
    rest = tokens[1:]
    if rest:
        target_piles = pile_set(rest[0])
        if target_piles is None:
            raise BadMoveText(f"unknown pile {shown(typed[1])}{NOTATION_HELP}")
        rest = rest[1:]
    if rest:
        if not rest[0].isdigit() or len(rest) > 1:
            raise BadMoveText(f"cannot read move {shown(text)}{NOTATION_HELP}")
        # No pile holds a count of more digits (and Python reads no more than 4,300): such a
        # count names no move, as a count of 0 does.
        digits = rest[0].lstrip("0")
        count = int(digits) if 0 < len(digits) <= _COUNT_DIGITS else 0

    matches: list[Move] = []
    for move in legal:
        if move.kind is not MoveKind.TRANSFER:
            continue
        if source_piles is not None and move.source not in source_piles:
            continue
        if source_card is not None:
            bottom = _moved_cards(position, move)[0]
            if (bottom.rank, bottom.suit) != (source_card.rank, source_card.suit):
                continue
        if target_piles is not None and move.target not in target_piles:
            continue
        if count is not None and move.count != count:
            continue
        if (
            target_piles is None
            and move.target is not None
            and piles[move.source].kind is piles[move.target].kind
            and piles[move.source].kind in _INTERCHANGEABLE
        ):
            # "9h" for a card in a free cell never means "to another free cell".
            continue
        matches.append(move)
    if not matches:
        if rest and count == 0:
            # No count below 1 moves cards, and none of more digits fits in a pile.
            why = "the count must be at least 1" if not digits else "no pile holds that many cards"
            raise IllegalMove(f"illegal move {shown(text)}: {why}")
        raise IllegalMove(f"illegal move {shown(text)}")
    sources = {m.source for m in matches}
    targets = {m.target for m in matches}
    interchangeable = all(
        m.target is not None and piles[m.target].kind in _INTERCHANGEABLE for m in matches
    )
    if len(sources) > 1 or (target_piles is None and len(targets) > 1 and not interchangeable):
        readings = sorted({format_move(piles, m) for m in matches})
        listed = ", ".join(readings[:_AMBIGUOUS_SHOWN])
        if len(readings) > _AMBIGUOUS_SHOWN:
            listed = f"{len(readings)} readings, the first {_AMBIGUOUS_SHOWN}: {listed}"
        else:
            listed = f"{len(readings)} readings: {listed}"
        raise BadMoveText(f"move {shown(text)} is ambiguous ({listed}); name both piles")
    best = max(matches, key=lambda m: m.count)
    return min(
        (m for m in matches if m.count == best.count), key=lambda m: (m.target or 0, m.count)
    )


def read_candidate(text: str, piles: Sequence[PileSpec], position: Position) -> Move | None:
    """The move ``text`` names, legal or not, so that a refusal can say which rule it breaks
    (:meth:`Game.why_illegal <patience_core.games.Game.why_illegal>`); ``None`` when the text
    names no single move.

    A deal word (or the stock's name) is a deal; a pile name is that pile, a kind's letter the
    only pile of that kind (a foundation: the one of the card's suit, else the first empty one,
    else the first); a card is the pile holding it, with the cards on it. A move without a
    destination goes to a foundation, else to the waste. Without a count one card moves (from a
    card: that card and the cards on it). A card face down is not found: the refusal would tell
    where it lies.

    :raises BadMoveText: for text that cannot be read at all (as :func:`parse_move`).
    """
    tokens, _typed = _tokens(text)
    if not tokens or len(tokens) > 3:
        return None
    names = {spec.name: i for i, spec in enumerate(piles)}
    stocks = [i for i, spec in enumerate(piles) if spec.kind is PileKind.STOCK]
    stock_names = [piles[i].name for i in stocks]
    if len(tokens) == 1 and (tokens[0] in _DEAL_WORDS or tokens[0] in stock_names):
        return Move.deal(stocks[0]) if stocks else None
    source: int | None = None
    count = 1
    first = tokens[0]
    if first in names:
        source = names[first]
    elif first in KIND_LETTERS:
        kind = KIND_LETTERS[first]
        of_kind = [i for i, spec in enumerate(piles) if spec.kind is kind]
        source = of_kind[0] if len(of_kind) == 1 else None
    elif _CARD.match(first.lstrip("*")):
        wanted = Card.from_code(first.lstrip("*"))
        for index, pile in enumerate(position.piles):
            # Only a card in view: a refusal must not tell where a face-down card lies.
            at = next(
                (
                    k
                    for k, c in enumerate(pile)
                    if c.face_up and (c.rank, c.suit) == (wanted.rank, wanted.suit)
                ),
                None,
            )
            if at is not None:
                source, count = index, len(pile) - at
                break
    if source is None:
        return None
    moving = position[source][-count:] if position[source] else ()
    card = moving[0] if moving else None
    target: int | None = None
    if len(tokens) >= 2:
        if tokens[1] in names:
            target = names[tokens[1]]
        elif tokens[1] in KIND_LETTERS:
            target = _kind_target(KIND_LETTERS[tokens[1]], piles, position, card)
    else:
        target = _kind_target(PileKind.FOUNDATION, piles, position, card)
        if target is None:
            target = _kind_target(PileKind.WASTE, piles, position, card)
    if target is None:
        return None
    if len(tokens) == 3:
        if not tokens[2].isdigit() or len(tokens[2]) > _COUNT_DIGITS:
            return None
        count = int(tokens[2])
    return Move.transfer(source, target, count)


def _kind_target(
    kind: PileKind, piles: Sequence[PileSpec], position: Position, card: Card | None
) -> int | None:
    """The pile of ``kind`` a move to "any pile of that kind" is read as (see
    :func:`read_candidate`)."""
    of_kind = [i for i, spec in enumerate(piles) if spec.kind is kind]
    if len(of_kind) == 1:
        return of_kind[0]
    if not of_kind or kind is not PileKind.FOUNDATION:
        return None
    if card is not None:
        suited = [i for i in of_kind if position[i] and position[i][-1].suit == card.suit]
        if suited:
            return suited[0]
    empty = [i for i in of_kind if not position[i]]
    return empty[0] if empty else of_kind[0]


def unseen_card(text: str, position: Position) -> Card | None:
    """The card ``text`` starts with when it lies nowhere face up in ``position`` (face down,
    or in the stock), else ``None``: a refusal says the card is not in view, and no more."""
    try:
        tokens, _typed = _tokens(text)
    except BadMoveText:
        return None
    if not tokens or not _CARD.match(tokens[0].lstrip("*")):
        return None
    wanted = Card.from_code(tokens[0].lstrip("*"))
    for card in position.cards():
        if card.face_up and (card.rank, card.suit) == (wanted.rank, wanted.suit):
            return None
    return wanted
