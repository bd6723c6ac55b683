"""The search protocol: how a game makes the solver faster, apart from its rules.

Layer 3 (plugin API). A :class:`~patience_core.games.Game` holds the rules only. Everything that
only speeds the solver up lives in one optional class per game, a subclass of
:class:`GameSearch`, registered beside the game::

    registry.add(Bristol, search=BristolSearch)

Every member has a correct default, so ``GameSearch(game)`` solves any game through its rules
alone; a game overrides what it can do better. The plugin host hands the solver the game's
registered class (``host.search(game)``), or this default for a game registered without one.
The conformance kit (:mod:`patience_core.testing`) checks a game's search object against the
default one. See ``docs/search-api.md``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from patience_core.games._searchspace import AnySpace
from patience_core.model import Move, MoveKind, PileKind, Position

if TYPE_CHECKING:
    from patience_core.games._game import Game

__all__ = ["GameSearch", "is_default"]


class GameSearch:
    """The solver's helpers for one game; subclass it once per game to make the solver faster.

    Instances are cheap and hold no state of a search: every method is a pure function of its
    arguments and of the game (the rules and options in force), and deterministic (no hash or
    set order, no clock). A wrong answer in :meth:`key`, :meth:`forced_move`,
    :meth:`moves_to_try`, :meth:`play`, :meth:`is_dead` or :meth:`search_space` makes the solver
    call winnable deals dead; a wrong :meth:`order_moves` or :meth:`find_win` only costs time.

    :param game: the game whose positions are searched (with its options in force).
    """

    def __init__(self, game: Game) -> None:
        #: The game searched: its rules (``legal_moves``, ``play``, ``is_won``) and options.
        self.game = game

    def key(self, position: Position) -> Hashable:
        """A compact key for the solver's transposition table: two positions with equal keys must
        have the same future (same legal lines, same win). The default is the position itself;
        a game gives smaller keys, and puts interchangeable piles (free cells, the columns of a
        FreeCell-like game) in a canonical order so that symmetric positions meet.
        """
        return position

    def forced_move(self, position: Position) -> Move | None:
        """A legal move the solver may take without branching because it never spoils a win (a
        dominance move, e.g. a card to its foundation that nothing can need), or ``None``.

        The default is ``None``: the solver branches on every move. Declare only moves that are
        provably safe: a wrong one makes the solver call winnable deals dead.
        """
        return None

    def order_moves(self, position: Position, moves: list[Move]) -> list[Move]:
        """``moves`` (legal in ``position``) in the order the solver should try them, best first.

        The default tries moves to a foundation first, then other transfers (longer runs first),
        then deals from the stock. Any order is correct; a good one finds wins sooner.
        """
        piles = self.game.piles

        def rank(move: Move) -> tuple[int, int]:
            if move.kind is MoveKind.DEAL:
                return (2, 0)
            assert move.target is not None
            if piles[move.target].kind is PileKind.FOUNDATION:
                return (0, 0)
            return (1, -move.count)

        return sorted(moves, key=rank)

    def moves_to_try(self, position: Position) -> list[Move]:
        """The moves the solver tries from ``position``, best first: a game's fast move
        generation belongs here, not in ``legal_moves``.

        The default is :meth:`order_moves` of every legal move. A game may leave out a move whose
        result has the same :meth:`key` as ``position`` itself or as the result of a move it
        keeps (e.g. a card into the second of two empty free cells), since the solver would find
        that result in its table anyway; leaving out any other move makes "dead" a lie.
        """
        return self.order_moves(position, self.game.legal_moves(position))

    def play(self, position: Position, move: Move) -> Position:
        """``Game.play`` as the search plays it: the same position must come out. The default
        calls the game's ``play``; a game overrides it to play faster, or to keep what it
        works out about a position for the position's children (e.g. from the parent's)."""
        return self.game.play(position, move)

    def is_dead(self, position: Position) -> bool:
        """A cheap proof that no line wins from ``position`` (``True``), or ``False`` when unsure.

        The default is ``False``. It must never answer ``True`` for a winnable position. A
        proof that may take long (a search of its own) should stop with ``False`` once
        :func:`patience_core.api.time_is_up` says the solver's budget is spent.
        """
        return False

    def search_space(self, position: Position) -> AnySpace | None:
        """The rules from ``position`` in the game's own compact form, for the solver's
        exhaustive depth-first search (:class:`~patience_core.games.SearchSpace`), or ``None``.

        The default is ``None``: the search then plays positions through the methods above
        (:class:`~patience_core.games.PositionSpace`). A space with small states searches
        several times faster; it must offer every legal move (up to equal keys), which
        :func:`patience_core.testing.check_search_space` checks. The methods above are then not
        used by the depth-first search (the space does their work).
        """
        return None

    def find_win(
        self, position: Position, nodes: int, seconds: float
    ) -> tuple[Sequence[Move] | None, int]:
        """The game's own search for a winning line (e.g. a heuristic search with unsafe
        pruning), tried by the solver besides its exhaustive search; opt-in.

        It may miss wins: it only ever answers "this line wins" or "none found", never "dead".
        The solver replays every line with ``Game.apply`` and uses it only if it ends won, so a
        wrong line costs time, never a wrong verdict.

        :param nodes: positions to generate at most (a guide; the solver counts what is returned).
        :param seconds: CPU seconds (:func:`time.process_time`) to spend at most. A search
            with a wall-clock cap (a hint's) also sets :func:`patience_core.api.time_is_up`,
            which a long search should ask now and then.
        :returns: (the moves from ``position`` to a win, or ``None``; positions generated).
            The default returns ``(None, 0)`` and is never called: the solver runs only its
            depth-first search for a search object that does not override this method.
        """
        return None, 0


def is_default(search: GameSearch, method: str) -> bool:
    """Whether ``search`` keeps :class:`GameSearch`'s own ``method`` (e.g. ``"find_win"``), so
    that the solver can skip calling it."""
    return getattr(type(search), method) is getattr(GameSearch, method)
