"""``patience simulate GAME -n N``: play many deals automatically; win rate, interval, scores.

Layer 5: argument checking and the printed summary over :mod:`patience_core.simulate` (the
games) and :mod:`patience_core.simulate` (the rows file and resuming). See ``docs/simulate.md``.
"""

from __future__ import annotations

import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from patience_core.cli import get_host, is_terminal
from patience_core.cli.options import DEAL, SECONDS, WholeNumberType, file_path, option_flag
from patience_core.engine import DealNumber, counted
from patience_core.errors import PatienceError, ctrl_c_ignored
from patience_core.games import parse_options
from patience_core.play import SaveLock
from patience_core.simulate import (
    COLUMNS,
    DEFAULT_MAX_MOVES,
    FORMATS,
    BatchSpec,
    RowWriter,
    SimRow,
    Summary,
    check_output,
    check_partial,
    deal_range,
    finish,
    holds_no_rows,
    options_text,
    output_target,
    partial_path,
    resume_rows,
    row_problem,
    run_batch,
    run_deals,
    run_header,
    run_versions,
    set_aside,
    why_not_resumed,
    workers_for,
)

#: Worker processes at most (each may hold a solver table of a few hundred MB).
MAX_JOBS = 64


def output_format(path: str) -> str:
    """``"csv"`` or ``"jsonl"`` for an ``--output`` path (``-`` is CSV on stdout).

    :raises PatienceError: for another extension, a directory that does not exist, a path
        that names a folder (:func:`~patience_core.cli.options.file_path`: ``rows.csv/`` too),
        or a file the run may not replace (:func:`~patience_core.simulate.check_output`: a
        named pipe, a device, a socket, a read-only file, even through a symbolic link).
    """
    if path == "-":
        return "csv"
    target = file_path(path, "--output")
    kind = FORMATS.get(target.suffix.lower())
    if kind is None:
        raise PatienceError(
            f"cannot tell the format of {path!r}: use a .csv or .jsonl file name, or - for stdout"
        )
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise PatienceError(f"cannot write {path!r}: directory {str(parent)!r} does not exist")
    check_output(path)
    return kind


def _remove_if_empty(partial: Path, kind: str) -> None:
    """Remove ``partial`` when it holds no rows (:func:`~patience_core.simulate.holds_no_rows`:
    only a run header); a file that cannot be removed is left as it is."""
    if holds_no_rows(partial, kind):
        with contextlib.suppress(OSError):
            partial.unlink()


def summary_lines(
    summary: Summary,
    title: str,
    jobs: int,
    wall: float,
    played: int | None = None,
    kept_in: str = "the partial file",
) -> list[str]:
    """The human-readable summary of every row: ``played`` games (default all; a resumed run
    played only the rest, the others were already in ``kept_in``) took ``wall`` seconds on
    ``jobs`` worker processes. The speed line counts only those games, and says so when they
    are not all; with none played it says that nothing was left to play."""
    low, high = summary.interval
    count = summary.games if played is None else played
    rate = count / wall if wall > 0 else float("inf")
    if count == summary.games:
        speed = f"{rate:.3g} games/s ({wall:.2f} s wall, {counted(jobs, 'job')})"
    elif count:
        speed = (
            f"{rate:.3g} games/s over the {counted(count, 'game')} played now "
            f"({wall:.2f} s wall, {counted(jobs, 'job')}); "
            f"{summary.games - count} {'was' if summary.games - count == 1 else 'were'} "
            f"already in {kept_in}"
        )
    else:
        every = "the game was" if summary.games == 1 else f"all {summary.games} games were"
        speed = f"nothing left to play: {every} already in {kept_in}"
    deals = (
        f"deal {summary.first_deal}"
        if summary.games == 1
        else f"deals {summary.first_deal}..{summary.last_deal}"
    )
    lines = [
        f"{title}, strategy {summary.strategy}, {deals} ({counted(summary.games, 'game')})",
        f"won      {summary.wins} ({summary.win_rate:.1%}; 95% CI {low:.1%} to {high:.1%}, Wilson)",
        f"lost     {summary.lost}   stopped {summary.stopped}",
    ]
    if summary.dead or summary.unknown:
        lines[-1] += f"   dead {summary.dead}   unknown {summary.unknown}"
        if summary.decided:
            dlow, dhigh = summary.interval_decided
            rate_decided = summary.wins / summary.decided
            lines.append(
                f"decided  {summary.decided}: won {rate_decided:.1%} of them "
                f"(95% CI {dlow:.1%} to {dhigh:.1%})"
            )
    return [
        *lines,
        f"score    mean {summary.mean_score:.2f} of {summary.max_score}, best {summary.best_score}",
        f"moves    mean {summary.mean_moves:.1f}",
        f"speed    {speed}",
    ]


