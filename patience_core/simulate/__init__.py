"""Simulation: automatic players over many deals, for win rates and score statistics.

The run service (:class:`Run`, :func:`run_to_file`) plays a batch to a rows file and resumes a
stopped run; below it, batches and the worker pool (:func:`run_batch`), one deal
(:func:`play_deal`), the row (:class:`SimRow`), statistics (:class:`Summary`,
:func:`wilson_interval`), the rows files and the ``FILE.partial`` protocol. See
``docs/simulate.md``.
"""

from __future__ import annotations

from patience_core.simulate._batch import (
    BatchSpec,
    chunk_size_for,
    deal_range,
    prepare,
    run_batch,
    run_deals,
    workers_for,
)
from patience_core.simulate._partial import (
    Resumed,
    check_partial,
    finish,
    header_params,
    holds_no_rows,
    partial_path,
    resume_rows,
    run_header,
    run_versions,
    set_aside,
    why_not_resumed,
)
from patience_core.simulate._play import play_deal, plugin_failure, strategy_seed
from patience_core.simulate._rowfiles import (
    FORMATS,
    RowWriter,
    atomic_output,
    check_output,
    output_target,
    parse_row,
    row_line,
)
from patience_core.simulate._rows import (
    COLUMNS,
    DEAD,
    DEFAULT_MAX_MOVES,
    LOST,
    NEVER_GIVEN,
    RESULTS,
    STOPPED,
    UNKNOWN,
    WON,
    SimRow,
    options_text,
    row_problem,
)
from patience_core.simulate._run import Run, rows_format, run_to_file
from patience_core.simulate._stats import Z95, Summary, summary_lines, wilson_interval
from patience_core.simulate._workers import (
    R,
    T,
    WorkerDied,
    WorkerTraceback,
    ordered_items,
)

__all__ = [
    "COLUMNS",
    "DEAD",
    "DEFAULT_MAX_MOVES",
    "FORMATS",
    "LOST",
    "NEVER_GIVEN",
    "RESULTS",
    "STOPPED",
    "UNKNOWN",
    "WON",
    "Z95",
    "BatchSpec",
    "R",
    "Resumed",
    "RowWriter",
    "Run",
    "SimRow",
    "Summary",
    "T",
    "WorkerDied",
    "WorkerTraceback",
    "atomic_output",
    "check_output",
    "check_partial",
    "chunk_size_for",
    "deal_range",
    "finish",
    "header_params",
    "holds_no_rows",
    "options_text",
    "ordered_items",
    "output_target",
    "parse_row",
    "partial_path",
    "play_deal",
    "plugin_failure",
    "prepare",
    "resume_rows",
    "row_line",
    "row_problem",
    "rows_format",
    "run_batch",
    "run_deals",
    "run_header",
    "run_to_file",
    "run_versions",
    "set_aside",
    "strategy_seed",
    "summary_lines",
    "why_not_resumed",
    "wilson_interval",
    "workers_for",
]
