"""Thoughtful winnability: the solver's verdict on deals first..first+N-1 of every game.

For each game (Baker's Game once per ``empty-columns`` option), solves every deal with full
information (:func:`patience_core.solve.solve`, a budget of ``--seconds`` per deal) and prints one
row per game: deals, won, dead (proved), unknown (budget ran out), the win rate among decided deals
with its Wilson 95% interval, the bounds of the true rate counting every unknown deal as lost and
as won (each with its Wilson interval's outer end), the total, median and largest CPU seconds per
deal (the won line's replay by the rules included), and the search speed in nodes (positions
generated) per second.

Deals use each game's first numbering scheme (Aisleriot's for every shipped game; ``--scheme ms``
gives Microsoft deals for Baker's Game). ``--jobs J`` solves deals in J worker processes; each
solve still runs on one core, so seconds stay per-core figures when J does not exceed the cores.

Usage: ``python benchmarks/winnability.py [--games G ...] [--deals 200] [--first 1]
[--seconds 10] [--jobs 1] [--scheme NAME] [--verbose]``
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence

import attrs
from _common import add_range_arguments, deal_range, host, range_text, run_all, selected_games

from patience_core.engine import DealNumber, counted
from patience_core.simulate import wilson_interval
from patience_core.solve import Budget, Verdict, solve

#: Games solved once per option set; others run with their defaults.
VARIANTS: dict[str, tuple[dict[str, str], ...]] = {
    "bakers-game": ({"empty-columns": "any"}, {"empty-columns": "kings"}),
}


@attrs.frozen
class Task:
    """One deal to solve."""

    game: str
    options: tuple[tuple[str, str], ...]
    scheme: str | None
    deal: int
    seconds: float


@attrs.frozen
class Outcome:
    """The verdict on one deal."""

    task: Task
    verdict: Verdict
    seconds: float
    nodes: int


def run_task(task: Task) -> Outcome:
    """Solve one deal (in this process)."""
    loaded = host()
    game = loaded.game(task.game, dict(task.options))
    scheme = task.scheme if task.scheme in game.deal_schemes else game.deal_schemes[0]
    position = game.deal(DealNumber(task.deal, scheme))
    solution = solve(game, position, Budget(seconds=task.seconds), loaded.search(game))
    return Outcome(task, solution.verdict, solution.seconds, solution.nodes)


def run_tasks(tasks: Sequence[Task]) -> list[Outcome]:
    """Solve some deals (in a worker process)."""
    return [run_task(task) for task in tasks]


def label(game: str, options: tuple[tuple[str, str], ...]) -> str:
    """The row name, e.g. ``bakers-game any``."""
    return " ".join([game, *(value for _, value in options)])


def row(name: str, outcomes: Sequence[Outcome]) -> str:
    """One table row for the outcomes of one game."""
    won = sum(o.verdict is Verdict.WON for o in outcomes)
    dead = sum(o.verdict is Verdict.DEAD for o in outcomes)
    unknown = len(outcomes) - won - dead
    decided = won + dead
    rate = won / decided if decided else 0.0
    low, high = wilson_interval(won, decided)
    worst, _ = wilson_interval(won, len(outcomes))
    _, best = wilson_interval(won + unknown, len(outcomes))
    times = [o.seconds for o in outcomes]
    nodes = sum(o.nodes for o in outcomes)
    speed = nodes / sum(times) if sum(times) > 0 else 0.0
    return (
        f"{name:<19} {len(outcomes):>5} {won:>5} {dead:>5} {unknown:>5}  "
        f"{rate:>6.1%} [{low:>6.1%},{high:>6.1%}]  [{worst:>6.1%},{best:>6.1%}]  "
        f"{sum(times):>8.2f} {statistics.median(times):>8.4f} {max(times):>7.2f} {speed:>9.0f}"
    )


HEADER = (
    f"{'game':<19} {'deals':>5} {'won':>5} {'dead':>5} {'unkn':>5}  "
    f"{'won/decided (95% CI)':>24}  {'all deals (95%)':>16}  "
    f"{'total s':>8} {'median s':>8} {'max s':>7} {'nodes/s':>9}"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_range_arguments(parser)
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per deal (10)")
    parser.add_argument("--scheme", help="deal numbering scheme, where a game accepts it")
    args = parser.parse_args()
    games = selected_games(args)
    deals = deal_range(args)
    groups: list[tuple[str, list[Task]]] = []
    for game in games:
        for options in VARIANTS.get(game, ({},)):
            opts = tuple(sorted(options.items()))
            tasks = [Task(game, opts, args.scheme, n, args.seconds) for n in deals]
            groups.append((label(game, opts), tasks))
    print(
        f"{range_text(deals)}, thoughtful, {args.seconds:g} s budget per deal, {args.jobs} job(s)"
    )
    print(HEADER, flush=True)
    started = time.perf_counter()
    for name, tasks in groups:
        outcomes = []
        for outcome in run_all(run_tasks, tasks, args.jobs):
            outcomes.append(outcome)
            if args.verbose:
                print(
                    f"  {name} {outcome.task.deal}: {outcome.verdict.value} "
                    f"{outcome.seconds:.3f} s {counted(outcome.nodes, 'node')}",
                    flush=True,
                )
        print(row(name, outcomes), flush=True)
    print(f"wall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