@click.command()
@click.argument("game")
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
    "on each move (none by default). The results then depend on the machine's speed; prefer "
    "--nodes.",
)
@click.option(
    "--nodes",
    type=WholeNumberType(min=1),
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
    "--max-moves",
    type=WholeNumberType(min=1),
    default=DEFAULT_MAX_MOVES,
    show_default=True,
    help="A game still running after this many moves ends as 'stopped'.",
)
@option_flag
@click.option(
    "--output",
    "-O",
    metavar="FILE.csv|FILE.jsonl|-",
    help="Write one row per deal; the extension picks the format; - writes CSV to stdout "
    "(the summary then goes to stderr). Rows go to FILE.partial as they come; a run started "
    "again with the same arguments continues from there.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def simulate(
    ctx: click.Context,
    game: str,
    n: int,
    first: DealNumber,
    strategy: str,
    budget: float | None,
    nodes: int | None,
    jobs: int,
    max_moves: int,
    options: tuple[str, ...],
    output: str | None,
    as_json: bool,
) -> None:
    """Play N deals of GAME with an automatic player and report the win rate with its 95%
    interval (Wilson), the mean score and the speed.

    Every row is determined by the game, its options, the strategy, the deal and --max-moves:
    the same in every run and for any --jobs (except the seconds column). See docs/simulate.md.
    """
    host = get_host(ctx)
    kind = output_format(output) if output is not None else None
    spec = BatchSpec.of(game, strategy, parse_options(options), max_moves, budget, nodes)
    the_game = host.game(game, dict(spec.options))
    deals = [str(d) for d in deal_range(first, n)]
    # Every input (game, options, strategy, budgets, deals, jobs) is checked before a partial
    # file is touched; nothing is played until the rows are asked for.
    run_batch(host, spec, first, n, jobs)
    summary = Summary(the_game.name, strategy, the_game.max_score)
    kept: list[SimRow] = []
    partial: Path | None = None
    header = ""
    if output not in (None, "-") and kind is not None:
        assert output is not None
        target = output_target(output)
        # One run per output file: two would resume, write and finish the same rows.
        lock = SaveLock(
            Path(target),
            busy=f"{output} is being written by another patience simulate run; "
            "wait for it to end, or choose another --output",
        )
        lock.acquire()
        ctx.call_on_close(lock.release)
        partial = partial_path(target)
        check_partial(partial)
        params = {
            "columns": list(COLUMNS),  # a partial file of another row format is not resumed
            "game": the_game.name,
            "options": dict(the_game.option_values),  # in force, defaults included
            "strategy": strategy,
            "first_deal": str(first),
            "deals": n,
            "max_moves": max_moves,
            "budget": budget,
            "nodes": nodes,
            # rows of other versions of the game's or the strategy's code are not mixed in
            "versions": run_versions(host, the_game.name, strategy),
        }
        header = run_header(params, kind)
        opts = options_text(the_game.option_values)

        in_run = set(deals)

        def problem(row: SimRow) -> str | None:
            return row_problem(
                row,
                game=the_game.name,
                deals=in_run,
                strategy=strategy,
                options=opts,
                max_score=the_game.max_score,
                max_moves=max_moves,
            )

        resumed = resume_rows(partial, header, kind, in_run, problem)
        kept = resumed.rows
        if not resumed.ours:
            if holds_no_rows(partial, kind):
                # Only the run header of another run (it ended before its first row): nothing
                # to keep, so nothing to set aside.
                partial.unlink()
            elif partial.exists() and partial.stat().st_size > 0:
                # Rows of a run with other parameters, made with other versions of the code,
                # or of an older row format (no options column): never thrown away silently.
                holds = why_not_resumed(partial, params, kind)
                aside = set_aside(partial)
                click.echo(f"{partial} holds {holds}; kept as {aside}.", err=True)
        elif resumed.dropped:
            # Whole lines that could not be right (edited, or written by a broken version):
            # dropped, so their deals are played again, and the file as it was is kept aside
            # (it is not ours to lose).
            aside = set_aside(partial)
            if kept:
                partial.write_bytes(resumed.kept)
            again = "deals without a sound row are played now; " if len(kept) < n else ""
            click.echo(
                f"{partial}: dropped {counted(resumed.dropped, 'row')} that could not be right "
                f"(the first, {resumed.problem}); {again}the file as it was is kept as {aside}.",
                err=True,
            )
        elif kept:
            with partial.open("r+b") as raw:
                raw.truncate(len(resumed.kept))  # a half-written last line
        if kept:
            click.echo(
                f"Resuming from {partial}: {len(kept)} of {counted(n, 'deal')} already played.",
                err=True,
            )
    kept_by_deal = {row.deal: row for row in kept}
    missing = [deal for deal in deal_range(first, n) if str(deal) not in kept_by_deal]
    rest = len(missing)
    spared: list[SimRow] = []  # rows played by workers, held behind a deal when Ctrl-C came
    rows: Any = run_deals(host, spec, missing, jobs, on_spare=spared.append)
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        if partial is not None and kind is not None:
            # A run that ends before its first row (a plugin failing on the first deal, Ctrl-C)
            # removes the partial file it began, holding only its run header: no .old later.
            stack.callback(_remove_if_empty, partial, kind)
        writer: RowWriter | None = None
        if output == "-":
            writer = RowWriter(sys.stdout, "csv")
        elif partial is not None and kind is not None:
            if kept:
                stream = stack.enter_context(partial.open("a", encoding="utf-8", newline=""))
                writer = RowWriter(stream, kind, header=False)
            else:
                stream = stack.enter_context(partial.open("w", encoding="utf-8", newline=""))
                stream.write(header)
                writer = RowWriter(stream, kind)
        iterator: Any = rows
        if is_terminal(sys.stderr) and rest:
            # With workers, rows come in bursts of a chunk: click's estimate of the time left,
            # from the time between rows, would be far off, so it is shown with one job only.
            bar = click.progressbar(
                rows,
                length=rest,
                label="simulating",
                file=sys.stderr,
                show_eta=workers_for(rest, jobs) == 1,
            )
            iterator = stack.enter_context(bar)
        played = iter(iterator)
        try:
            for deal in deals:  # every deal in order: a row kept, or one played now
                row = kept_by_deal.get(deal)
                if row is None:
                    row = next(played)
                    if writer is not None:
                        writer.write(row)
                summary.add(row)
        except KeyboardInterrupt:
            if writer is not None and partial is not None:
                # Played, out of deal order: the partial file takes them (a resumed run reads
                # rows in any order), so that they are not played again.
                with ctrl_c_ignored():
                    for row in spared:
                        writer.write(row)
            raise
    if partial is not None and output is not None and kind is not None:
        in_order = [row.deal for row in kept] == deals[: len(kept)]
        finish(partial, output_target(output), kind, None if in_order else deals)
    wall = time.perf_counter() - started
    workers = workers_for(rest, jobs)
    to_stderr = output == "-"
    if as_json:
        data = summary.as_dict(wall, rest)
        data["options"] = dict(sorted(the_game.option_values.items()))
        data["jobs"] = workers
        data["max_moves"] = max_moves
        if budget is not None or nodes is not None:
            data["budget"] = budget
            data["nodes"] = nodes
        click.echo(json.dumps(data, indent=2), err=to_stderr)
    else:
        kept_in = str(partial) if partial is not None else "the partial file"
        for line in summary_lines(summary, the_game.title, workers, wall, rest, kept_in):
            click.echo(line, err=to_stderr)
