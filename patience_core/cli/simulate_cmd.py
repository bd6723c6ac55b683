"""``patience simulate GAME -n N``: play many deals automatically; win rate, interval, scores.

Layer 5: argument checking, output files and the printed summary over
:mod:`patience_core.simulate`. See ``docs/simulate.md``.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import click

from patience_core.cli import get_host
from patience_core.cli.options import DEAL, option_flag
from patience_core.engine.deal import DealNumber
from patience_core.errors import PatienceError
from patience_core.games import parse_options
from patience_core.simulate import (
    COLUMNS,
    DEFAULT_MAX_MOVES,
    BatchSpec,
    SimRow,
    Summary,
    run_batch,
)

#: Output formats by file extension.
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def output_format(path: str) -> str:
    """``"csv"`` or ``"jsonl"`` for an ``--output`` path (``-`` is CSV on stdout).

    :raises PatienceError: for another extension or a directory that does not exist.
    """
    if path == "-":
        return "csv"
    target = Path(path)
    kind = FORMATS.get(target.suffix.lower())
    if kind is None:
        raise PatienceError(
            f"cannot tell the format of {path!r}: use a .csv or .jsonl file name, or - for stdout"
        )
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise PatienceError(f"cannot write {path!r}: directory {str(parent)!r} does not exist")
    if target.is_dir():
        raise PatienceError(f"cannot write {path!r}: it is a directory")
    return kind


class RowWriter:
    """Writes rows as CSV (with a header line) or JSON Lines to an open text stream."""

    def __init__(self, stream: IO[str], kind: str) -> None:
        self._stream = stream
        self._kind = kind
        self._csv = csv.writer(stream, lineterminator="\n") if kind == "csv" else None
        if self._csv is not None:
            self._csv.writerow(COLUMNS)

    def write(self, row: SimRow) -> None:
        """Write one row."""
        if self._csv is not None:
            self._csv.writerow(
                [
                    row.game,
                    row.deal,
                    row.strategy,
                    row.result,
                    row.score,
                    row.max_score,
                    row.moves,
                    f"{row.seconds:.6f}",
                ]
            )
        else:
            self._stream.write(json.dumps(row.as_dict()) + "\n")


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text stream whose contents replace ``path`` only when the block ends normally.

    Rows go to a hidden temporary file in the same directory, renamed over ``path`` at the end,
    so an interrupted or failed run never leaves a partial file in place of a good one (the
    temporary file is removed). A file that already exists at ``path`` is replaced and keeps its
    permissions; a new one gets the usual permissions (0666 less the umask).
    """
    target = Path(path)
    directory = target.parent if str(target.parent) else Path(".")
    fd, temp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as stream:
            yield stream
        if target.exists():
            mode = target.stat().st_mode & 0o7777
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def summary_lines(summary: Summary, title: str, jobs: int, wall: float) -> list[str]:
    """The human-readable summary."""
    low, high = summary.interval
    rate = summary.games / wall if wall > 0 else float("inf")
    deals = (
        f"deal {summary.first_deal}"
        if summary.games == 1
        else f"deals {summary.first_deal}..{summary.last_deal}"
    )
    return [
        f"{title}, strategy {summary.strategy}, {deals} ({summary.games} games)",
        f"won      {summary.wins} ({summary.win_rate:.1%}; 95% CI {low:.1%} to {high:.1%}, Wilson)",
        f"lost     {summary.lost}   stopped {summary.stopped}",
        f"score    mean {summary.mean_score:.2f} of {summary.max_score}, best {summary.best_score}",
        f"moves    mean {summary.mean_moves:.1f}",
        f"speed    {rate:.1f} games/s ({wall:.2f} s wall, {jobs} job{'s' if jobs > 1 else ''})",
    ]


@click.command()
@click.argument("game")
@click.option(
    "-n", "--deals", "n", type=click.IntRange(min=1), required=True, help="How many deals to play."
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
    help="The player: random, greedy, or one a plugin adds (`patience plugins`).",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Worker processes. Rows are the same for any value.",
)
@click.option(
    "--max-moves",
    type=click.IntRange(min=1),
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
    "(the summary then goes to stderr).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.pass_context
def simulate(
    ctx: click.Context,
    game: str,
    n: int,
    first: DealNumber,
    strategy: str,
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
    spec = BatchSpec.of(game, strategy, parse_options(options), max_moves)
    the_game = host.game(game, dict(spec.options))
    rows = run_batch(host, spec, first, n, jobs)  # checks everything before any game is played
    summary = Summary(the_game.name, strategy, the_game.max_score)
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        writer: RowWriter | None = None
        if output == "-":
            writer = RowWriter(sys.stdout, "csv")
        elif output is not None and kind is not None:
            writer = RowWriter(stack.enter_context(atomic_output(output)), kind)
        iterator: Any = rows
        if sys.stderr.isatty():
            iterator = stack.enter_context(
                click.progressbar(rows, length=n, label="simulating", file=sys.stderr)
            )
        for row in iterator:
            summary.add(row)
            if writer is not None:
                writer.write(row)
    wall = time.perf_counter() - started
    to_stderr = output == "-"
    if as_json:
        data = summary.as_dict(wall)
        data["options"] = dict(spec.options)
        data["jobs"] = jobs
        data["max_moves"] = max_moves
        click.echo(json.dumps(data, indent=2), err=to_stderr)
    else:
        for line in summary_lines(summary, the_game.title, jobs, wall):
            click.echo(line, err=to_stderr)
