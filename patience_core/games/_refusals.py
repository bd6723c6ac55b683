"""Why a move is refused: the generic reasons of :meth:`Game.why_illegal
<patience_core.games.Game.why_illegal>`, from the piles' kinds and the engine's building blocks
(issue 18, item 9). Games add their own rules by overriding the method; these are the words
for what every game shares (an empty stock, a covered card, a pile without that many cards).
"""

from __future__ import annotations

from collections.abc import Sequence

from patience_core.engine import counted, face_up_length
from patience_core.model import Card, Move, MoveKind, PileKind, PileSpec, Position

__all__ = ["card_name", "generic_reason"]


def card_name(card: Card) -> str:
    """A card as messages name it: rank letter and suit symbol, ``"8♥"``, ``"T♠"``."""
    return f"{card.rank.letter}{card.suit.symbol}"


def _covered(cards: Sequence[Card]) -> str:
    names = [card_name(card) for card in cards]
    if len(names) <= 3:
        return " and ".join(names) if len(names) < 3 else f"{names[0]}, {names[1]} and {names[2]}"
    return f"{counted(len(names), 'card')}"


def generic_reason(
    piles: Sequence[PileSpec], position: Position, move: Move, legal: Sequence[Move]
) -> str:
    """One short sentence naming why ``move`` (not among ``legal``) breaks the rules, from
    what any game shares; the last resort is "that move is not allowed here".

    :param piles: the game's layout.
    :param legal: the legal moves of ``position``.
    """
    if move.kind is MoveKind.DEAL:
        stocks = [i for i, spec in enumerate(piles) if spec.kind is PileKind.STOCK]
        if not stocks:
            return "this game has no stock"
        if not any(position[i] for i in stocks):
            return "the stock is empty"
        return "no deal is possible now"
    target = move.target
    if target is None or not 0 <= move.source < len(piles) or not 0 <= target < len(piles):
        return "that move names no pile of this game"
    source_name, target_spec = piles[move.source].name, piles[target]
    pile = position[move.source]
    if move.source == target:
        return f"the cards are on {source_name} already"
    if piles[move.source].kind is PileKind.STOCK:
        return "cards leave the stock only by a deal"
    if target_spec.kind is PileKind.STOCK:
        return "no card goes back to the stock"
    if not pile:
        return f"nothing to move: {source_name} is empty"
    if move.count < 1:
        return "the count must be at least 1"
    if move.count > len(pile):
        return f"{source_name} has only {counted(len(pile), 'card')}"
    moving = pile[len(pile) - move.count :]
    bottom = moving[0]
    if not bottom.face_up:
        # Never name a face-down card: the refusal must not show what the player cannot see.
        up = face_up_length(pile)
        return f"{source_name} has only {counted(up, 'face-up card')}"
    if move.count > 1:
        lying = list(moving[1:])
        sources = {m.count for m in legal if m.source == move.source}
        if not sources or max(sources) < move.count:
            return f"{card_name(bottom)} is covered by {_covered(lying)}"
    leaving = [m for m in legal if m.kind is MoveKind.TRANSFER and m.source == move.source]
    if not leaving and piles[move.source].kind is PileKind.FOUNDATION:
        return "cards do not leave the foundations"
    kind = target_spec.kind
    onto = position[target]
    if kind is PileKind.WASTE:
        return "the waste takes cards from the stock only"
    if kind is PileKind.FREE_CELL:
        if onto:
            return f"{target_spec.name} is taken by {card_name(onto[-1])}"
        return "a free cell holds one card"
    if kind is PileKind.FOUNDATION:
        if move.count > 1:
            return "a foundation takes one card at a time"
        elsewhere = [
            m
            for m in leaving
            if m.count == move.count and m.target is not None and piles[m.target].kind is kind
        ]
        if elsewhere and elsewhere[0].target is not None:
            return f"{card_name(bottom)} goes on {piles[elsewhere[0].target].name}"
        if not onto:
            return f"{card_name(bottom)} cannot start a foundation"
        return f"{card_name(bottom)} does not go on {card_name(onto[-1])} on {target_spec.name}"
    if kind is PileKind.RESERVE:
        return f"{target_spec.name} is a reserve: cards only leave it"
    if not onto:
        return f"{card_name(bottom)} may not fill the empty {target_spec.name}"
    return f"{card_name(bottom)} does not build on {card_name(onto[-1])}"
