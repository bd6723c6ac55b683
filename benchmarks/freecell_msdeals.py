"""FreeCell (the free-cell family's defaults): our solver beside Freecell Solver on Microsoft
deals first..first+N-1.

For each deal ``ms:N`` runs our solver (:func:`patience_core.solve.solve`, thoughtful,
``--seconds`` per deal, CPU seconds of this process; a won line is replayed with
:meth:`Game.apply`) and ``fc-solve -g freecell`` on the board our ``fcs`` writer prints (the
text of ``make-microsoft-freecell-board -t N``), CPU seconds of the child process. Prints the
verdict counts of each, the deals on which they disagree, and total and median CPU seconds.
Every deal of 1..1000 is solvable (Microsoft deal 11982 is the first that is not). Without
``fc-solve`` (Debian package ``freecell-solver-bin``) only our side runs.

The game is the installed ``freecell`` variant when there is one (patience-classics), else the
declaration below (the same parameters).

Usage: ``python benchmarks/freecell_msdeals.py [--deals 1000] [--first 1] [--seconds 10]
[--per-deal]``
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time

from patience_core.api import DealNumber, FreeCellFamily, Game, GameSearch, UnknownGame
from patience_core.plugins import PluginHost
from patience_core.solve import Budget, Verdict, solve

FCS_VERDICTS = {
    "This game is solveable.": "won",
    "I could not solve this game.": "dead",
    "Iterations count exceeded.": "unknown",
}


class FreeCell(FreeCellFamily):
    """FreeCell: the family's defaults, with Microsoft deal numbers."""

    name = "freecell"
    title = "FreeCell"
    ms_deals = True


def children_cpu() -> float:
    """CPU seconds (user + system) used so far by waited-for child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_fcs(board: str) -> tuple[str, float]:
    """fc-solve's verdict on ``board`` and its CPU seconds."""
    env = dict(os.environ, FREECELL_SOLVER_QUIET="1")
    before = children_cpu()
    done = subprocess.run(
        ["fc-solve", "-g", "freecell", "-sel"],
        input=board,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    verdict = next((v for line, v in FCS_VERDICTS.items() if line in done.stdout), "unknown")
    return verdict, children_cpu() - before


def run_ours(game: Game, search: GameSearch, deal: int, seconds: float) -> tuple[str, float]:
    """Our verdict on ``ms:deal`` and its CPU seconds (a won line that does not replay to a
    win is reported as ``bad-line``)."""
    position = game.deal(DealNumber(deal, "ms"))
    started = time.process_time()
    solution = solve(game, position, Budget(seconds=seconds), search)
    spent = time.process_time() - started
    if solution.verdict is Verdict.WON:
        for move in solution.moves:
            position = game.apply(position, move)
        if not game.is_won(position):
            return "bad-line", spent
    return solution.verdict.value, spent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals (1000)")
    parser.add_argument("--first", type=int, default=1, help="first Microsoft deal (1)")
    parser.add_argument("--seconds", type=float, default=10.0, help="our budget per deal (10)")
    parser.add_argument("--per-deal", action="store_true", help="print a line per deal")
    args = parser.parse_args()
    host = PluginHost().load()
    try:
        game = host.game("freecell", {})
        search = host.search(game)
    except UnknownGame:
        game = FreeCell()
        search = FreeCell.search_class(game)
    fcs = shutil.which("fc-solve") is not None
    rows = []
    for deal in range(args.first, args.first + args.deals):
        ours, seconds = run_ours(game, search, deal, args.seconds)
        theirs, their_seconds = ("-", 0.0)
        if fcs:
            fcs_format = game.position_format("fcs")
            assert fcs_format is not None
            theirs, their_seconds = run_fcs(
                fcs_format.write(game, game.deal(DealNumber(deal, "ms")))
            )
        rows.append((deal, ours, seconds, theirs, their_seconds))
        if args.per_deal:
            print(f"  ms:{deal:<6} ours {ours:<8}{seconds:8.3f} s   fc-solve {theirs:<8}"
                  f"{their_seconds:8.3f} s", flush=True)  # fmt: skip
    last = args.first + args.deals - 1
    print(f"FreeCell, Microsoft deals {args.first}..{last}; our budget {args.seconds:g} s per deal")
    for name, verdict_at, seconds_at in (("ours", 1, 2), ("fc-solve", 3, 4)):
        if name == "fc-solve" and not fcs:
            print("fc-solve: not installed (apt-get install freecell-solver-bin)")
            continue
        counts = {v: sum(1 for r in rows if r[verdict_at] == v) for v in ("won", "dead", "unknown")}
        times = [r[seconds_at] for r in rows]
        print(f"{name:<9} won {counts['won']:>5}  dead {counts['dead']:>4}  unknown "
              f"{counts['unknown']:>4}   CPU total {sum(times):8.2f} s  median "
              f"{statistics.median(times):.3f} s  max {max(times):.3f} s")  # fmt: skip
    wrong = [r for r in rows if fcs and r[1] != r[3]]
    print("disagreements: " + (", ".join(f"ms:{r[0]} {r[1]}/{r[3]}" for r in wrong) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
