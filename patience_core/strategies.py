"""Automatic players for ``patience simulate``: the strategy interface, registry and built-ins.

Layer 3. A strategy picks one legal move per turn. Strategies are registered through the
``patience_register_strategies`` hook, so plugins can add players; the built-in ``random`` and
``greedy`` players are registered through the same hook by :mod:`patience_core.builtins`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

import attrs

from patience_core.engine.rng import GRand
from patience_core.errors import PatienceError, PluginError
from patience_core.games import Game
from patience_core.model import Move, MoveKind, Position

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
    process, so simulation rows do not depend on ``--jobs``.
    """

    def choose(self, position: Position, legal: Sequence[Move]) -> Move:
        """Return one of ``legal`` (never empty when called)."""
        ...


#: Builds a strategy for one game of one deal: ``factory(game, seed) -> Strategy``; ``seed`` is a
#: 32-bit integer derived from the deal number.
StrategyFactory = Callable[[Game, int], Strategy]


@attrs.define
class StrategyRegistry:
    """Strategies by name, filled through the ``patience_register_strategies`` hook."""

    _factories: dict[str, StrategyFactory] = attrs.field(factory=dict)
    _help: dict[str, str] = attrs.field(factory=dict)
    current_plugin: str = "patience-core"

    def add(self, name: str, factory: StrategyFactory, help: str = "") -> None:
        """Register ``factory`` under ``name`` with a one-line ``help``.

        :raises PluginError: when ``name`` is taken.
        """
        if name in self._factories:
            raise PluginError(f"{self.current_plugin}: strategy {name!r} is already registered")
        self._factories[name] = factory
        self._help[name] = help

    def get(self, name: str) -> StrategyFactory:
        """The factory of strategy ``name``.

        :raises PatienceError: for an unknown name, listing the known ones.
        """
        try:
            return self._factories[name]
        except KeyError:
            raise PatienceError(
                f"unknown strategy {name!r} (known: {', '.join(self.names())})"
            ) from None

    def names(self) -> list[str]:
        """Every registered strategy name, sorted."""
        return sorted(self._factories)

    def help(self, name: str) -> str:
        """The one-line description of strategy ``name``."""
        return self._help.get(name, "")


class RandomStrategy:
    """Plays a uniformly random legal move, from GLib's generator seeded with the deal seed."""

    def __init__(self, game: Game, seed: int) -> None:
        self._rand = GRand(seed & 0xFFFFFFFF)

    def choose(self, position: Position, legal: Sequence[Move]) -> Move:
        """A uniformly random one of ``legal``."""
        return legal[self._rand.int_range(0, len(legal))]


class GreedyStrategy:
    """Plays the move whose result scores highest, avoiding positions it has already seen.

    Ties go to moves that are not deals (keep the stock for when nothing else works), then to the
    result with the most legal moves (keep options open), then to the earliest move in the game's
    order. A move back to a position already visited in this game is taken only when nothing else
    remains, so the player cannot loop between two positions.
    """

    def __init__(self, game: Game, seed: int) -> None:
        self._game = game
        self._seen: set[Position] = set()

    def choose(self, position: Position, legal: Sequence[Move]) -> Move:
        """The best of ``legal`` by (new position, score, not a deal, mobility, game order)."""
        game = self._game
        self._seen.add(position)
        best: tuple[int, int, int, int, int] | None = None
        best_move = legal[0]
        for order, move in enumerate(legal):
            after = game.play(position, move)
            key = (
                0 if after in self._seen else 1,
                game.score(after),
                0 if move.kind is MoveKind.DEAL else 1,
                len(game.legal_moves(after)) if move.kind is not MoveKind.DEAL else 0,
                -order,
            )
            if best is None or key > best:
                best, best_move = key, move
        return best_move
