"""The first answer of a hint, at once, and the rule that a hint never goes round in circles.

Layer 4, over :mod:`patience_core.solve`. :func:`quick_hint` names a move without a search: the
search object's forced move (a move that never spoils a win), else its first choice that neither
comes back to a position of the game's history nor is proved dead by the search object's cheap
:meth:`~patience_core.games.GameSearch.is_dead`. The stream of :mod:`patience_core.solve._stream`
gives it as its first answer (within :data:`HINT_FIRST_SECONDS`) unless a small search decides
the position first.

The rule against circles is :mod:`patience_core.solve._circles`'s.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Sequence

from patience_core.games import Game, GameSearch
from patience_core.model import Move, Position
from patience_core.solve._circles import avoiding_circles, leads_back
from patience_core.solve._hints import Hint, hidden_wording
from patience_core.solve._honest import has_hidden, visible_view

__all__ = [
    "HINT_FIRST_SECONDS",
    "QUICK_NODES",
    "quick_hint",
]

#: The first answer of a hint comes within this many wall-clock seconds.
HINT_FIRST_SECONDS = 0.3
#: Positions the small exhaustive search before the first answer gets (a won or dead position
#: it decides is answered at once, finally).
QUICK_NODES = 500

#: The reason of a quick answer from a forced move.
SAFE = "a safe move (it never spoils a win)"
#: The reason of a quick answer from the move order.
FIRST_CHOICE = "the search's first choice, not judged yet"


def quick_hint(
    game: Game,
    search: GameSearch,
    position: Position,
    legal: Sequence[Move],
    mode: str,
    seen: set[Hashable],
    started: float,
) -> Hint:
    """The first answer of a hint, without a search (see the module description); ``stage``
    ``"quick"``, not final. In honest mode the forced move and the move order are asked of
    what the player sees (:func:`visible_view`), so the answer uses no face-down card.

    :param legal: the legal moves of ``position`` (not empty).
    :param seen: the positions of the game's history (:func:`seen_positions`).
    :param started: the :func:`time.perf_counter` time the hint started.
    """
    hidden = has_hidden(position)
    view = visible_view(position) if hidden else position
    forced = search.forced_move(view)
    if forced is not None and forced in legal and not leads_back(search, position, forced, seen):
        return _quick(game, position, forced, SAFE, mode, started)
    ordered = avoiding_circles(search, position, search.order_moves(view, list(legal)), seen)
    move = ordered[0]
    if not hidden:
        # A move the cheap proof shows leads to a dead position comes after the others (the
        # proof would read the face-down cards, so it is used with every card in view only).
        # At most three: a game's proof may cost far more than a move.
        move = next((m for m in ordered[:3] if not search.is_dead(game.play(position, m))), move)
    why = FIRST_CHOICE
    if hidden:
        why += f" (no {hidden_wording(game, position)} sampled yet)"
    return _quick(game, position, move, why, mode, started)


def _quick(
    game: Game, position: Position, move: Move, reason: str, mode: str, started: float
) -> Hint:
    return Hint(
        move,
        game.move_text(position, move),
        reason,
        mode,
        "unknown",
        seconds=time.perf_counter() - started,
        final=False,
        stage="quick",
    )
