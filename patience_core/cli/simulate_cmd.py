"""``patience simulate GAME -n N``: play many deals automatically; win rate, interval, scores.

Layer 5: argument checking, output files and the printed summary over
:mod:`patience_core.simulate`. See ``docs/simulate.md``.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import IO, Any

import attrs
import click

from patience_core import __version__
from patience_core.cli import get_host
from patience_core.cli.options import DEAL, SECONDS, file_path, option_flag
from patience_core.engine.deal import DealNumber
from patience_core.engine.notation import counted, shown
from patience_core.errors import PatienceError
from patience_core.games import parse_options
from patience_core.persistence import SaveLock, move_aside
from patience_core.simulate import (
    COLUMNS,
    DEFAULT_MAX_MOVES,
    BatchSpec,
    SimRow,
    Summary,
    deal_range,
    options_text,
    row_problem,
    run_batch,
    run_deals,
    workers_for,
)

#: Worker processes at most (each may hold a solver table of a few hundred MB).
MAX_JOBS = 64

#: Output formats by file extension.
FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}


def set_aside(partial: Path) -> Path:
    """Rename ``partial`` to ``NAME.<date>-<time>.old`` in its folder (``-2``, ``-3``... added
    when that name is taken, so rows set aside in the same second are never overwritten).

    :returns: the new path.
    :raises PatienceError: when the file cannot be renamed.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return move_aside(partial, lambda serial: f"{partial.name}.{stamp}{serial}.old")


