"""Wall time of hints as ``patience play`` asks for them, on an idle or a deliberately busy machine.

For every installed game (or ``--games``), deals 1..N: a thoughtful and an honest hint at the
deal, then again after each of the first ``--moves`` moves of the game's first legal moves
(``play``'s default budget, :data:`patience_core.solve.HINT_SECONDS`). ``--busy K`` starts K
processes that only spin, so the hints share the cores with them, as when a player asks for a
hint while a long ``patience simulate`` runs. Prints, per game and mode, the hints asked, the
median and the slowest wall seconds.

Usage: ``python benchmarks/hint_latency.py [--games G ...] [--deals 6] [--moves 2] [--busy 0]``
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time

from patience_core.engine import DealNumber
from patience_core.plugins import PluginHost
from patience_core.solve import HINT_SECONDS, HONEST, THOUGHTFUL, hint


def spin() -> None:
    """Use one core until killed."""
    while True:
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="*", help="games to time (default: every installed one)")
    parser.add_argument("--deals", type=int, default=6, help="deals 1..N (6)")
    parser.add_argument("--moves", type=int, default=2, help="positions after 1..M moves too (2)")
    parser.add_argument("--busy", type=int, default=0, help="spinning processes beside (0)")
    args = parser.parse_args()
    host = PluginHost().load()
    names = args.games or sorted(host.games.names())
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for process in spinners:
        process.start()
    try:
        print(f"hint budget {HINT_SECONDS} s, deals 1..{args.deals}, {args.busy} busy process(es)")
        print(f"{'game':<14} {'mode':<11} {'hints':>5} {'median s':>9} {'max s':>7}")
        for name in names:
            game = host.game(name)
            search = host.search(game)
            for mode in (THOUGHTFUL, HONEST):
                times: list[float] = []
                for deal in range(1, args.deals + 1):
                    positions = [game.deal(DealNumber(deal))]
                    for _ in range(args.moves):
                        moves = game.legal_moves(positions[-1])
                        if not moves:
                            break
                        positions.append(game.play(positions[-1], moves[0]))
                    for index, position in enumerate(positions):
                        started = time.perf_counter()
                        hint(game, position, positions[:index], mode=mode, search=search)
                        times.append(time.perf_counter() - started)
                print(
                    f"{name:<14} {mode:<11} {len(times):>5} {statistics.median(times):>9.2f} "
                    f"{max(times):>7.2f}"
                )
    finally:
        for process in spinners:
            process.kill()


if __name__ == "__main__":
    main()
