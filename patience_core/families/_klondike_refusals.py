"""Why the klondike family refuses a move: the reasons of its own rules (the deal and redeal,
the waste's single top card, the empty-column and build policies, the foundations' one way),
before the generic ones of :meth:`Game.why_illegal <patience_core.games.Game.why_illegal>`.

Layer 3½ (above :mod:`patience_core.games`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from patience_core.families._policies import POLICIES
from patience_core.model import Move, MoveKind, PileKind, Position

if TYPE_CHECKING:
    from patience_core.families._klondike import KlondikeFamily

__all__ = ["klondike_reason"]


def klondike_reason(game: KlondikeFamily, position: Position, move: Move) -> str | None:
    """One short sentence for a refused ``move``, or ``None`` to leave it to the generic
    reasons (an empty source, a count too large, a face-down or covered card, ...)."""
    piles = game.piles
    if move.kind is MoveKind.DEAL:
        k = game.current_pass(position)
        if position[2 * k] or not position[2 * k + 1]:
            return "the stock and the waste are empty" if not position[2 * k] else None
        if game.redeals == 0:
            return "the stock is empty and there is no redeal"
        return "the stock is empty and no redeal is left"
    if game.malformed(position, move) or move.target is None:
        return None
    source, target = piles[move.source].kind, piles[move.target].kind
    pile = position[move.source]
    if source is PileKind.WASTE:
        if move.source != game.wastes[game.current_pass(position)]:
            return f"{piles[move.source].name} is the waste of another pass"
        if move.count > 1:
            return "only the waste's top card may move"
    if source is PileKind.FOUNDATION and target is not PileKind.FOUNDATION:
        if not game.foundation_to_tableau:
            return "cards never leave the foundations"
        if move.count > 1:
            return "only a foundation's top card may move"
    if source is PileKind.FOUNDATION and target is PileKind.FOUNDATION:
        return "a foundation's card goes back only to the tableau"
    if target is not PileKind.TABLEAU or source is PileKind.STOCK:
        return None
    bottom = pile[-move.count]
    if not bottom.face_up or game.run_length(pile) < move.count:
        return None  # a face-down or covered card: the generic reasons say it without naming it
    onto = position[move.target]
    if not onto:
        empty = POLICIES.empties.get(game.empty_column)
        text = empty.text if empty else game.empty_column
        return f"an empty column takes {text}, not {game.card_name(bottom)}"
    build = POLICIES.builds.get(game.build)
    text = build.text if build else game.build
    return (
        f"{game.title} builds {text}: {game.card_name(bottom)} does not go on "
        f"{game.card_name(onto[-1])}"
    )
