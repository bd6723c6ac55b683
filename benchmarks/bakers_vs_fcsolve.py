"""Baker's Game: our solver beside Freecell Solver on Microsoft deals 1..N, both empty-column rules.

For each option (``any``: any card or run may fill an empty column; ``kings``: only King-led runs)
and each Microsoft deal ``ms:1`` .. ``ms:N``, runs

* our solver (:func:`patience_core.solve.solve`, thoughtful, ``--seconds`` per deal), timed in
  CPU seconds of this process (:func:`time.process_time`); a won line is replayed with
  :meth:`Game.apply` to check it;
* Freecell Solver on the board our ``fcs`` writer prints (the same text as
  ``make-microsoft-freecell-board -t N``): ``fc-solve -g bakers_game -to 01ABCDE -sel``, with
  ``--empty-stacks-filled-by kings`` for ``kings``, timed in CPU seconds (user + system) of the
  child process (:func:`resource.getrusage` of the children).

fc-solve answers "This game is solveable.", "I could not solve this game." (the whole game graph
was searched: unsolvable) or, with ``-sel``, "Iterations count exceeded." when its ``-mi`` limit
(``--fcs-max-iters``, none by default) stopped it; a run killed by ``--fcs-timeout`` counts as
unknown too.

It prints one table row per option: the verdict counts of each solver, the deals both decide and
on which they agree (disagreements listed by deal number: a deal we call dead that fc-solve solves
is a bug), total and median CPU seconds of each, and the ratio of the totals. When ``fc-solve``
is not installed (Debian/Ubuntu package ``freecell-solver-bin``) it says so and exits 0.

Usage: ``python benchmarks/bakers_vs_fcsolve.py [--deals 100] [--seconds 10]
[--option any --option kings] [--first 1] [--per-deal]``
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

import attrs

from patience_core.api import DealNumber, Game, GameSearch
from patience_core.plugins import PluginHost
from patience_core.solve import Budget, Verdict, solve

FCS_ARGS = ("-g", "bakers_game", "-to", "01ABCDE", "-sel")
#: fc-solve's last words, by verdict (ours: won, dead, unknown).
FCS_VERDICTS = {
    "This game is solveable.": "won",
    "I could not solve this game.": "dead",
    "Iterations count exceeded.": "unknown",
}


@attrs.define
class Row:
    """One deal under one option: each solver's verdict and CPU seconds."""

    deal: int
    ours: str
    our_seconds: float
    fcs: str
    fcs_seconds: float
    replay_ok: bool = True


