"""The solver's view of a game: states, the steps between them, and what they mean.

Layer 3 (plugin API). The solver's depth-first search (:mod:`patience_core.solve`) runs over a
:class:`SearchSpace`. By default that is :class:`PositionSpace`, which works through the game's
rules and its search object (:class:`~patience_core.games.GameSearch`), so every game,
third-party ones included, is solved. A game whose positions are slow to copy may give the
solver its own compact space through :meth:`GameSearch.search_space
<patience_core.games.GameSearch.search_space>` (small tuples or integers for states): the same
search and the same verdicts, several times faster per position.

A search space is part of the rules: it must offer exactly the moves the game allows (up to
results with equal keys), or "dead" becomes a lie. :func:`patience_core.testing.check_search_space`
compares one with the game's own rules along random lines of play.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, runtime_checkable

from patience_core.errors import PluginError
from patience_core.model import Move, Position

#: More forced moves in a row than any game makes (a chain is at most a few deals' worth of
#: cards): a longer chain is a forced_move that cycles.
MAX_FORCED_MOVES = 10_000

if TYPE_CHECKING:
    from patience_core.games._search import GameSearch

__all__ = ["PositionSpace", "SearchSpace"]

State = TypeVar("State")
Step = TypeVar("Step")


@runtime_checkable
class SearchSpace(Protocol[State, Step]):
    """The rules from one start position, in whatever form searches fastest.

    ``State`` is any value (a position, a tuple); ``Step`` is what leads from a state to a child
    (a move, a few small integers). The solver never looks inside either.
    """

    def start(self) -> tuple[State, int]:
        """The state the search starts from, and the positions reaching it cost (e.g. forced
        moves played first; usually 0)."""
        ...

    def children(self, state: State) -> Iterator[tuple[Step, State, int]]:
        """The states one step away, best first, each as ``(step, child, positions)`` where
        ``positions`` (at least 1) is what producing the child cost, for the node budget.

        Every legal move must lead to one of the children or to a state with the same
        :meth:`key` as one of them (or as ``state``); leaving out any other move makes "dead" a
        lie. Called lazily: the solver may stop iterating at any point.
        """
        ...

    def key(self, state: State) -> Hashable:
        """A transposition key: equal keys must mean the same future (same lines, same win)."""
        ...

    def is_won(self, state: State) -> bool:
        """Whether ``state`` is won."""
        ...

    def is_dead(self, state: State) -> bool:
        """A cheap proof that no line wins from ``state`` (``True``), or ``False`` when unsure."""
        ...

    def moves(self, steps: Sequence[Step]) -> list[Move]:
        """The game's moves for ``steps`` taken one after another from :meth:`start`, beginning
        at the start position (so they replay with :meth:`Game.apply`)."""
        ...


class PositionSpace:
    """The default search space: positions, through the game's search object.

    Children are :meth:`GameSearch.moves_to_try` played with :meth:`GameSearch.play`, each
    followed by the :meth:`GameSearch.forced_move` chain (a step is the move and its forced
    moves, and costs one position per move); keys are :meth:`GameSearch.key`; dead ends are
    :meth:`GameSearch.is_dead`. The start is the given position after its own forced moves,
    which :meth:`moves` puts first.

    :param search: the game's search object (the generic ``GameSearch(game)`` for the rules
        alone).
    :param position: where the search starts.
    """

    def __init__(self, search: GameSearch, position: Position) -> None:
        from patience_core.games._search import is_default

        self.search = search
        self.game = search.game
        self._has_forced = not is_default(search, "forced_move")
        self._has_dead = not is_default(search, "is_dead")
        # The game's own play when the search object keeps the default: one call less a move.
        self._play = self.game.play if is_default(search, "play") else search.play
        self._start, self._prefix = self._follow(position, [])

    def _follow(self, position: Position, steps: list[Move]) -> tuple[Position, tuple[Move, ...]]:
        game, play = self.game, self._play
        if self._has_forced:
            forced_move = self.search.forced_move
            while not game.is_won(position):
                move = forced_move(position)
                if move is None:
                    break
                position = play(position, move)
                steps.append(move)
                # A chain no game needs: a forced_move that cycles would hang the search past
                # its budget; the conformance kit names the cycle itself.
                if len(steps) > MAX_FORCED_MOVES:
                    raise PluginError(
                        f"the {game.name} search's forced_move never stops: more than "
                        f"{MAX_FORCED_MOVES:,} forced moves in a row (a cycle?)"
                    )
        return position, tuple(steps)

    def start(self) -> tuple[Position, int]:
        """The given position after its forced moves, and how many there were."""
        return self._start, len(self._prefix)

    def children(self, state: Position) -> Iterator[tuple[tuple[Move, ...], Position, int]]:
        """Each solver move with its forced moves: ``(moves, child, len(moves))``."""
        play = self._play
        if not self._has_forced:
            # No chain to follow: a step is one move (about 3% of Baker's Game's solve time).
            for move in self.search.moves_to_try(state):
                yield (move,), play(state, move), 1
            return
        for move in self.search.moves_to_try(state):
            child, step = self._follow(play(state, move), [move])
            yield step, child, len(step)

    def key(self, state: Position) -> Hashable:
        """:meth:`GameSearch.key`."""
        return self.search.key(state)

    def is_won(self, state: Position) -> bool:
        """``Game.is_won``."""
        return self.game.is_won(state)

    def is_dead(self, state: Position) -> bool:
        """:meth:`GameSearch.is_dead` (``False`` without a call when the search object keeps the
        default)."""
        return self._has_dead and self.search.is_dead(state)

    def moves(self, steps: Sequence[tuple[Move, ...]]) -> list[Move]:
        """The start's forced moves, then every step's moves."""
        return [*self._prefix, *(move for step in steps for move in step)]


#: What :meth:`GameSearch.search_space` returns: a search space of any state and step types.
AnySpace = SearchSpace[Any, Any]
