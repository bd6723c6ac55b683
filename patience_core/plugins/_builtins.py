"""patience's own default plugin: the built-in players, registered through the same hooks as any
outside plugin (pluggy's "eggsample" pattern)."""

from __future__ import annotations

from patience_core import hookimpl
from patience_core.games import GreedyStrategy, RandomStrategy, StrategyRegistry
from patience_core.solve import HonestPlayer, SolverPlayer


@hookimpl
def patience_register_strategies(registry: StrategyRegistry) -> None:
    """Register the ``random``, ``greedy``, ``solver`` and ``honest`` players."""
    registry.add("random", RandomStrategy, "a uniformly random legal move (seeded by the deal)")
    registry.add(
        "greedy", GreedyStrategy, "the move whose result scores best, avoiding repeated positions"
    )
    registry.add(
        "solver",
        SolverPlayer,
        "thoughtful winnability: solve each deal with every card known (won/dead/unknown)",
        budgeted=True,
    )
    registry.add(
        "honest",
        HonestPlayer,
        "play by honest hints, seeing only the face-up cards (won/lost/dead/stopped)",
        budgeted=True,
    )
