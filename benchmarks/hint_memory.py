"""Hint memory: the peak memory of one honest hint (``patience hint``'s, by default budgets).

For every game and deal, at the deal and after ``--moves`` legal moves of a seeded random walk
(:func:`patience_core.testing.random_walk`, the walk's positions as the history), one fresh
process computes the hint and reports:

* the peak resident set size of the process (``ru_maxrss``) and the resident size before the
  hint (the interpreter, the plugins and the game loaded), in MB;
* with ``--trace``, in a second fresh process, the peak of the memory the hint allocated
  (:mod:`tracemalloc`) and its ``--top`` allocation sites when the most memory was in use at
  the end of a search (the search's table still alive), and the largest table (positions).
  Tracing slows the hint about tenfold, so the traced run gets ``--traced-seconds`` (600) of
  wall-clock cap: its budget in positions decides, as the untraced run's does.

Usage: ``python benchmarks/hint_memory.py [--games diamond-mine] [--deals 5] [--first 1]
[--moves 0 10] [--trace] [--top 8] [--traced-seconds 600]``
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
import tracemalloc
from typing import Any

from patience_core.engine import DealNumber
from patience_core.plugins import PluginHost
from patience_core.solve import HINT_CAP_SECONDS, DepthFirst, hint
from patience_core.testing import random_walk


def _rss_mb() -> float:
    """The resident set size of this process now, in MB (Linux ``/proc``)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() / 2**20


class _Peaks:
    """The largest search table and the allocations when the most memory was traced at the
    end of a search (``DepthFirst.run`` wrapped)."""

    def __init__(self) -> None:
        self.table = 0
        self.traced = 0
        self.snapshot: tracemalloc.Snapshot | None = None

    def wrap(self) -> None:
        run = DepthFirst.run

        def watched(search: DepthFirst, budget: Any) -> Any:
            solution = run(search, budget)
            self.table = max(self.table, len(search._seen))
            if tracemalloc.is_tracing():
                current, _peak = tracemalloc.get_traced_memory()
                if current > self.traced:
                    self.traced, self.snapshot = current, tracemalloc.take_snapshot()
            return solution

        DepthFirst.run = watched  # type: ignore[method-assign,assignment]


def measure(
    game_name: str, deal: int, moves: int, trace: bool, top: int, seconds: float
) -> dict[str, Any]:
    """One hint in this process: its answer, CPU seconds and memory figures."""
    host = PluginHost().load()
    game = host.game(game_name, {})
    search = host.search(game)
    walk = random_walk(game, DealNumber(deal), moves)
    peaks = _Peaks()
    peaks.wrap()
    before = _rss_mb()
    if trace:
        tracemalloc.start(25)
    started = time.process_time()
    found = hint(game, walk[-1], walk[:-1], seconds=seconds, search=search)
    row: dict[str, Any] = {
        "game": game_name,
        "deal": deal,
        "moves": len(walk) - 1,
        "hint": f"{found.text} ({found.verdict})",
        "cpu_s": round(time.process_time() - started, 2),
        "rss_before_mb": round(before, 1),
        "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "largest_table": peaks.table,
        "key_cache_after": len(getattr(search, "key_cache", ())),
    }
    if trace:
        _current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        row["traced_peak_mb"] = round(peak / 2**20, 1)
        row["traced_at_search_end_mb"] = round(peaks.traced / 2**20, 1)
        stats = peaks.snapshot.statistics("lineno")[:top] if peaks.snapshot else []
        row["top"] = [
            f"{stat.size / 2**20:.1f} MB {stat.count} blocks {stat.traceback[-1]}" for stat in stats
        ]
    return row


def main(argv: list[str] | None = None) -> None:
    """Parse the options and measure each hint in a fresh process."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["diamond-mine"])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--first", type=int, default=1)
    parser.add_argument("--moves", type=int, nargs="+", default=[0, 10])
    parser.add_argument("--trace", action="store_true", help="also trace the allocations")
    parser.add_argument("--top", type=int, default=8)
    parser.add_argument("--traced-seconds", type=float, default=600.0)
    parser.add_argument("--one", nargs=4, metavar=("GAME", "DEAL", "MOVES", "TRACE"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args(argv)
    if args.one:
        game, deal, moves, trace = args.one
        traced = trace == "1"
        seconds = args.traced_seconds if traced else HINT_CAP_SECONDS
        print(json.dumps(measure(game, int(deal), int(moves), traced, args.top, seconds)))
        return
    for game in args.games:
        for deal in range(args.first, args.first + args.deals):
            for moves in args.moves:
                for trace in ("0", "1") if args.trace else ("0",):
                    command = [sys.executable, __file__, "--top", str(args.top),
                               "--traced-seconds", str(args.traced_seconds), "--one", game,
                               str(deal), str(moves), trace]  # fmt: skip
                    out = subprocess.run(command, capture_output=True, text=True, check=True)
                    row = json.loads(out.stdout)
                    tops = row.pop("top", [])
                    print(" ".join(f"{k}={v}" for k, v in row.items()), flush=True)
                    for line in tops:
                        print("    " + line)


if __name__ == "__main__":
    main()
