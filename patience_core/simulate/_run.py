"""The run service: a batch played into the run store, resuming what a stopped run left, then
written to a rows file.

Layer 4. :class:`Run` is what ``patience simulate`` does, for a notebook or a script too: it
checks the run's inputs, finds the run of the same parameters in the store
(:class:`~patience_core.simulate.RunStore`), plays the deals it still lacks (in this process, in
local worker processes, or on a Dask cluster), committing their rows by batches, and writes the
output file whole from the store (:mod:`patience_core.simulate._commit`)::

    with Run(host, BatchSpec.of("escalator", "greedy"), DealNumber(1), 3000,
             output="rows.csv", jobs=2) as run:
        summary = run.play()

:func:`run_to_file` does the same in one call. See ``docs/simulate.md``, "From Python".
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from patience_core.engine import DealNumber, counted
from patience_core.errors import PatienceError
from patience_core.families import variant_record
from patience_core.plugins import PluginHost
from patience_core.simulate._batch import BatchSpec, chunk_size_for, deal_range, play_one, prepare
from patience_core.simulate._batch import workers_for as _workers_for
from patience_core.simulate._commit import COMMIT_ROWS, COMMIT_SECONDS, commit_by_batches, write_out
from patience_core.simulate._dask import (
    DaskPool,
    SchedulerLost,
    check_scheduler,
    dask_available,
    dask_timeout,
)
from patience_core.simulate._output import output_target, rows_format
from patience_core.simulate._pool import chunks_of, local_chunks
from patience_core.simulate._rows import SimRow, run_versions
from patience_core.simulate._stats import Summary, summary_lines
from patience_core.simulate._store import RunStore

__all__ = ["COMMIT_ROWS", "COMMIT_SECONDS", "Run", "run_to_file"]


class Run:
    """One batch run: deals ``first .. first+n-1`` of ``spec``, stored in a run store, played
    in this process, in ``jobs`` worker processes or on a Dask ``scheduler``, written to
    ``output`` (or ``stream``) when every deal has its row, and added up in a :class:`Summary`.

    Every input is checked when the run is made, before any file is touched. Entering the run
    (``with``, or :meth:`open`) opens the store and finds the rows a run of the same parameters
    stored; :meth:`play` plays the rest; leaving it (or :meth:`close`) closes the store. A
    Ctrl-C during :meth:`play` keeps every row played, for the next run to resume.

    :param host: the plugin host (loaded here if it is not).
    :param spec: the game, its options, the strategy, the move cap and the search budget.
    :param first: the first deal.
    :param n: how many deals, >= 1.
    :param output: the rows file, ``.csv``, ``.jsonl`` (or ``.ndjson``) or ``.parquet``;
        ``None`` for none. A symbolic link is written through.
    :param stream: an open text stream the rows go to as CSV (with the column names) at the
        end; for ``--output -``.
    :param jobs: worker processes, >= 1.
    :param scheduler: a Dask scheduler's address or ``local:N`` (see ``docs/scale.md``);
        not with ``jobs > 1``.
    :param store: the run store's file (default ``<data dir>/runs.db``).
    :param on_note: called with each one-line note (resumed, a worker died, an old partial
        file of an older patience beside the output) as it happens; the notes are kept in
        :attr:`notes` too.
    :raises UnknownGame, BadOption, BadDeal, PatienceError: for bad input: an unknown game,
        strategy or option, deals past the last one, a budget the strategy does not take, an
        output of another format or one that may not be replaced, a bad ``scheduler`` or one
        without Dask installed.
    """

    def __init__(
        self,
        host: PluginHost,
        spec: BatchSpec,
        first: DealNumber,
        n: int,
        *,
        output: str | os.PathLike[str] | None = None,
        stream: IO[str] | None = None,
        jobs: int = 1,
        scheduler: str | None = None,
        store: str | os.PathLike[str] | None = None,
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        host.load()
        self.host, self.spec, self.first, self.n, self.jobs = host, spec, first, n, jobs
        #: The game played (its name, title, options in force, largest score).
        self.game = host.game(spec.game, dict(spec.options))
        self._numbers = deal_range(first, n)
        #: The run's deals as text (``"17"``, ``"ms:17"``), in order.
        self.deals = [str(deal) for deal in self._numbers]
        if jobs < 1:
            raise PatienceError(f"jobs must be at least 1, not {jobs}")
        self._setup = prepare(host, spec)
        self._setup[0].deal(self._numbers[0])  # the game refuses a scheme it does not take here
        self.scheduler = scheduler
        if scheduler is not None:
            if jobs > 1:
                raise PatienceError(
                    "--jobs and --scheduler do not go together: with Dask, the cluster's "
                    "workers play the deals (local:N for N processes here)"
                )
            check_scheduler(scheduler)
            dask_available()
            dask_timeout()  # a bad PATIENCE_DASK_TIMEOUT is said before any file is touched
        self.output = None if output is None else os.fspath(output)
        self.kind = None if self.output is None else rows_format(self.output)
        self.stream = stream
        self.store_path = store
        self.on_note = on_note
        #: The notes, in order (see ``on_note``).
        self.notes: list[str] = []
        #: The deals of the run already in the store when it was opened.
        self.stored: set[str] = set()
        #: The run's number in the store, once opened.
        self.run_id: int | None = None
        #: The summary of every row, once :meth:`play` has ended.
        self.summary: Summary | None = None
        #: The wall-clock seconds :meth:`play` took (0 before it ends).
        self.wall_seconds = 0.0
        self._store: RunStore | None = None
        self._dask_workers = 0

    @property
    def remaining(self) -> int:
        """The deals :meth:`play` plays: those without a stored row (every deal before
        :meth:`open`)."""
        return self.n - len(self.stored)

    @property
    def workers(self) -> int:
        """The processes playing the deals (1: this one; with Dask, its workers, once known)."""
        if self.scheduler is not None:
            return self._dask_workers or 1
        return _workers_for(self.remaining, self.jobs, self._chunk_size())

    def _chunk_size(self) -> int:
        if self.host.strategies.takes_budget(self.spec.strategy):
            return 1  # seconds a deal: a run stopped loses only the deals being played
        return chunk_size_for(self.remaining, max(self.jobs, self._dask_workers, 1))

    def params(self) -> dict[str, Any]:
        """The run's identity in the store: the game, its options in force (defaults included),
        the strategy, budgets, move cap, deals, and the versions of the code making the rows;
        for a variant-file game its rules too (an edited file starts a new run)."""
        game, spec = self.game, self.spec
        params: dict[str, Any] = {
            "game": game.name,
            "options": dict(sorted(game.option_values.items())),
            "strategy": spec.strategy,
            "budget": spec.seconds,
            "nodes": spec.nodes,
            "max_moves": spec.max_moves,
            "first_deal": str(self.first),
            "deals": self.n,
            "versions": run_versions(self.host, game.name, spec.strategy),
        }
        rules = variant_record(game)
        if rules is not None:  # other games keep the identity of their earlier runs
            params["rules"] = {"family": rules["family"], "parameters": rules["parameters"]}
        return params

    def open(self) -> Run:
        """Open the store and find the run of these parameters (made when there is none) and
        its stored rows. Safe to call twice.

        :raises PatienceError: for a store that is corrupt, of something else, or locked.
        """
        if self._store is not None:
            return self
        self._store = RunStore(self.store_path)
        try:
            # Found, not made: a run is recorded only once its deals can start (play).
            self.run_id = self._store.find_run(self.params())
            if self.run_id is not None:
                self.stored = self._store.stored_deals(self.run_id) & set(self.deals)
        except BaseException:
            self.close()
            raise
        if self.output is not None:
            old = Path(f"{output_target(self.output)}.partial")
            if old.exists() or old.is_symlink():
                self._note(
                    f"{old} is left from an older patience, which kept a run's rows there; "
                    "runs are now kept in the run store (docs/simulate.md): it is not read, "
                    "remove it when you no longer need it"
                )
        if self.stored:
            self._note(
                f"Resuming run {self.run_id} of {self._store.path}: {len(self.stored)} of "
                f"{counted(self.n, 'deal')} already played."
            )
        return self

    def close(self) -> None:
        """Close the store; safe to call twice."""
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Run:
        return self.open()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def _note(self, text: str) -> None:
        self.notes.append(text)
        if self.on_note is not None:
            self.on_note(text)

    def _played_now(
        self, missing: list[tuple[int, DealNumber]], pool: DaskPool | None
    ) -> Iterator[list[tuple[int, SimRow]]]:
        """The rows of ``missing`` (place in the run, deal) as they are played, by batches."""
        if not missing:
            return
        deals = [deal for _, deal in missing]

        def placed(index: int, size: int, rows: list[SimRow]) -> list[tuple[int, SimRow]]:
            return [(seq, row) for (seq, _), row in zip(missing[index * size :], rows)]  # noqa: B905

        if pool is not None:
            size = self._chunk_size()
            for index, rows in pool.chunks(chunks_of(self.spec, deals, size)):
                yield placed(index, size, rows)
        elif self.workers > 1:
            size = self._chunk_size()
            chunks = chunks_of(self.spec, deals, size)
            for index, rows in local_chunks(chunks, self.jobs, self._note):
                yield placed(index, size, rows)
        else:
            for seq, deal in missing:
                yield [(seq, play_one(self._setup, self.spec, deal))]

    def play(self, on_progress: Callable[[SimRow], None] | None = None) -> Summary:
        """Play the deals without a stored row, store their rows (committed by batches), and
        write every row to ``output`` or ``stream`` in deal order; :attr:`wall_seconds` then
        holds the time taken. A run not yet opened is opened first (:meth:`open`): close it
        afterwards, or play it in a ``with`` block.

        :param on_progress: called with each row played now, e.g. to move a progress bar of
            :attr:`remaining` steps.
        :returns: the summary of every row of the run, stored before or played now.
        :raises PluginError: when a plugin's code fails (one line naming it); the rows played
            before are stored.
        :raises PatienceError: when ``output`` cannot be written (the rows stay in the store),
            the store cannot be written, workers keep dying, or Dask refuses.
        """
        store = self.open()._store
        assert store is not None
        missing = [
            (seq, deal) for seq, deal in enumerate(self._numbers) if str(deal) not in self.stored
        ]
        with contextlib.ExitStack() as stack:
            # The scheduler is tried before the run is recorded: one that cannot be used
            # leaves no empty run in the store.
            pool = None
            if self.scheduler is not None and missing:
                pool = stack.enter_context(DaskPool.checked(self.scheduler, self.params()))
                self._dask_workers = len(pool.workers)
            self.run_id = run_id = store.run_for(self.params())
            try:
                self._play_into(store, run_id, missing, pool, on_progress)
            except SchedulerLost as exc:
                kept = len(store.stored_deals(run_id))
                raise PatienceError(
                    f"{exc}; {counted(kept, 'row')} kept; run the same command again to resume"
                ) from None
        rows = store.rows(run_id)
        store.finish(run_id)
        summary = Summary(self.game.name, self.spec.strategy, self.game.max_score)
        for row in rows:
            summary.add(row)
        self.summary = summary
        self._write(rows)
        return summary

    def _play_into(
        self,
        store: RunStore,
        run_id: int,
        missing: list[tuple[int, DealNumber]],
        pool: DaskPool | None,
        on_progress: Callable[[SimRow], None] | None,
    ) -> None:
        """Play ``missing`` and commit their rows by batches; those played before a failure or a
        Ctrl-C are committed too. :attr:`wall_seconds` then holds the time taken."""
        started = time.perf_counter()
        commit_by_batches(store, run_id, self._played_now(missing, pool), on_progress)
        self.wall_seconds = time.perf_counter() - started

    def _write(self, rows: list[SimRow]) -> None:
        write_out(rows, self.stream, self.output, self.kind, self.run_id)

    def summary_lines(self) -> list[str]:
        """The summary as ``patience simulate`` prints it, once :meth:`play` has ended.

        :raises PatienceError: before that.
        """
        return summary_lines(
            self._played(),
            self.game.title,
            self.workers,
            self.wall_seconds,
            self.remaining,
            "the run store",
        )

    def as_dict(self) -> dict[str, Any]:
        """The summary as ``patience simulate --json`` prints it, once :meth:`play` has ended:
        :meth:`Summary.as_dict <patience_core.simulate.Summary.as_dict>` of this run, with the
        game's ``options`` in force, the ``jobs`` (processes playing), ``max_moves``, the
        ``run`` number in the store, and, with a search budget, ``budget`` and ``nodes``.

        :raises PatienceError: before that.
        """
        data = self._played().as_dict(self.wall_seconds, self.remaining)
        data["options"] = dict(sorted(self.game.option_values.items()))
        data["jobs"] = self.workers
        data["max_moves"] = self.spec.max_moves
        data["run"] = self.run_id
        if self.spec.seconds is not None or self.spec.nodes is not None:
            data["budget"] = self.spec.seconds
            data["nodes"] = self.spec.nodes
        return data

    def _played(self) -> Summary:
        if self.summary is None:
            raise PatienceError("the run has not been played yet")
        return self.summary


def run_to_file(
    host: PluginHost,
    spec: BatchSpec,
    first: DealNumber,
    n: int,
    output: str | os.PathLike[str] | None,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    store: str | os.PathLike[str] | None = None,
    on_progress: Callable[[SimRow], None] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> Summary:
    """Play deals ``first .. first+n-1`` of ``spec`` into the run store and then ``output``,
    resuming the rows a stopped run of the same parameters stored: :class:`Run` in one call.

    :returns: the summary of every row.
    :raises UnknownGame, BadOption, BadDeal, PatienceError, PluginError: as :class:`Run` and
        :meth:`Run.play`.
    """
    with Run(
        host, spec, first, n, output=output, jobs=jobs, scheduler=scheduler, store=store,
        on_note=on_note,
    ) as run:  # fmt: skip
        return run.play(on_progress)
