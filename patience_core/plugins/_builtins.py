"""patience's own default plugin: the built-in players, registered through the same hooks as any
outside plugin (pluggy's "eggsample" pattern). The plugin host registers this module itself.

The solver-based players are imported only when a game is played with them, so that loading the
plugins (``patience list``) does not import the solver.
"""

from __future__ import annotations

from typing import Any

from patience_core import hookimpl
from patience_core.games import Game, GreedyStrategy, RandomStrategy, Strategy, StrategyRegistry


def solver_player(game: Game, seed: int, **budget: Any) -> Strategy:
    """The ``solver`` player (:class:`patience_core.solve.SolverPlayer`), imported on use.

    :param budget: ``seconds``, ``nodes``, ``search``, as :class:`~patience_core.solve.
        SolverPlayer` takes them.
    """
    from patience_core.solve import SolverPlayer

    return SolverPlayer(game, seed, **budget)


def honest_player(game: Game, seed: int, **budget: Any) -> Strategy:
    """The ``honest`` player (:class:`patience_core.solve.HonestPlayer`), imported on use.

    :param budget: ``seconds``, ``nodes``, ``search``, as :class:`~patience_core.solve.
        HonestPlayer` takes them.
    """
    from patience_core.solve import HonestPlayer

    return HonestPlayer(game, seed, **budget)


@hookimpl
def patience_register_strategies(registry: StrategyRegistry) -> None:
    """Register the ``random``, ``greedy``, ``solver`` and ``honest`` players."""
    registry.add("random", RandomStrategy, "a uniformly random legal move (seeded by the deal)")
    registry.add(
        "greedy", GreedyStrategy, "the move whose result scores best, avoiding repeated positions"
    )
    registry.add(
        "solver",
        solver_player,
        "thoughtful winnability: solve each deal with every card known (won/dead/unknown)",
        budgeted=True,
    )
    registry.add(
        "honest",
        honest_player,
        "play by honest hints, seeing only the face-up cards (won/lost/dead/stopped)",
        budgeted=True,
    )
