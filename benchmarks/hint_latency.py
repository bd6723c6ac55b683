"""How soon a hint answers: the wall time to its first answer and to its final one, as the
full-screen player asks for them (``hint_stream``, the player's default mode unless ``--mode``).

For every installed game (or ``--games``), deals 1..N, positions from two lines of play per
deal: a random line (seeded by the deal, so every run plays the same moves) and the solver's
winning line (when the solver wins the deal in ``--solve-nodes`` positions): the deal, the
middle and a late position of each (at 50% and 85% of the line, or the nearest before with
more than one legal move), each with the line before it as the game's history. Prints, per
game, the positions, the median and the slowest seconds to the first and the final answer, how
many first answers came within ``HINT_FIRST_SECONDS``, how many were already final, and the
final verdicts. ``--busy K`` starts K processes that only spin, so the hints share the cores
with them, as when a player asks for a hint while a long ``patience simulate`` runs.

The honest player's win rates are measured by ``benchmarks/honest_rates.py``.

Usage: ``python benchmarks/hint_latency.py [--games G ...] [--deals 3] [--mode default]
[--solve-nodes 200000] [--busy 0]``
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import random
import statistics
import time
from collections.abc import Iterator

from patience_core.engine import DealNumber
from patience_core.games import Game, GameSearch
from patience_core.model import Position
from patience_core.plugins import PluginHost
from patience_core.solve import (
    HINT_FIRST_SECONDS,
    HINT_SECONDS,
    HONEST,
    THOUGHTFUL,
    Budget,
    Verdict,
    hint_stream,
    solve,
)

#: The longest random line played, in moves.
RANDOM_MOVES = 120
#: Where along a line the middle and the late position are.
SHARES = (0.5, 0.85)


def spin() -> None:
    """Use one core until killed."""
    while True:
        pass


def random_line(game: Game, start: Position, seed: int) -> list[Position]:
    """The positions of a line of random legal moves from ``start`` (seeded), to the end of the
    game or :data:`RANDOM_MOVES` moves."""
    rng = random.Random(seed)
    line = [start]
    for _ in range(RANDOM_MOVES):
        here = line[-1]
        if game.is_won(here):
            break
        moves = game.legal_moves(here)
        if not moves:
            break
        line.append(game.play(here, rng.choice(moves)))
    return line


def solver_line(game: Game, start: Position, search: GameSearch, nodes: int) -> list[Position]:
    """The positions of the solver's winning line from ``start`` (``[]`` when the solver does not
    win it in ``nodes`` positions)."""
    solution = solve(game, start, Budget.asked(nodes=nodes), search)
    if solution.verdict is not Verdict.WON:
        return []
    line = [start]
    for move in solution.moves:
        line.append(game.play(line[-1], move))
    return line


def positions(
    game: Game, search: GameSearch, deals: int, nodes: int
) -> Iterator[tuple[Position, list[Position]]]:
    """``(position, history)`` of the deal, then the middle and late positions of the random
    and the solver's line, for deals 1..``deals``."""
    for deal in range(1, deals + 1):
        start = game.deal(DealNumber(deal))
        yield start, []
        for line in (random_line(game, start, deal), solver_line(game, start, search, nodes)):
            if len(line) < 3:
                continue
            for share in SHARES:
                index = min(int(share * (len(line) - 1)), len(line) - 2)
                # A position with a choice: "the only legal move" is named without a search.
                while index > 0 and len(game.legal_moves(line[index])) < 2:
                    index -= 1
                yield line[index], line[:index]


def timed(
    game: Game, position: Position, history: list[Position], mode: str | None, search: GameSearch
) -> tuple[float, float, bool, str]:
    """Wall seconds to the first and to the final answer of a hint, whether the first answer
    was already final, and the final verdict."""
    started = time.perf_counter()
    first = None
    first_final = False
    verdict = ""
    for answer in hint_stream(game, position, history, mode=mode, search=search):
        if first is None:
            first = time.perf_counter() - started
            first_final = answer.final
        verdict = answer.verdict
    final = time.perf_counter() - started
    return (final if first is None else first), final, first_final, verdict


def main() -> None:
    # The first paragraph of the module's description, whole (its first line stops mid-sentence).
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--games", nargs="*", help="games to time (default: every installed one)")
    parser.add_argument("--deals", type=int, default=3, help="deals 1..N (3)")
    parser.add_argument(
        "--mode",
        choices=("default", HONEST, THOUGHTFUL),
        default="default",
        help="the hints' mode (default: the player's, honest where a card is hidden)",
    )
    parser.add_argument(
        "--solve-nodes", type=int, default=200_000, help="the solver's line budget (200000)"
    )
    parser.add_argument("--busy", type=int, default=0, help="spinning processes beside (0)")
    args = parser.parse_args()
    mode = None if args.mode == "default" else args.mode
    host = PluginHost().load()
    names = args.games or sorted(host.games.names())
    spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
    for process in spinners:
        process.start()
    try:
        print(
            f"hint cap {HINT_SECONDS} s, first answer due within {HINT_FIRST_SECONDS} s, mode "
            f"{args.mode}, deals 1..{args.deals}, {args.busy} busy process(es)"
        )
        print(
            f"{'game':<16} {'hints':>5} {'first med':>9} {'first max':>9} {'final med':>9} "
            f"{'final max':>9} {'in time':>7} {'final 1st':>9}  verdicts"
        )
        for name in names:
            game = host.game(name)
            search = host.search(game)
            firsts: list[float] = []
            finals: list[float] = []
            at_once = 0
            verdicts: collections.Counter[str] = collections.Counter()
            for position, history in positions(game, search, args.deals, args.solve_nodes):
                first, final, first_final, verdict = timed(game, position, history, mode, search)
                firsts.append(first)
                finals.append(final)
                at_once += first_final
                verdicts[verdict] += 1
            in_time = sum(first <= HINT_FIRST_SECONDS for first in firsts)
            said = " ".join(f"{v} {n}" for v, n in sorted(verdicts.items()))
            print(
                f"{name:<16} {len(firsts):>5} {statistics.median(firsts):>9.2f} "
                f"{max(firsts):>9.2f} {statistics.median(finals):>9.2f} {max(finals):>9.2f} "
                f"{in_time:>3}/{len(firsts):<3} {at_once:>9}  {said}",
                flush=True,
            )
    finally:
        for process in spinners:
            process.kill()


if __name__ == "__main__":
    main()
