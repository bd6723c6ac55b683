"""The spider family's words: its rules text, written from a declaration, and why it refuses a
move (the deal rule, runs in suit, complete suits only to a foundation), before the generic
reasons of :meth:`Game.why_illegal <patience_core.games.Game.why_illegal>`.

Layer 3½ (above :mod:`patience_core.games`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from patience_core.engine import counted
from patience_core.families._policies import POLICIES
from patience_core.model import Move, MoveKind, PileKind, Position

if TYPE_CHECKING:
    from patience_core.families._spider import SpiderFamily

__all__ = ["spider_reason", "spider_rules"]


def _text(table: Mapping[str, object], name: str) -> str:
    policy = table.get(name)
    return str(getattr(policy, "text", name))


def spider_rules(cls: type[SpiderFamily]) -> str:
    """The rules text of a spider declaration, ``own_rules`` last."""
    from patience_core.families._spider import face_down_counts

    downs = face_down_counts(cls.face_down) or ()
    deck = POLICIES.decks.get(cls.deck)
    size = len(deck.cards()) if deck else 0
    suits = size // 13
    dealt = sum(downs) + len(downs)
    shape = ", ".join(str(d + 1) for d in downs)
    layout = (
        f"Layout: {deck.text if deck else cls.deck}. {counted(cls.columns, 'column')} "
        f"t1-t{cls.columns} of {shape} cards ({dealt} cards), only the top card of each face "
        f"up; a stock s of {size - dealt} face-down cards; {counted(suits, 'foundation')} "
        f"f1-f{suits}, empty at the start."
    )
    goal = (
        "Goal: assemble each suit as one run King down to Ace. A complete run may stay on the "
        "tableau or go to an empty foundation; the game is won when all "
        f"{counted(suits, 'suit')} are complete, in any mix."
        if cls.suit_removal == "by-move"
        else "Goal: assemble each suit as one run King down to Ace: a complete run goes to an "
        "empty foundation at once, by itself. The game is won when all "
        f"{counted(suits, 'suit')} are complete."
    )
    play = (
        f"Play: a run of face-up cards built {_text(POLICIES.builds, cls.run)} (a single card is "
        f"a run) may move onto a card, building {_text(POLICIES.builds, cls.build)}, or into "
        f"an empty column, which takes {_text(POLICIES.empties, cls.empty_column)}. Only a "
        "complete King-to-Ace run of 13 cards may go to a foundation. A face-down card left on "
        "top of a column is turned face up."
    )
    rest = (size - dealt) % cls.columns
    deal = (
        f"Deal: 'deal' (or 's') deals one card face up onto each column, t1 to t{cls.columns}."
        + ("" if cls.deal_onto_empty else " It is refused while any column is empty.")
        + (f" The last deal has {rest} cards, for t1-t{rest}." if rest else "")
        + " There is no redeal."
    )
    paragraphs = [
        cls.title,
        layout,
        goal,
        play,
        deal,
        "Lost: when no legal move is left (rare: moves usually remain even when the game "
        "cannot be won).",
        "Score: one point for each face-up card lying on the card of its suit one rank "
        f"higher, plus 12 for each suit on the foundations ({cls.max_score} at most).",
        "Moves: 't3 t5' moves the run that fits from t3 onto t5; onto an empty column it takes "
        "the longest run unless a count is given ('t3 t5 2') or a card is named ('9h t5'); "
        "'t3 f' takes a complete run to a foundation.",
    ]
    if cls.own_rules:
        paragraphs.append(cls.own_rules.strip())
    return "\n\n".join(paragraphs) + "\n"


def spider_reason(game: SpiderFamily, position: Position, move: Move) -> str | None:
    """One short sentence for a refused ``move``, or ``None`` to leave it to the generic
    reasons (an empty source, a count too large, a face-down card, ...)."""
    piles = game.piles
    if move.kind is MoveKind.DEAL:
        if not position[0]:
            return "the stock is empty"
        return "fill every empty column before dealing"
    if game.malformed(position, move) or move.target is None or 0 in (move.source, move.target):
        return None
    source, target = piles[move.source].kind, piles[move.target].kind
    if source is PileKind.FOUNDATION:
        return "a completed suit never leaves its foundation"
    pile = position[move.source]
    card = pile[-move.count]
    if not card.face_up:
        return None  # the generic reasons never name a face-down card
    name = game.card_name(card)
    if target is PileKind.FOUNDATION:
        if position[move.target]:
            return f"{piles[move.target].name} holds a completed suit already"
        return "only a complete King-to-Ace run of one suit goes to a foundation"
    if move.count > game.run_length(pile):
        built = "of one suit" if game.run == "same-suit" else _text(POLICIES.builds, game.run)
        return f"{name} and the cards on it are not a run {built}"
    onto = position[move.target]
    if not onto:
        return f"an empty column takes {_text(POLICIES.empties, game.empty_column)}, not {name}"
    rule = (
        "goes on a card one rank higher"
        if game.build == "any-suit"
        else f"builds {_text(POLICIES.builds, game.build)}"
    )
    return f"a run {rule}: {name} does not go on {game.card_name(onto[-1])}"
