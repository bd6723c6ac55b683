"""Simulation: automatic players over many deals, for win rates and score statistics.

The run service (:class:`Run`, :func:`run_to_file`) plays a batch into the run store
(:class:`RunStore`, SQLite), resuming what a stopped run of the same parameters stored, and writes
the rows file from it; the deals are played in this process, in local worker processes
(:func:`local_chunks`) or on a Dask cluster (:class:`DaskPool`). Below it: chunks of deals
(:func:`play_chunk`), one deal (:func:`play_deal`), the row (:class:`SimRow`), statistics
(:class:`Summary`, :func:`wilson_interval`) and the rows files (:func:`write_rows`). See
``docs/simulate.md`` and ``docs/scale.md``.
"""

from __future__ import annotations

from patience_core.simulate._batch import (
    BatchSpec,
    Chunk,
    chunk_size_for,
    deal_range,
    play_chunk,
    play_one,
    prepare,
    worker_versions,
    workers_for,
)
from patience_core.simulate._dask import (
    DASK_NEEDS,
    DASK_TIMEOUT_ENV,
    MAX_LOCAL_WORKERS,
    DaskPool,
    SchedulerLost,
    check_scheduler,
    dask_available,
    dask_timeout,
)
from patience_core.simulate._env import seconds_from_env
from patience_core.simulate._output import (
    FORMATS,
    PARQUET_NEEDS,
    RowWriter,
    atomic_output,
    check_output,
    not_empty,
    output_target,
    parquet_available,
    row_line,
    rows_format,
    write_rows,
)
from patience_core.simulate._play import play_deal, plugin_failure, strategy_seed
from patience_core.simulate._pool import (
    MAIN_GUARD,
    WorkerDied,
    chunks_of,
    local_chunks,
    run_batch,
    run_deals,
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
    run_versions,
)
from patience_core.simulate._run import COMMIT_ROWS, COMMIT_SECONDS, Run, run_to_file
from patience_core.simulate._stats import Z95, Summary, summary_lines, wilson_interval
from patience_core.simulate._store import (
    SCHEMA_VERSION,
    STORE_TIMEOUT_ENV,
    RunInfo,
    RunStore,
    default_store,
)

__all__ = [
    "COLUMNS",
    "COMMIT_ROWS",
    "COMMIT_SECONDS",
    "DASK_NEEDS",
    "DASK_TIMEOUT_ENV",
    "DEAD",
    "DEFAULT_MAX_MOVES",
    "FORMATS",
    "LOST",
    "MAIN_GUARD",
    "MAX_LOCAL_WORKERS",
    "NEVER_GIVEN",
    "PARQUET_NEEDS",
    "RESULTS",
    "SCHEMA_VERSION",
    "STOPPED",
    "STORE_TIMEOUT_ENV",
    "UNKNOWN",
    "WON",
    "Z95",
    "BatchSpec",
    "Chunk",
    "DaskPool",
    "RowWriter",
    "Run",
    "RunInfo",
    "RunStore",
    "SchedulerLost",
    "SimRow",
    "Summary",
    "WorkerDied",
    "atomic_output",
    "check_output",
    "check_scheduler",
    "chunk_size_for",
    "chunks_of",
    "dask_available",
    "dask_timeout",
    "deal_range",
    "default_store",
    "local_chunks",
    "not_empty",
    "options_text",
    "output_target",
    "parquet_available",
    "play_chunk",
    "play_deal",
    "play_one",
    "plugin_failure",
    "prepare",
    "row_line",
    "row_problem",
    "rows_format",
    "run_batch",
    "run_deals",
    "run_to_file",
    "run_versions",
    "seconds_from_env",
    "strategy_seed",
    "summary_lines",
    "wilson_interval",
    "worker_versions",
    "workers_for",
    "write_rows",
]
