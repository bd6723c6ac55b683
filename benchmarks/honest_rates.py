"""Honest play: the win rate and mean score of the ``honest`` player on deals first..first+N-1.

Plays every deal of every game (Baker's Game with its default options) with the ``honest``
player of ``patience simulate --strategy honest`` (:func:`patience_core.solve.play_honestly`,
the same player): before each move a thoughtful dead check, then the move that wins the most
sampled arrangements of the unseen cards. Its budgets are in positions only (no clock), so every
row is the same on every machine and under any load; only the CPU seconds vary.

Prints one row per game: deals, outcomes (won, lost, dead, stopped), the win rate with its Wilson
95% interval, the mean final score (``Game.score`` of the last position) and the maximum, the mean
moves, and the CPU seconds (total and per deal, median and max).

``--rows FILE.jsonl`` keeps every deal's result as it is played (one JSON object a line, with the
budgets); run the same command again and the deals already in the file are not played again, so
a long run can be stopped and resumed, or played in pieces.

Usage: ``python benchmarks/honest_rates.py [--games G ...] [--deals 200] [--first 1]
[--samples 6] [--nodes 1000] [--dead-nodes 20000] [--max-moves 2000] [--jobs 1]
[--rows FILE.jsonl] [--verbose]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Sequence
from pathlib import Path

import attrs
from _common import add_range_arguments, deal_range, host, range_text, run_all, selected_games

from patience_core.engine import DealNumber
from patience_core.simulate import wilson_interval
from patience_core.solve import HonestBudget, play_honestly

OUTCOMES = ("won", "lost", "dead", "stopped")


@attrs.frozen
class Task:
    """One deal to play, with the player's budgets (positions)."""

    game: str
    deal: int
    samples: int
    nodes: int
    dead_nodes: int
    max_moves: int


@attrs.frozen
class Outcome:
    """How one deal ended: the outcome, the final score, moves played, positions searched and
    the CPU seconds (``time.process_time``) of the whole play."""

    task: Task
    outcome: str
    score: int
    moves: int
    nodes: int
    seconds: float


def run_task(task: Task) -> Outcome:
    """Play one deal honestly (in this process)."""
    loaded = host()
    game = loaded.game(task.game, {})
    start = game.deal(DealNumber(task.deal))
    budget = HonestBudget(samples=task.samples, nodes=task.nodes, dead_nodes=task.dead_nodes)
    started = time.process_time()
    play = play_honestly(game, start, budget, task.max_moves, loaded.search(game))
    seconds = time.process_time() - started
    position = start
    for move in play.moves:
        position = game.play(position, move)
    return Outcome(task, play.outcome, game.score(position), len(play.moves), play.nodes, seconds)


def run_tasks(tasks: Sequence[Task]) -> list[Outcome]:
    """Play some deals (in a worker process)."""
    return [run_task(task) for task in tasks]


def load_rows(path: Path | None) -> dict[Task, Outcome]:
    """The outcomes kept in ``path`` (JSON lines), by task; none when it does not exist."""
    if path is None or not path.exists():
        return {}
    kept: dict[Task, Outcome] = {}
    for line in path.read_text().splitlines():
        if line.strip():
            data = json.loads(line)
            task = Task(**data.pop("task"))
            kept[task] = Outcome(task, **data)
    return kept


def save_row(path: Path | None, outcome: Outcome) -> None:
    """Append ``outcome`` to ``path`` (JSON lines)."""
    if path is not None:
        with path.open("a") as out:
            out.write(json.dumps(attrs.asdict(outcome)) + "\n")


def row(name: str, outcomes: Sequence[Outcome]) -> str:
    """One table row for the outcomes of one game."""
    counts = {kind: sum(o.outcome == kind for o in outcomes) for kind in OUTCOMES}
    won = counts["won"]
    low, high = wilson_interval(won, len(outcomes))
    rate = won / len(outcomes) if outcomes else 0.0
    scores = [o.score for o in outcomes]
    times = [o.seconds for o in outcomes]
    return (
        f"{name:<13} {len(outcomes):>5} "
        + " ".join(f"{counts[kind]:>7}" for kind in OUTCOMES)
        + f"  {rate:>6.1%} [{low:>6.1%},{high:>6.1%}]  {statistics.mean(scores):>7.2f} "
        f"{max(scores):>4}  {statistics.mean(o.moves for o in outcomes):>6.1f}  "
        f"{sum(times):>8.0f} {statistics.median(times):>7.2f} {max(times):>7.1f}"
    )


HEADER = (
    f"{'game':<13} {'deals':>5} "
    + " ".join(f"{kind:>7}" for kind in OUTCOMES)
    + f"  {'win rate (95% CI)':>24}  {'score':>7} {'max':>4}  {'moves':>6}  "
    f"{'CPU s':>8} {'median':>7} {'max':>7}"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_range_arguments(parser)
    parser.add_argument("--samples", type=int, default=6, help="arrangements per decision (6)")
    parser.add_argument("--nodes", type=int, default=1000, help="positions per search (1000)")
    parser.add_argument("--dead-nodes", type=int, default=20_000, help="dead check (20000)")
    parser.add_argument("--max-moves", type=int, default=2000, help="move cap per deal (2000)")
    parser.add_argument("--rows", type=Path, help="JSON-lines file keeping every deal's result")
    args = parser.parse_args()
    games = selected_games(args)
    deals = deal_range(args)
    kept = load_rows(args.rows)
    print(
        f"{range_text(deals)}, honest player: {args.samples} "
        f"arrangements, {args.nodes} positions per search, dead check {args.dead_nodes} "
        f"positions, at most {args.max_moves} moves; {args.jobs} job(s)"
    )
    print(HEADER, flush=True)
    started = time.perf_counter()
    for game in games:
        tasks = [
            Task(game, n, args.samples, args.nodes, args.dead_nodes, args.max_moves) for n in deals
        ]
        todo = [task for task in tasks if task not in kept]
        for outcome in run_all(run_tasks, todo, args.jobs):
            kept[outcome.task] = outcome
            save_row(args.rows, outcome)
            if args.verbose:
                print(
                    f"  {game} {outcome.task.deal}: {outcome.outcome} score {outcome.score} "
                    f"{outcome.moves} moves {outcome.seconds:.2f} s",
                    flush=True,
                )
        print(row(game, [kept[task] for task in tasks]), flush=True)
    print(f"wall time {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
