"""The solve package."""

from __future__ import annotations

from patience_core.solve._circles import circle_form, is_trap
from patience_core.solve._depthfirst import CLOCK_EVERY, Budget, DepthFirst, Solution, Verdict
from patience_core.solve._hints import (
    DEAD_CHECK_NODES,
    DEAD_CHECK_SECONDS,
    HINT_CAP_SECONDS,
    HINT_SECONDS,
    HONEST,
    THOUGHTFUL,
    Hint,
    Known,
    dead_check,
    default_mode,
    hidden_wording,
)
from patience_core.solve._honest import (
    HONEST_FIRST_MIN_NODES,
    HONEST_FIRST_NODES,
    HONEST_MIN_NODES,
    HONEST_MIN_SAMPLES,
    HONEST_NODES,
    HONEST_ROUNDS,
    HONEST_SECONDS,
    MoveStats,
    face_down_places,
    has_hidden,
    honest_rounds,
    honest_stats,
    sample_hidden,
    visible_seed,
    visible_view,
)
from patience_core.solve._players import (
    HonestBudget,
    HonestPlay,
    HonestPlayer,
    SolverPlayer,
    play_honestly,
)
from patience_core.solve._playout import PLAYOUT_NODES, expected_scores, playout_score
from patience_core.solve._quick import HINT_FIRST_SECONDS, QUICK_NODES
from patience_core.solve._solver import FIRST_MIN_NODES, FIRST_SHARE, solve, space_for
from patience_core.solve._stream import hint, hint_stream
from patience_core.solve._thoughtful import HINT_NODES

__all__ = [
    "CLOCK_EVERY",
    "DEAD_CHECK_NODES",
    "DEAD_CHECK_SECONDS",
    "FIRST_MIN_NODES",
    "FIRST_SHARE",
    "HINT_CAP_SECONDS",
    "HINT_FIRST_SECONDS",
    "HINT_NODES",
    "HINT_SECONDS",
    "HONEST",
    "HONEST_FIRST_MIN_NODES",
    "HONEST_FIRST_NODES",
    "HONEST_MIN_NODES",
    "HONEST_MIN_SAMPLES",
    "HONEST_NODES",
    "HONEST_ROUNDS",
    "HONEST_SECONDS",
    "PLAYOUT_NODES",
    "QUICK_NODES",
    "THOUGHTFUL",
    "Budget",
    "DepthFirst",
    "Hint",
    "HonestBudget",
    "HonestPlay",
    "HonestPlayer",
    "Known",
    "MoveStats",
    "Solution",
    "SolverPlayer",
    "Verdict",
    "circle_form",
    "dead_check",
    "default_mode",
    "expected_scores",
    "face_down_places",
    "has_hidden",
    "hidden_wording",
    "hint",
    "hint_stream",
    "honest_rounds",
    "honest_stats",
    "is_trap",
    "play_honestly",
    "playout_score",
    "sample_hidden",
    "solve",
    "space_for",
    "visible_seed",
    "visible_view",
]
