"""``patience runs``: the simulate runs kept in the run store; ``runs export``, ``runs delete``.

Layer 5: a thin layer over :class:`patience_core.simulate.RunStore`. See ``docs/simulate.md``,
"The run store", and ``docs/scale.md``.
"""

from __future__ import annotations

import json
import sys

import click

from patience_core.cli.options import WholeNumberType, file_path
from patience_core.errors import PatienceError
from patience_core.simulate import (
    RowWriter,
    RunInfo,
    RunStore,
    default_store,
    not_empty,
    rows_format,
    write_rows,
)

#: A run's number: an SQLite INTEGER.
_RUN = WholeNumberType(min=1, max=2**63 - 1)


def _store(ctx: click.Context, read_only: bool = True) -> RunStore:
    """The run store, which must exist: listing and exporting only read it."""
    path = ctx.find_root().meta.get("patience.runs.store")
    path = None if path is None else file_path(not_empty(path, "--store"), "--store")
    return RunStore(path, create=False, read_only=read_only)


def _line(run: RunInfo) -> str:
    p = run.params
    options = ";".join(f"{k}={v}" for k, v in sorted(p["options"].items())) or "-"
    first = p["first_deal"]
    state = run.ended or f"stopped, {run.rows} of {p['deals']}"
    return (
        f"{run.id:>4}  {p['game']:<13} {p['strategy']:<8} {options:<24} {first:>8} "
        f"{p['deals']:>7}  {run.started}  {state}"
    )


@click.group(invoke_without_command=True)
@click.option("--store", metavar="PATH", help="The run store; default runs.db in the data folder.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of runs instead.")
@click.pass_context
def runs(ctx: click.Context, store: str | None, as_json: bool) -> None:
    """List the simulate runs kept in the run store: number, game, strategy, options, first
    deal, deals, when started, and when ended (or how many rows a stopped run has).

    With --json: a list of objects with the fields id, game, options, strategy, budget, nodes,
    max_moves, first_deal, deals, versions, host, started, ended and rows.
    """
    ctx.find_root().meta["patience.runs.store"] = store
    if ctx.invoked_subcommand is not None:
        return
    if store is None and not default_store().exists():
        # Nothing run yet: said, and nothing made (a typed --store that is missing is refused).
        if as_json:
            click.echo("[]")
        else:
            click.echo(f"No runs in {default_store()} (it does not exist yet).")
        return
    with _store(ctx) as opened:
        stored = opened.runs()
    if as_json:
        click.echo(json.dumps([run.as_dict() for run in stored], indent=2))
        return
    if not stored:
        click.echo(f"No runs in {opened.path}.")
        return
    click.echo(
        f"{'run':>4}  {'game':<13} {'strategy':<8} {'options':<24} {'first':>8} {'deals':>7}  "
        f"{'started':<25}  ended"
    )
    for run in stored:
        click.echo(_line(run))


@runs.command()
@click.argument("run", type=_RUN)
@click.argument("file")
@click.pass_context
def export(ctx: click.Context, run: int, file: str) -> None:
    """Write the rows of run RUN to FILE (.csv, .jsonl or .parquet; - for CSV on stdout), in
    deal order, with the columns of patience simulate --output."""
    kind = "csv" if file == "-" else rows_format(str(file_path(not_empty(file, "FILE"), "FILE")))
    with _store(ctx) as opened:
        info = opened.run(run)  # no such run: one line
        rows = opened.rows(run)
    if info.ended is None:
        click.echo(
            f"Run {run} is incomplete: {info.rows} of {info.params['deals']} deals stored "
            "(the same patience simulate command plays the rest).",
            err=True,
        )
    if file == "-":
        writer = RowWriter(sys.stdout, "csv", flush=False)
        for row in rows:
            writer.write(row)
        sys.stdout.flush()
        return
    write_rows(file, rows, kind)
    click.echo(f"Wrote {len(rows)} rows of run {run} to {file}.", err=True)


@runs.command()
@click.argument("run", type=_RUN)
@click.option("--yes", "-y", is_flag=True, help="Do not ask before deleting.")
@click.pass_context
def delete(ctx: click.Context, run: int, yes: bool) -> None:
    """Delete run RUN and its rows from the run store (asks first, unless --yes)."""
    with _store(ctx, read_only=False) as opened:
        info = opened.run(run)
        what = f"run {run} ({info.params['game']}, {info.params['strategy']}, {info.rows} rows)"
        if not yes:
            try:
                agreed = click.confirm(f"Delete {what}?", default=False)
            except click.exceptions.Abort:  # no answer (end of input)
                click.echo()
                agreed = False
            if not agreed:
                raise PatienceError(f"nothing deleted (answer y, or give --yes): {what} kept")
        opened.delete(run)
    click.echo(f"Deleted {what}.")
