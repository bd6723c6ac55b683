"""patience's own default plugin: the built-in players, registered through the same hooks as any
outside plugin (pluggy's "eggsample" pattern)."""

from __future__ import annotations

from patience_core import hookimpl
from patience_core.strategies import GreedyStrategy, RandomStrategy, StrategyRegistry


@hookimpl
def patience_register_strategies(registry: StrategyRegistry) -> None:
    """Register the ``random`` and ``greedy`` players."""
    registry.add("random", RandomStrategy, "a uniformly random legal move (seeded by the deal)")
    registry.add(
        "greedy", GreedyStrategy, "the move whose result scores best, avoiding repeated positions"
    )
