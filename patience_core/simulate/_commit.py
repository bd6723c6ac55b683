"""The run service's rows on their way to the store and out of it: committed by batches as they
are played (what a stopped run keeps), then written to the output in deal order.

Layer 4, under the run service (:mod:`patience_core.simulate._run`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import IO

from patience_core.errors import PatienceError, ctrl_c_ignored
from patience_core.simulate._output import RowWriter, write_rows
from patience_core.simulate._rows import SimRow
from patience_core.simulate._store import RunStore

__all__ = ["COMMIT_ROWS", "COMMIT_SECONDS", "commit_by_batches", "write_out"]

#: Rows are committed to the store when this many wait, or when the oldest waited this long
#: (seconds): what a kill -9 can lose at most.
COMMIT_ROWS = 100
COMMIT_SECONDS = 0.5


def commit_by_batches(
    store: RunStore,
    run_id: int,
    batches: Iterable[list[tuple[int, SimRow]]],
    on_progress: Callable[[SimRow], None] | None = None,
) -> None:
    """Add the rows of ``batches`` (place in the run, row) to run ``run_id`` of ``store`` as
    they come, committed when :data:`COMMIT_ROWS` wait or the oldest waited
    :data:`COMMIT_SECONDS`; the rows that came before a failure or a Ctrl-C are committed too.

    :param on_progress: called with each row as it comes.
    :raises PatienceError: when the store cannot be written; whatever ``batches`` raises.
    """
    waiting: list[tuple[int, SimRow]] = []
    last = time.monotonic()
    try:
        for pairs in batches:
            waiting.extend(pairs)
            if on_progress is not None:
                for _, row in pairs:
                    on_progress(row)
            if len(waiting) >= COMMIT_ROWS or time.monotonic() - last >= COMMIT_SECONDS:
                store.add_rows(run_id, waiting)
                waiting, last = [], time.monotonic()
    finally:
        if waiting:  # played before a Ctrl-C or a failure: kept for the next run
            with ctrl_c_ignored():
                store.add_rows(run_id, waiting)


def write_out(
    rows: list[SimRow],
    stream: IO[str] | None,
    output: str | None,
    kind: str | None,
    run_id: int | None,
) -> None:
    """Write every row of a run, in deal order: to ``stream`` as CSV when there is one, else
    to the file ``output`` in the format ``kind``; nowhere when neither is given.

    :param run_id: the run's number in the store, for the message of a failure.
    :raises PatienceError: when ``output`` cannot be written (the message says how to export
        the rows the store keeps).
    """
    if stream is not None:
        writer = RowWriter(stream, "csv", flush=False)
        for row in rows:
            writer.write(row)
        stream.flush()
    elif output is not None and kind is not None:
        try:
            write_rows(output, rows, kind)
        except (PatienceError, OSError) as exc:
            why = (
                str(exc)
                if isinstance(exc, PatienceError)
                else f"cannot write {output!r}: {exc.strerror or exc}"
            )
            raise PatienceError(
                f"{why}; the rows are kept in the run store: patience runs export {run_id} FILE"
            ) from None
