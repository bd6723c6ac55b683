"""What the deal-range benchmarks share (``winnability.py``, ``honest_rates.py``).

The plugin host of this process, the command-line options naming the games and the deals, and
the running of one task a deal, in this process or in worker processes (spawned, so a worker
loads the plugins afresh whatever the platform). The benchmarks import it as ``_common``: Python
puts a script's own folder first on ``sys.path``, and spawned workers inherit that path.
"""

from __future__ import annotations

import argparse
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from patience_core.plugins import PluginHost

T = TypeVar("T")
R = TypeVar("R")

_HOST: PluginHost | None = None


def host() -> PluginHost:
    """The plugin host of this process, every installed plugin loaded on first use."""
    global _HOST
    if _HOST is None:
        _HOST = PluginHost().load()
    return _HOST


def add_range_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--games``, ``--deals``, ``--first``, ``--jobs`` and ``--verbose`` to ``parser``."""
    parser.add_argument("--games", nargs="+", help="games (every installed game)")
    parser.add_argument("--deals", type=int, default=200, help="deals per game (200)")
    parser.add_argument("--first", type=int, default=1, help="first deal number (1)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--verbose", action="store_true", help="print every deal's result")


def deal_range(args: argparse.Namespace) -> range:
    """The deal numbers ``--first`` .. ``--first + --deals - 1`` of parsed ``args``."""
    first: int = args.first
    deals: int = args.deals
    return range(first, first + deals)


def range_text(deals: range) -> str:
    """``deals`` as the tables' headers write it, e.g. ``deals 1..200``."""
    return f"deals {deals.start}..{deals.stop - 1}"


def selected_games(args: argparse.Namespace) -> list[str]:
    """The games of ``--games``, or every installed game; the host's load problems printed."""
    loaded = host()
    for problem in loaded.problems:
        print(f"warning: {problem}")
    games: list[str] = args.games or list(loaded.games.names())
    return games


def run_all(
    run_tasks: Callable[[Sequence[T]], list[R]], tasks: Sequence[T], jobs: int
) -> Iterator[R]:
    """The results of ``run_tasks`` over ``tasks``, one task at a time, in task order.

    With ``jobs`` above 1 the tasks run in that many spawned worker processes; ``run_tasks``
    must then be a module-level function (workers import it by name).
    """
    if jobs <= 1:
        for task in tasks:
            yield from run_tasks([task])
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(jobs, context) as pool:
        for results in pool.map(run_tasks, [[task] for task in tasks]):
            yield from results
