"""The rule against circles checked along a game played (docs/solver.md, "Hints", "No
circles"): a position comes back only by a forced move, or when every other move is a trap or
proved dead.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from patience_core.games import GameSearch
from patience_core.model import Move, Position
from patience_core.solve import Verdict, circle_form, dead_check, has_hidden, is_trap

__all__ = ["check_no_repeat"]


def check_no_repeat(
    search: GameSearch, position: Position, moves: Sequence[Move], dead_nodes: int
) -> None:
    """Along ``moves`` from ``position``, a position repeats (the same piles and cards, free
    cells in any order: :func:`~patience_core.solve.circle_form`) only by a
    forced move or, with nothing face down, when every move that does not lead back is into a
    trap or proved dead (a dead check of ``dead_nodes`` positions): the honest player's rule.

    :param search: the game's search object (its ``game`` plays the moves).
    :raises AssertionError: at the first repeat the rule does not allow.
    """
    game = search.game
    entered: set[Hashable] = {circle_form(game, position)}
    for move in moves:
        legal = game.legal_moves(position)
        after = game.play(position, move)
        if circle_form(game, after) in entered and len(legal) > 1:
            assert not has_hidden(position)
            for other in legal:
                child = game.play(position, other)
                if circle_form(game, child) in entered or is_trap(search, child, entered):
                    continue
                check = dead_check(game, child, nodes=dead_nodes, search=search)
                assert check.verdict is Verdict.DEAD
        entered.add(circle_form(game, after))
        position = after