def output_format(path: str) -> str:
    """``"csv"`` or ``"jsonl"`` for an ``--output`` path (``-`` is CSV on stdout).

    :raises PatienceError: for another extension, a directory that does not exist, or a path
        that names a folder (:func:`~patience_core.cli.options.file_path`: ``rows.csv/`` too).
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
    return kind


class RowWriter:
    """Writes rows as CSV (with a header line) or JSON Lines to an open text stream."""

    def __init__(self, stream: IO[str], kind: str, header: bool = True) -> None:
        self._stream = stream
        self._kind = kind
        self._csv = csv.writer(stream, lineterminator="\n") if kind == "csv" else None
        if self._csv is not None and header:
            self._csv.writerow(COLUMNS)

    def write(self, row: SimRow) -> None:
        """Write one row (and flush it, so a killed run keeps every row written)."""
        if self._csv is not None:
            self._csv.writerow(
                [
                    row.game,
                    row.deal,
                    row.strategy,
                    row.options,
                    row.result,
                    row.score,
                    row.max_score,
                    row.moves,
                    f"{row.seconds:.6f}",
                ]
            )
        else:
            self._stream.write(json.dumps(row.as_dict()) + "\n")
        self._stream.flush()


#: The columns of a row that hold whole numbers.
_WHOLE = ("score", "max_score", "moves")
#: A whole number as the row writers write it.
_DIGITS = re.compile(r"0|[1-9][0-9]{0,99}")
#: Seconds as the CSV writer writes them (``0.000809``), or as a JSON number may read.
_SECONDS = re.compile(r"[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?")


def _parse_row(line: str, kind: str) -> SimRow:
    """One row of a CSV or JSON Lines file, read as strictly as :class:`RowWriter` writes it:
    the columns of :data:`COLUMNS`, texts as texts, whole numbers as digits (or JSON integers).

    :raises ValueError: with a short phrase saying why ``line`` is not such a row.
    """
    if kind == "csv":
        try:
            cells = next(csv.reader([line]))
        except (csv.Error, StopIteration):
            raise ValueError("not a line of CSV") from None
        if len(cells) != len(COLUMNS):
            raise ValueError(f"{counted(len(cells), 'field')}, not {len(COLUMNS)}")
        data: dict[str, Any] = dict(zip(COLUMNS, cells, strict=True))
        for name in _WHOLE:
            if not _DIGITS.fullmatch(data[name]):
                raise ValueError(f"{name} {shown(data[name])} is not a whole number")
            data[name] = int(data[name])
        if not _SECONDS.fullmatch(data["seconds"]):
            raise ValueError(f"seconds {shown(data['seconds'])} is not a number of seconds")
        data["seconds"] = float(data["seconds"])
    else:
        try:
            data = json.loads(line)
        except ValueError:
            raise ValueError("not a line of JSON") from None
        if not isinstance(data, dict) or set(data) != set(COLUMNS):
            raise ValueError("not an object with the columns of a row")
        for name in COLUMNS:
            value = data[name]
            if name == "seconds":
                ok, kind_of = type(value) in (int, float), "number"
            elif name in _WHOLE:
                ok, kind_of = type(value) is int, "whole number"
            else:
                ok, kind_of = type(value) is str, "text"
            if not ok:
                text = json.dumps(value)
                text = text if len(text) <= 40 else text[:37] + "..."
                raise ValueError(f"{name} {text} is not a {kind_of}")
    return SimRow(**{name: data[name] for name in COLUMNS})


def output_target(path: str) -> str:
    """The file a run with ``--output path`` writes: ``path``, or, when ``path`` is a symbolic
    link, the file it points to (written through, as saved games are: the link stays, its
    target gets the rows; the target may not exist yet). Its ``FILE.partial`` and its lock go
    with the target, so ``-O link.csv`` and ``-O target.csv`` resume the same rows.

    :raises PatienceError: when the link leads into a directory that does not exist, or round
        in a loop.
    """
    if not os.path.islink(path):
        return path
    real = os.path.realpath(path)
    if os.path.islink(real):
        raise PatienceError(f"cannot write {path!r}: its symbolic links go round in a loop")
    if not os.path.isdir(os.path.dirname(real)):
        raise PatienceError(
            f"cannot write {path!r}: it links to {real!r}, in a directory that does not exist"
        )
    return real


def partial_path(path: str) -> Path:
    """Where a run writing ``path`` keeps its rows until it ends: ``path + ".partial"``."""
    return Path(path + ".partial")


def check_partial(partial: Path) -> None:
    """Refuse a ``FILE.partial`` that is there but is not a plain file (a folder, a symbolic
    link, a device...): it holds no rows of a run, and is not this run's to rename or write.

    :raises PatienceError: one line naming it and what it is.
    """
    if not os.path.lexists(partial):
        return
    if partial.is_symlink():
        what = "a symbolic link"
    elif partial.is_dir():
        what = "a folder"
    elif not partial.is_file():
        what = "not a plain file"
    else:
        return
    raise PatienceError(
        f"{partial} is {what}, not the rows of a simulate run: move it away, or choose "
        "another --output"
    )


def run_versions(host: Any, game: str, strategy: str) -> dict[str, str]:
    """The versions of the code that makes a run's rows, by distribution name: patience-core,
    the plugin of ``game`` and the plugin of ``strategy`` (``"?"`` for one the host does not
    know). A partial file made under other versions is not resumed.

    :param host: the loaded :class:`~patience_core.plugins.PluginHost`.
    :raises PatienceError: for an unknown game or strategy.
    """
    wanted = {"patience-core", host.games.provider(game), host.strategies.provider(strategy)}
    versions = {"patience-core": __version__}
    for record in host.records:
        if record.distribution in wanted:
            versions.setdefault(record.distribution, record.version)
    return {name: versions.get(name, "?") for name in sorted(wanted)}


def run_header(params: dict[str, Any], kind: str) -> str:
    """The first line of a partial file: the run's parameters, as one JSON object (after ``# ``
    in CSV files, under ``"patience_simulate"`` in JSON Lines files)."""
    text = json.dumps(params, sort_keys=True)
    if kind == "csv":
        return f"# patience simulate {text}\n"
    return json.dumps({"patience_simulate": params}, sort_keys=True) + "\n"


def header_params(partial: Path, kind: str) -> dict[str, Any] | None:
    """The run parameters recorded on the first line of ``partial`` (see :func:`run_header`),
    or ``None`` when it holds none that can be read."""
    try:
        with partial.open("rb") as stream:
            first = stream.readline(1 << 20).decode("utf-8")
        if kind == "csv":
            prefix = "# patience simulate "
            data = json.loads(first[len(prefix) :]) if first.startswith(prefix) else None
        else:
            data = json.loads(first).get("patience_simulate")
    except (OSError, ValueError, AttributeError):
        return None
    return data if isinstance(data, dict) else None


def why_not_resumed(partial: Path, params: dict[str, Any], kind: str) -> str:
    """What ``partial``, whose run header is not this run's, holds, for the line saying it is
    set aside: ``rows made with other versions (patience-golf 0.1.0, now 0.2.0)`` when only the
    versions of the code differ (see :func:`run_versions`), otherwise ``rows of a run with
    other parameters or an older format``."""
    old = header_params(partial, kind)
    new = json.loads(json.dumps(params))
    if old is not None and isinstance(old.get("versions"), dict):
        was, now = old.pop("versions"), new.pop("versions", {})
        if old == new and was != now:
            changes = [
                f"{name} {was.get(name, 'not used')}, now {now.get(name, 'not used')}"
                for name in sorted(set(was) | set(now))
                if was.get(name) != now.get(name)
            ]
            return f"rows made with other versions ({'; '.join(changes)})"
    return "rows of a run with other parameters or an older format"


@attrs.frozen
class Resumed:
    """What a killed run left in ``FILE.partial`` for this run (:func:`resume_rows`).

    :param rows: the rows kept, in the file's order: whole lines, each a row this run could
        have written, one per deal at most.
    :param kept: the bytes of the file to keep: its run header (and CSV column names) and the
        lines of the rows kept.
    :param ours: the file's run header (and CSV column names) are this run's; when not, no row
        is kept.
    :param dropped: whole lines dropped because they could not be right (a half-written last
        line is not counted: it is expected after a kill).
    :param problem: why the first of them could not be right, e.g. ``the row of deal 3: score
        999 is outside 0..35``.
    """

    rows: list[SimRow]
    kept: bytes
    ours: bool
    dropped: int = 0
    problem: str = ""


def resume_rows(
    partial: Path,
    header: str,
    kind: str,
    deals: Collection[str],
    problem: Callable[[SimRow], str | None],
) -> Resumed:
    """The rows a killed run left in ``partial``, when its run header is ``header``.

    A row is kept when it is a whole line that reads back as :class:`RowWriter` writes it
    (:func:`_parse_row`), ``problem(row)`` finds nothing wrong with it (e.g.
    :func:`~patience_core.simulate.row_problem`), and no row of its deal came before; any other
    whole line is dropped. A file of an older format (other columns) is not this run's: its
    header (which records the columns) or its rows do not match.

    :param deals: the run's deals as text, to name a dropped row by its deal.
    """
    try:
        data = partial.read_bytes()
    except OSError:
        return Resumed([], b"", False)
    lines = data.split(b"\n")
    if (lines[0] + b"\n").decode("utf-8", "replace") != header:
        return Resumed([], b"", False)
    kept = [lines[0]]
    complete = lines[1:-1]  # the piece after the last newline is not a whole line
    first_row = 1
    if kind == "csv" and complete:
        if complete[0].decode("utf-8", "replace") != ",".join(COLUMNS):
            return Resumed([], b"", False)
        kept.append(complete[0])
        complete = complete[1:]
        first_row = 2
    rows: list[SimRow] = []
    seen: set[str] = set()
    dropped = 0
    first_problem = ""
    for number, raw in enumerate(complete, start=first_row + 1):
        where = f"line {number}"
        try:
            row = _parse_row(raw.decode("utf-8"), kind)
        except UnicodeDecodeError:
            why: str | None = "not UTF-8 text"
        except ValueError as exc:
            why = str(exc)
        else:
            why = problem(row)
            if why is None and row.deal in seen:
                why = "a second row of that deal"
            if row.deal in deals:
                where = f"the row of deal {row.deal}"
        if why is None:
            rows.append(row)
            seen.add(row.deal)
            kept.append(raw)
        else:
            dropped += 1
            first_problem = first_problem or f"{where}: {why}"
    return Resumed(rows, b"".join(line + b"\n" for line in kept), True, dropped, first_problem)


@contextlib.contextmanager
def atomic_output(path: str) -> Iterator[IO[str]]:
    """A text stream whose contents replace ``path`` only when the block ends normally.

    Rows go to a hidden temporary file in the same directory, renamed over ``path`` at the end,
    so an interrupted or failed run never leaves a partial file in place of a good one (the
    temporary file is removed). A file that already exists at ``path`` is replaced and keeps its
    permissions; a new one gets the usual permissions (0666 less the umask). A symbolic link is
    written through (:func:`output_target`): its target is replaced, the link stays.
    """
    target = Path(output_target(path))
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


def _finish(partial: Path, output: str, kind: str, order: list[str] | None = None) -> None:
    """Write the finished rows to ``output`` (the partial file without its run header line,
    atomically) and remove the partial file.

    :param order: the run's deals as text, when the rows of the partial file are not all in
        that order (a resumed run played deals missing between rows it kept): they are written
        in that order. ``None``: as they are.
    """
    with partial.open("r", encoding="utf-8", newline="") as source:
        source.readline()
        with atomic_output(output) as target:
            if kind == "csv":
                target.write(source.readline())  # the column names
            if order is None:
                for line in source:
                    target.write(line)
            else:
                by_deal = {_parse_row(line, kind).deal: line for line in source}
                for deal in order:
                    target.write(by_deal[deal])
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
    help="The player: random, greedy, solver (thoughtful winnability), honest (plays by honest "
    "hints), or one a plugin adds (`patience plugins`).",
)
@click.option(
    "--budget",
    type=SECONDS,
    help="Search CPU seconds per deal for solver (default 10); for honest, a cap in seconds "
    "on each move (none by default). The results then depend on the machine's speed; prefer "
    "--nodes.",
)
@click.option(
    "--nodes",
    type=click.IntRange(min=1),
    help="Search budget in positions: per deal for solver (without --budget, then with no "
    "time limit), per search for honest (default 1000). Gives the same rows on every machine.",
)
@click.option(
    "--jobs",
    "-j",
    type=click.IntRange(min=1, max=MAX_JOBS),
    default=1,
    show_default=True,
    help=f"Worker processes, at most {MAX_JOBS}. Rows are the same for any value.",
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
            if partial.exists() and partial.stat().st_size > 0:
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
    rows: Any = run_deals(host, spec, missing, jobs)
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
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
        if sys.stderr.isatty() and rest:
            iterator = stack.enter_context(
                click.progressbar(rows, length=rest, label="simulating", file=sys.stderr)
            )
        played = iter(iterator)
        for deal in deals:  # every deal in order: a row kept, or one played now
            row = kept_by_deal.get(deal)
            if row is None:
                row = next(played)
                if writer is not None:
                    writer.write(row)
            summary.add(row)
    if partial is not None and output is not None and kind is not None:
        in_order = [row.deal for row in kept] == deals[: len(kept)]
        _finish(partial, output_target(output), kind, None if in_order else deals)
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