def children_cpu() -> float:
    """CPU seconds (user + system) used so far by waited-for child processes."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_fcs(board: str, kings: bool, max_iters: int | None, timeout: float) -> tuple[str, float]:
    """fc-solve's verdict on ``board`` (``won``/``dead``/``unknown``) and its CPU seconds."""
    args = ["fc-solve", *FCS_ARGS]
    if kings:
        args[3:3] = ["--empty-stacks-filled-by", "kings"]
    if max_iters is not None:
        args += ["-mi", str(max_iters)]
    env = dict(os.environ, FREECELL_SOLVER_QUIET="1")
    before = children_cpu()
    try:
        done = subprocess.run(
            args, input=board, capture_output=True, text=True, env=env, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:
        return "unknown", children_cpu() - before
    seconds = children_cpu() - before
    verdict = next((v for line, v in FCS_VERDICTS.items() if line in done.stdout), None)
    if verdict is None:
        raise SystemExit(
            f"fc-solve gave no verdict (exit {done.returncode}): {done.stderr.strip()}"
        )
    return verdict, seconds


def run_ours(game: Game, search: GameSearch, deal: int, seconds: float) -> tuple[str, float, bool]:
    """Our verdict on ``ms:deal``, its CPU seconds, and whether a won line replays to a win
    (``search``: the game's search object)."""
    position = game.deal(DealNumber(deal, "ms"))
    started = time.process_time()
    solution = solve(game, position, Budget(seconds=seconds), search)
    spent = time.process_time() - started
    replay_ok = True
    if solution.verdict is Verdict.WON:
        for move in solution.moves:
            position = game.apply(position, move)
        replay_ok = game.is_won(position)
    return solution.verdict.value, spent, replay_ok


def compare(game: Game, search: GameSearch, option: str, args: argparse.Namespace) -> list[Row]:
    """Both solvers on every deal of the run, under ``option`` (``search``: the game's search
    object)."""
    fcs_format = game.position_format("fcs")
    assert fcs_format is not None
    rows = []
    for deal in range(args.first, args.first + args.deals):
        board = fcs_format.write(game, game.deal(DealNumber(deal, "ms")))
        fcs, fcs_seconds = run_fcs(board, option == "kings", args.fcs_max_iters, args.fcs_timeout)
        ours, our_seconds, replay_ok = run_ours(game, search, deal, args.seconds)
        rows.append(Row(deal, ours, our_seconds, fcs, fcs_seconds, replay_ok))
        if args.per_deal:
            print(
                f"  {option:<5} ms:{deal:<6} ours {ours:<8}{our_seconds:8.3f} s   "
                f"fc-solve {fcs:<8}{fcs_seconds:8.3f} s",
                flush=True,
            )
    return rows


def report(option: str, rows: list[Row]) -> list[str]:
    """The table row for ``option`` and the lines listing disagreements."""

    def count(attr: str, verdict: str) -> int:
        return sum(1 for row in rows if getattr(row, attr) == verdict)

    decided = [r for r in rows if r.ours != "unknown" and r.fcs != "unknown"]
    agree = sum(1 for r in decided if r.ours == r.fcs)
    ours_total = sum(r.our_seconds for r in rows)
    fcs_total = sum(r.fcs_seconds for r in rows)
    ratio = ours_total / fcs_total if fcs_total > 0 else float("inf")
    line = (
        f"{option:<6} {len(rows):>5}  {count('ours', 'won'):>4} {count('ours', 'dead'):>4} "
        f"{count('ours', 'unknown'):>4}   {count('fcs', 'won'):>4} {count('fcs', 'dead'):>4} "
        f"{count('fcs', 'unknown'):>4}   {agree:>4}/{len(decided):<4}  "
        f"{ours_total:>8.2f} {statistics.median(r.our_seconds for r in rows):>7.3f}   "
        f"{fcs_total:>8.2f} {statistics.median(r.fcs_seconds for r in rows):>7.3f}   {ratio:>6.1f}"
    )
    notes = []
    wrong = [r.deal for r in decided if r.ours != r.fcs]
    if wrong:
        notes.append(
            f"  {option}: disagreements (ms deal: ours/fc-solve): "
            + ", ".join(f"{r.deal}: {r.ours}/{r.fcs}" for r in rows if r.deal in wrong)
        )
    unknown = [r.deal for r in rows if r.ours == "unknown"]
    if unknown:
        notes.append(f"  {option}: our unknowns: " + ", ".join(map(str, unknown)))
    fcs_unknown = [r.deal for r in rows if r.fcs == "unknown"]
    if fcs_unknown:
        notes.append(f"  {option}: fc-solve unknowns: " + ", ".join(map(str, fcs_unknown)))
    bad = [r.deal for r in rows if not r.replay_ok]
    if bad:
        notes.append(
            f"  {option}: won lines that do not replay to a win: " + ", ".join(map(str, bad))
        )
    return [line, *notes]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals per option (100)")
    parser.add_argument("--first", type=int, default=1, help="first Microsoft deal (1)")
    parser.add_argument("--seconds", type=float, default=10.0, help="our budget per deal (10)")
    parser.add_argument("--option", action="append", choices=("any", "kings"), help="both")
    parser.add_argument("--fcs-max-iters", type=int, default=None, help="fc-solve -mi (none)")
    parser.add_argument("--fcs-timeout", type=float, default=600.0, help="seconds per fc-solve run")
    parser.add_argument("--per-deal", action="store_true", help="print a line per deal")
    args = parser.parse_args()
    if shutil.which("fc-solve") is None:
        print(
            "fc-solve (Freecell Solver) is not installed; nothing to compare. Install it with "
            "`apt-get install freecell-solver-bin` and run again."
        )
        return 0
    host = PluginHost().load()
    options = args.option or ["any", "kings"]
    lines = []
    for option in options:
        game = host.game("bakers-game", {"empty-columns": option})
        rows = compare(game, host.search(game), option, args)
        lines += report(option, rows)
    print(
        f"Baker's Game, Microsoft deals {args.first}..{args.first + args.deals - 1}; "
        f"our budget {args.seconds:g} s per deal; CPU seconds on one core"
    )
    print(
        f"{'option':<6} {'deals':>5}  {'ours: won dead unkn':<19}   "
        f"{'fc-solve: won dead unkn':<14}  {'agree':<9}  {'ours: total  median':<19}   "
        f"{'fcs: total  median':<18}   {'ratio':>6}"
    )
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
