"""Automatic players for ``patience simulate``: the strategy interface, registry and built-ins.

Layer 3. A strategy picks one legal move per turn. Strategies are registered through the
``patience_register_strategies`` hook, so plugins can add players; the built-in ``random`` and
``greedy`` players are registered through the same hook by :mod:`patience_core.plugins`, and so
are the search-backed ``solver`` and ``honest`` players (they live in :mod:`patience_core.solve`,
over the solver).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import attrs

from patience_core.engine import GRand
from patience_core.errors import PatienceError, PluginError, shown
from patience_core.games._game import Game
from patience_core.model import Move, MoveKind, PileKind, Position

__all__ = [
    "GreedyStrategy",
    "RandomStrategy",
    "Strategy",
    "StrategyFactory",
    "StrategyRegistry",
]


class Strategy(Protocol):
    """A player: given the position and its legal moves, it chooses one.

    Implementations must be deterministic for a given ``(game, deal seed)``: same choices in every
    process, so simulation rows do not depend on ``--jobs``. No :mod:`random`, no set or hash
    order in decisions.
    """

    def choose(self, position: Position, legal: Sequence[Move]) -> Move | None:
        """Return one of ``legal`` (never empty when called), or ``None`` to resign: the game then
        ends without a result (``stopped`` in simulation rows).

        A player that resigns may say why in an ``outcome`` attribute: ``"dead"`` when it has
        proved that no line wins, ``"unknown"`` when its search ran out of budget; simulation
        rows then show that instead of ``stopped``."""
        ...


#: Builds a strategy for one game of one deal: ``factory(game, seed) -> Strategy``; ``seed`` is a
#: 32-bit integer derived from the deal number and the strategy name
#: (:func:`patience_core.simulate.strategy_seed`).
StrategyFactory = Callable[[Game, int], Strategy]


@attrs.define
class StrategyRegistry:
    """Strategies by name, filled through the ``patience_register_strategies`` hook."""

    _factories: dict[str, StrategyFactory] = attrs.field(factory=dict)
    _help: dict[str, str] = attrs.field(factory=dict)
    _budgeted: dict[str, bool] = attrs.field(factory=dict)
    _providers: dict[str, str] = attrs.field(factory=dict)
    current_plugin: str = "patience-core"

    def add(
        self, name: str, factory: StrategyFactory, help: str = "", budgeted: bool = False
    ) -> None:
        """Register ``factory`` under ``name`` with a one-line ``help``.

        :param budgeted: the factory also takes the keyword arguments ``seconds`` and ``nodes``
            (``float | None``, ``int | None``: a search budget; ``None`` for its default), which
            ``patience simulate --budget/--nodes`` pass, and ``search`` (the game's
            :class:`~patience_core.games.GameSearch`, for the solver).
        :raises PluginError: when ``name`` is taken.
        """
        if name in self._factories:
            raise PluginError(
                f"{self.current_plugin}: strategy {shown(name)} is already registered"
            )
        self._factories[name] = factory
        self._help[name] = help
        self._budgeted[name] = budgeted
        self._providers[name] = self.current_plugin

    def remove_provider(self, distribution: str) -> list[str]:
        """Unregister every strategy ``distribution`` registered (a plugin that failed half way).

        :returns: the names removed, sorted.
        """
        names = sorted(n for n, d in self._providers.items() if d == distribution)
        for name in names:
            for table in (self._factories, self._help, self._budgeted, self._providers):
                table.pop(name, None)
        return names

    def provider(self, name: str) -> str:
        """The distribution that registered strategy ``name`` (``patience-core`` for the
        built-in players).

        :raises PatienceError: for an unknown name (see :meth:`get`).
        """
        self.get(name)
        return self._providers[name]

    def takes_budget(self, name: str) -> bool:
        """Whether strategy ``name`` takes a search budget (see :meth:`add`)."""
        return self._budgeted.get(name, False)

    def get(self, name: str) -> StrategyFactory:
        """The factory of strategy ``name``.

        :raises PatienceError: for an unknown name, listing the known ones.
        """
        try:
            return self._factories[name]
        except KeyError:
            raise PatienceError(
                f"unknown strategy {shown(name, 23)} (known: {', '.join(self.names())})"
            ) from None

    def names(self) -> list[str]:
        """Every registered strategy name, sorted."""
        return sorted(self._factories)

    def help(self, name: str) -> str:
        """The one-line description of strategy ``name``."""
        return self._help.get(name, "")


class RandomStrategy:
    """Plays a uniformly random legal move, from GLib's generator seeded with the deal seed.

    It never resigns; games it cannot finish end at the simulation's move cap.
    """

    def __init__(self, game: Game, seed: int) -> None:
        self._rand = GRand(seed & 0xFFFFFFFF)

    def choose(self, position: Position, legal: Sequence[Move]) -> Move:
        """A uniformly random one of ``legal``."""
        return legal[self._rand.int_range(0, len(legal))]


#: A position's progress as the greedy player sees it: (score, minus face-down cards outside the
#: stock). Compared as a tuple, larger is better.
_Progress = tuple[int, int]


class GreedyStrategy:
    """A game-agnostic greedy player with a short look-ahead. It needs only the :class:`Game`
    interface (legal moves, play, score, win test) and the pile kinds.

    Each turn it searches the positions reachable by at most ``depth`` moves that are not deals,
    breadth first in the game's move order, stopping after ``budget`` calls to ``play`` and
    ``legal_moves`` together. Progress
    is ``(score, -face-down cards outside the stock)``:

    1. a winning line is played at once;
    2. otherwise, if some line reaches more progress than now, the shortest line to the most
       progress is played, move by move (later turns follow it without searching again);
    3. otherwise the player deals, when dealing is legal (the stock is kept for when nothing else
       helps);
    4. otherwise it makes the single move whose result has the most progress, then the most
       legal moves (keeps options open), then comes first in the game's order.

    Positions already reached in this game are never entered again (a seen-set), so the player
    cannot loop. It resigns (returns ``None``) when every move leads back to a seen position, or
    after ``patience`` turns in a row of step 4, which is wandering without progress.

    The search never looks past a move that turns a face-down card (a move into a position with
    fewer face-down cards outside the stock ends its line), so lines are not planned with the
    identity of hidden cards; the position right after such a move is still scored. Deals are
    never searched through either, so the order of the stock is not used.

    :param game: the game played.
    :param seed: unused (the player is deterministic); accepted for the factory signature.
    :param depth: the longest line searched, in moves (default 4).
    :param budget: the most ``play`` plus ``legal_moves`` calls per search (default 300).
    :param patience: how many non-improving turns in a row it makes before resigning (default 60).
    """

    def __init__(
        self,
        game: Game,
        seed: int = 0,
        *,
        depth: int = 4,
        budget: int = 300,
        patience: int = 60,
    ) -> None:
        self._game = game
        self._depth = depth
        self._budget = budget
        self._patience = patience
        self._hidden_piles = tuple(
            i for i, spec in enumerate(game.piles) if spec.kind is not PileKind.STOCK
        )
        self._seen: set[Position] = set()
        self._plan: list[tuple[Position, Move]] = []
        self._stalled = 0
        #: Legal moves computed during this turn's search, by position.
        self._moves: dict[Position, list[Move]] = {}

    def _progress(self, position: Position) -> _Progress:
        hidden = 0
        piles = position.piles
        for i in self._hidden_piles:
            for card in piles[i]:
                if not card.face_up:
                    hidden += 1
        return self._game.score(position), -hidden

    def _search(
        self, position: Position, legal: Sequence[Move], base: _Progress
    ) -> list[tuple[Position, Move]] | None:
        """The line to play (``(position before, move)`` pairs), or ``None`` if no line
        improves on ``base``. Fills ``self._moves`` with the legal moves it computed."""
        game = self._game
        seen = self._seen
        known = self._moves
        known[position] = list(legal)
        visited: dict[Position, tuple[Position, Move] | None] = {position: None}
        frontier: list[Position] = [position]
        best: _Progress = base
        best_end: Position | None = None
        cost = 0
        for _level in range(self._depth):
            next_frontier: list[Position] = []
            for here in frontier:
                moves = known.get(here)
                if moves is None:
                    if cost >= self._budget:
                        break
                    cost += 1
                    moves = known[here] = game.legal_moves(here)
                for move in moves:
                    if move.kind is MoveKind.DEAL:
                        continue
                    if cost >= self._budget:
                        break
                    cost += 1
                    after = game.play(here, move)
                    if after in visited or after in seen:
                        continue
                    visited[after] = (here, move)
                    if game.is_won(after):
                        return _line(visited, after)
                    progress = self._progress(after)
                    if progress > best:
                        best, best_end = progress, after
                    if progress[1] <= base[1]:  # no card was turned on this line
                        next_frontier.append(after)
            frontier = next_frontier
            if not frontier or cost >= self._budget:
                break
        return None if best_end is None else _line(visited, best_end)

    def choose(self, position: Position, legal: Sequence[Move]) -> Move | None:
        """The next move by the rules in the class description, or ``None`` to resign."""
        self._seen.add(position)
        if self._plan:
            before, move = self._plan.pop(0)
            if before == position:
                return move
            self._plan.clear()
        self._moves = {}
        base = self._progress(position)
        line = self._search(position, legal, base)
        if line is not None:
            self._stalled = 0
            self._plan = line[1:]
            return line[0][1]
        for move in legal:
            if move.kind is MoveKind.DEAL:
                self._stalled = 0
                return move
        self._stalled += 1
        if self._stalled > self._patience:
            return None
        game = self._game
        known = self._moves
        best_key: tuple[_Progress, int] | None = None
        best_move: Move | None = None
        for move in legal:
            after = game.play(position, move)
            if after in self._seen:
                continue
            moves = known.get(after)
            if moves is None:
                moves = game.legal_moves(after)
            mobility = len(moves)
            key = (self._progress(after), mobility)
            if best_key is None or key > best_key:
                best_key, best_move = key, move
        return best_move


def _line(
    visited: dict[Position, tuple[Position, Move] | None], end: Position
) -> list[tuple[Position, Move]]:
    """Walk the search's parent links back from ``end``: the ``(position, move)`` pairs in play
    order."""
    line: list[tuple[Position, Move]] = []
    step = visited[end]
    while step is not None:
        line.append(step)
        step = visited[step[0]]
    line.reverse()
    return line
