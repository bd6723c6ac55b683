"""``patience simulate GAME -n N``: play many deals automatically; win rate, interval, scores.

Layer 5: the options checked, then the run service (:class:`patience_core.simulate.Run`: the
run store, resuming, local workers or Dask, the rows file), a progress bar and the printed
summary. See ``docs/simulate.md`` and ``docs/scale.md``.
"""

from __future__ import annotations

import contextlib
import json
import sys
from typing import Any

import click

from patience_core.cli import get_host, is_terminal
from patience_core.cli._progress import ProgressLine
from patience_core.cli.options import DEAL, SECONDS, WholeNumberType, file_path, option_flag
from patience_core.games import parse_options
from patience_core.simulate import DEFAULT_MAX_MOVES, BatchSpec, Run, not_empty, rows_format

#: Worker processes at most (each may hold a solver table of a few hundred MB).
MAX_JOBS = 64
#: The largest whole number the run store keeps (an SQLite INTEGER).
MAX_STORED = 2**63 - 1


def output_format(path: str) -> str:
    """The format of an ``--output`` path: ``-`` is CSV on stdout, a file as
    :func:`~patience_core.simulate.rows_format` says once it names no folder.

    :raises PatienceError: one line, for a path no run may write.
    """
    if path == "-":
        return "csv"
    not_empty(path, "--output")
    file_path(path, "--output")  # rows.csv/ too
    return rows_format(path)


@click.command()
@click.argument("game", is_eager=True)  # read first: --deal checks its schemes
@click.option(
    "-n", "--deals", "n", type=WholeNumberType(min=1), required=True, help="How many deals to play."
)
@click.option(
    "--first-deal",
    "-s",
    "first",
    type=DEAL,
    default="1",
    show_default=True,
    help="The first deal (N or ms:N); deals first..first+N-1 are played.",
)
@click.option(
    "--strategy",
    default="random",
    show_default=True,
    help="The player: random, greedy, solver (thoughtful winnability), honest (plays by honest "
    "hints), or one a plugin adds (`patience plugins`).",
)
@click.option(
    "--budget",
    type=SECONDS,
    metavar="SECONDS",
    help="Search CPU seconds per deal for solver (default 10); for honest, a cap in seconds "
    "on each of a move's two main searches, the dead check and the sampled searches (none by "
    "default; the playouts and the checks of each move's result are budgeted in positions "
    "only, so a move can take longer). The results then depend on the machine's speed; "
    "prefer --nodes.",
)
@click.option(
    "--nodes",
    type=WholeNumberType(min=1, max=MAX_STORED),
    help="Search budget in positions: per deal for solver (without --budget, then with no "
    "time limit), per search for honest (default 1000). Gives the same rows on every machine.",
)
@click.option(
    "--jobs",
    "-j",
    type=WholeNumberType(min=1, max=MAX_JOBS),
    default=1,
    show_default=True,
    help=f"Worker processes, at most {MAX_JOBS}. Rows are the same for any value.",
)
@click.option(
    "--scheduler",
    metavar="tcp://HOST:PORT|local:N",
    help="Play the deals on a Dask cluster: a running scheduler's address, or local:N for N "
    "worker processes here (needs the dask extra). See docs/scale.md.",
)
@click.option(
    "--store",
    metavar="PATH",
    help="The run store (SQLite) that keeps every run's rows; default runs.db in the data "
    "folder. The same command again resumes the deals it lacks.",
)
@click.option(
    "--max-moves",
    type=WholeNumberType(min=1, max=MAX_STORED),
    default=DEFAULT_MAX_MOVES,
    show_default=True,
    help="A game still running after this many moves ends as 'stopped'.",
)
@option_flag
@click.option(
    "--output",
    "-O",
    metavar="FILE.csv|FILE.jsonl|FILE.parquet|-",
    help="Write one row per deal when the run ends; the extension picks the format; - writes "
    "CSV to stdout (the summary then goes to stderr).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def simulate(ctx: click.Context, /, game: str, **opt: Any) -> None:
    """Play N deals of GAME with an automatic player and report the win rate with its 95%
    interval (Wilson), the mean score and the speed.

    Every row is determined by the game, its options, the strategy, the deal and --max-moves:
    the same in every run, for any --jobs or --scheduler (except the seconds column). Rows are
    kept in the run store (patience runs); the same command again resumes a stopped run. See
    docs/simulate.md.
    """
    host = get_host(ctx)
    output = opt["output"]
    if output is not None:
        output_format(output)
    budgets = (opt["max_moves"], opt["budget"], opt["nodes"])
    spec = BatchSpec.of(game, opt["strategy"], parse_options(opt["options"]), *budgets)
    to_stdout, store = output == "-", opt["store"]
    run = Run(host, spec, opt["first"], opt["n"], jobs=opt["jobs"], scheduler=opt["scheduler"],
              output=None if output is None or to_stdout else output,
              stream=sys.stdout if to_stdout else None,
              store=None if store is None else file_path(not_empty(store, "--store"), "--store"),
              on_note=lambda note: click.echo(note, err=True))  # fmt: skip
    with run, contextlib.ExitStack() as stack:
        on_progress = None
        if is_terminal(sys.stderr) and run.remaining:
            # With workers, rows come in bursts of a chunk: click's estimate of the time left,
            # from the time between rows, would be far off, so it is shown with one job only.
            eta = run.workers == 1 and opt["scheduler"] is None
            bar = ProgressLine(run.remaining, "simulating", sys.stderr, show_eta=eta)
            on_progress = lambda _row: bar.update(1)  # noqa: E731
            stack.enter_context(bar)
        run.play(on_progress)
    lines = [json.dumps(run.as_dict(), indent=2)] if opt["as_json"] else run.summary_lines()
    for line in lines:
        click.echo(line, err=to_stdout)
