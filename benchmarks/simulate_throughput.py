"""Simulation throughput: games per second on one core, per installed game and strategy.

For every installed game and each strategy (``random`` and ``greedy`` by default), plays deals
1..N in this process (``jobs=1``, so the figure is per core) through the same runner as
``patience simulate``, and prints games per second (of wall time, and of the CPU time the games
took: the steadier figure on a busy machine) with the win rate and mean moves. A cell stops early
after ``--time-limit`` seconds (games whose random play wanders to the move cap are slow);
the ``games`` column says how many were played.

Usage: ``python benchmarks/simulate_throughput.py [--deals 200] [--time-limit 30]
[--strategy random --strategy greedy] [--game NAME ...]``
"""

from __future__ import annotations

import argparse
import time

from patience_core.engine import DealNumber
from patience_core.plugins import PluginHost
from patience_core.simulate import BatchSpec, Summary, run_batch


def measure(
    host: PluginHost, game: str, strategy: str, deals: int, limit: float
) -> tuple[Summary, float]:
    """Play up to ``deals`` deals (at most ``limit`` seconds): the summary and the wall time."""
    the_game = host.game(game)
    first = DealNumber(1, the_game.deal_schemes[0])
    summary = Summary(game, strategy, the_game.max_score)
    start = time.perf_counter()
    for row in run_batch(host, BatchSpec.of(game, strategy), first, deals, jobs=1):
        summary.add(row)
        if time.perf_counter() - start > limit:
            break
    return summary, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per cell (200)")
    parser.add_argument("--time-limit", type=float, default=30.0, help="seconds per cell (30)")
    parser.add_argument("--strategy", action="append", help="strategies (random, greedy)")
    parser.add_argument("--game", action="append", help="games (every installed game)")
    args = parser.parse_args()
    host = PluginHost().load()
    for problem in host.problems:
        print(f"warning: {problem}")
    games = args.game or host.games.names()
    strategies = args.strategy or ["random", "greedy"]
    print(
        f"{'game':<14} {'strategy':<9} {'games':>6} {'games/s':>9} {'/CPU-s':>8} {'ms/game':>8} "
        f"{'win rate':>9} {'mean moves':>10} {'stopped':>8}"
    )
    for game in games:
        for strategy in strategies:
            summary, wall = measure(host, game, strategy, args.deals, args.time_limit)
            rate = summary.games / wall if wall > 0 else float("inf")
            cpu_rate = summary.games / summary.cpu_seconds if summary.cpu_seconds else float("inf")
            print(
                f"{game:<14} {strategy:<9} {summary.games:>6} {rate:>9.1f} {cpu_rate:>8.1f} "
                f"{1000 / rate:>8.2f} {summary.win_rate:>9.1%} {summary.mean_moves:>10.1f} "
                f"{summary.stopped:>8}"
            )


if __name__ == "__main__":
    main()
