"""The time limits of the running search, for game hooks that do long work of their own.

:func:`patience_core.solve.solve` sets the limits of its budget (CPU and wall-clock) for as long
as it runs; a game hook that may run long inside a search (``is_dead`` with a search of its own,
``find_win``) asks :func:`time_is_up` now and then and stops early, answering "not proved" or
"none found", when the search it serves has no time left. That search then ends ``unknown`` at
its next look at the clock, as it would have anyway, so the early stop changes no verdict; it
only keeps a search, and so a hint, within its time. Outside a search there is no limit.
"""

from __future__ import annotations

import math
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: (CPU deadline on :func:`time.process_time`, wall deadline on :func:`time.perf_counter`).
_LIMITS: ContextVar[tuple[float, float]] = ContextVar(
    "patience_search_limits", default=(math.inf, math.inf)
)


def time_is_up() -> bool:
    """Whether the running search has used up its CPU or wall-clock seconds (``False`` outside
    a search). Costs about a microsecond: call it every few hundred steps of a long loop."""
    cpu, wall = _LIMITS.get()
    return time.process_time() >= cpu or time.perf_counter() >= wall


@contextmanager
def search_limits(cpu_seconds: float, wall_seconds: float) -> Iterator[None]:
    """Within the ``with`` block, :func:`time_is_up` turns true after ``cpu_seconds`` of CPU
    time (:func:`time.process_time`) or ``wall_seconds`` of wall-clock time from now, or when
    an enclosing block's limits pass (the earlier limit wins). Restored on leaving."""
    outer_cpu, outer_wall = _LIMITS.get()
    token = _LIMITS.set(
        (
            min(outer_cpu, time.process_time() + cpu_seconds),
            min(outer_wall, time.perf_counter() + wall_seconds),
        )
    )
    try:
        yield
    finally:
        _LIMITS.reset(token)
