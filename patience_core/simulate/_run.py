"""The run service: a batch played to a rows file, resuming what a stopped run left.

Layer 4. :class:`Run` is what ``patience simulate`` does, for a notebook or a script too: it
checks the run's inputs, holds the output file (one run per file), resumes the rows a stopped run
of the same parameters left in ``FILE.partial`` (:mod:`patience_core.simulate._partial`), plays
the deals still missing, and writes the finished file whole::

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
from patience_core.errors import PatienceError, ctrl_c_ignored
from patience_core.files import WriterLock
from patience_core.games import shown_path
from patience_core.plugins import PluginHost
from patience_core.simulate._batch import BatchSpec, deal_range, run_batch, run_deals, workers_for
from patience_core.simulate._partial import (
    check_partial,
    finish,
    holds_no_rows,
    partial_path,
    resume_rows,
    run_header,
    run_versions,
    set_aside,
    why_not_resumed,
)
from patience_core.simulate._rowfiles import FORMATS, RowWriter, check_output, output_target
from patience_core.simulate._rows import COLUMNS, SimRow, options_text, row_problem
from patience_core.simulate._stats import Summary, summary_lines

__all__ = ["Run", "rows_format", "run_to_file"]


def rows_format(path: str) -> str:
    """``"csv"`` or ``"jsonl"`` for a rows file named ``path`` (by its extension, see
    :data:`~patience_core.simulate.FORMATS`), once it is sure that a run may write it.

    :raises PatienceError: one line, for another extension, a directory that does not exist,
        or a file the run may not replace (:func:`~patience_core.simulate.check_output`: a named
        pipe, a device, a socket, a read-only file, even through a symbolic link).
    """
    target = Path(path)
    kind = FORMATS.get(target.suffix.lower())
    if kind is None:
        raise PatienceError(f"cannot tell the format of {path!r}: use a .csv or .jsonl file name")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise PatienceError(
            f"cannot write {path!r}: directory {shown_path(parent, quote=True)} does not exist"
        )
    check_output(path)
    return kind


class Run:
    """One batch run: deals ``first .. first+n-1`` of ``spec`` played with ``jobs`` worker
    processes, their rows written to ``output`` (through ``FILE.partial``, resumed when a stopped
    run of the same parameters left one) or to ``stream``, and added up in a :class:`Summary`.

    Every input is checked when the run is made, before any file is touched. Entering the run
    (``with``, or :meth:`open`) takes the output file's lock and resumes its rows; :meth:`play`
    plays the rest; leaving it (or :meth:`close`) gives the lock back. A Ctrl-C during
    :meth:`play` keeps every row played in ``FILE.partial``, for the next run to resume.

    :param host: the plugin host (loaded here if it is not).
    :param spec: the game, its options, the strategy, the move cap and the search budget.
    :param first: the first deal.
    :param n: how many deals, >= 1.
    :param output: the rows file, ``.csv`` or ``.jsonl`` (or ``.ndjson``); ``None`` for none. A
        symbolic link is written through (:func:`~patience_core.simulate.output_target`).
    :param stream: an open text stream the rows go to as CSV (with the column names), without
        ``FILE.partial`` and without resuming; for ``--output -``.
    :param jobs: worker processes, >= 1 (see :func:`~patience_core.simulate.run_batch`).
    :param on_note: called with each one-line note on the partial file (resumed, set aside, rows
        dropped) as it happens; the notes are kept in :attr:`notes` too.
    :raises UnknownGame, BadOption, BadDeal, PatienceError: for bad input: an unknown game,
        strategy or option, deals past the last one, a budget the strategy does not take, an
        output of another format or one that may not be replaced
        (:func:`~patience_core.simulate.check_output`).
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
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        host.load()
        self.host, self.spec, self.first, self.n, self.jobs = host, spec, first, n, jobs
        #: The game played (its name, title, options in force, largest score).
        self.game = host.game(spec.game, dict(spec.options))
        self._numbers = deal_range(first, n)
        #: The run's deals as text (``"17"``, ``"ms:17"``), in order.
        self.deals = [str(deal) for deal in self._numbers]
        # The game, options, strategy, budgets, deals and jobs are checked; nothing is played.
        run_batch(host, spec, first, n, jobs)
        self.output = None if output is None else os.fspath(output)
        self.kind = None if self.output is None else rows_format(self.output)
        self.stream = stream
        self.on_note = on_note
        #: The notes on the partial file, in order (see ``on_note``).
        self.notes: list[str] = []
        #: The rows of ``FILE.partial`` kept by :meth:`open`, in the file's order.
        self.kept: list[SimRow] = []
        #: Where the rows wait until the run ends (``None`` without ``output``).
        self.partial: Path | None = None
        #: The summary of every row, once :meth:`play` has ended.
        self.summary: Summary | None = None
        #: The wall-clock seconds :meth:`play` took (0 before it ends).
        self.wall_seconds = 0.0
        self._header = ""
        self._lock: WriterLock | None = None
        self._opened = False

    @property
    def remaining(self) -> int:
        """The deals :meth:`play` plays: those without a row kept (every deal before
        :meth:`open`)."""
        return self.n - len(self.kept)

    @property
    def workers(self) -> int:
        """The worker processes :meth:`play` starts (1: the deals are played in this process)."""
        return workers_for(self.remaining, self.jobs)

    def open(self) -> Run:
        """Take the output file's lock and resume the rows ``FILE.partial`` holds for this run
        (a partial file of another run is set aside as ``FILE.partial.<date>-<time>.old``, rows
        that cannot be right are dropped, the file as it was kept aside). Safe to call twice.

        :raises PatienceError: when another run holds the output file, or ``FILE.partial`` is
            not a plain file.
        """
        if self._opened or self.output is None:
            self._opened = True
            return self
        target = output_target(self.output)
        # One run per output file: two would resume, write and finish the same rows.
        self._lock = WriterLock(
            Path(target),
            busy=f"{self.output} is being written by another patience simulate run; "
            "wait for it to end, or choose another --output",
        )
        self._lock.acquire()
        try:
            self._resume(partial_path(target))
        except BaseException:
            self.close()
            raise
        self._opened = True
        return self

    def close(self) -> None:
        """Give the output file's lock back; safe to call twice."""
        if self._lock is not None:
            self._lock.release()
            self._lock = None

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

    def _resume(self, partial: Path) -> None:
        """Keep the rows of ``partial`` this run could have written (see :meth:`open`)."""
        assert self.kind is not None
        check_partial(partial)
        self.partial = partial
        game, spec = self.game, self.spec
        params = {
            "columns": list(COLUMNS),  # a partial file of another row format is not resumed
            "game": game.name,
            "options": dict(game.option_values),  # in force, defaults included
            "strategy": spec.strategy,
            "first_deal": str(self.first),
            "deals": self.n,
            "max_moves": spec.max_moves,
            "budget": spec.seconds,
            "nodes": spec.nodes,
            # rows of other versions of the game's or the strategy's code are not mixed in
            "versions": run_versions(self.host, game.name, spec.strategy),
        }
        self._header = run_header(params, self.kind)
        options, in_run = options_text(game.option_values), set(self.deals)

        def problem(row: SimRow) -> str | None:
            return row_problem(
                row,
                game=game.name,
                deals=in_run,
                strategy=spec.strategy,
                options=options,
                max_score=game.max_score,
                max_moves=spec.max_moves,
            )

        resumed = resume_rows(partial, self._header, self.kind, in_run, problem)
        self.kept = resumed.rows
        if not resumed.ours:
            if holds_no_rows(partial, self.kind):
                # Only the run header of another run (it ended before its first row): nothing
                # to keep, so nothing to set aside.
                partial.unlink()
            elif partial.exists() and partial.stat().st_size > 0:
                # Rows of a run with other parameters, made with other versions of the code,
                # or of an older row format (no options column): never thrown away silently.
                holds = why_not_resumed(partial, params, self.kind)
                self._note(f"{partial} holds {holds}; kept as {set_aside(partial)}.")
        elif resumed.dropped:
            # Whole lines that could not be right (edited, or written by a broken version):
            # dropped, so their deals are played again, and the file as it was is kept aside
            # (it is not ours to lose).
            aside = set_aside(partial)
            if self.kept:
                partial.write_bytes(resumed.kept)
            again = "deals without a sound row are played now; " if self.remaining else ""
            self._note(
                f"{partial}: dropped {counted(resumed.dropped, 'row')} that could not be right "
                f"(the first, {resumed.problem}); {again}the file as it was is kept as {aside}."
            )
        elif self.kept:
            with partial.open("r+b") as raw:
                raw.truncate(len(resumed.kept))  # a half-written last line
        if self.kept:
            self._note(
                f"Resuming from {partial}: {len(self.kept)} of {counted(self.n, 'deal')} "
                "already played."
            )

    def play(self, on_progress: Callable[[SimRow], None] | None = None) -> Summary:
        """Play the deals without a row kept, write every row, and add them all up.

        The rows go to ``FILE.partial`` as they come (after the kept ones); when every deal has
        its row, they replace ``output`` whole, in deal order, and ``FILE.partial`` is removed.
        A run that ends before its first row (a failing plugin, Ctrl-C) removes the partial file
        it began. :attr:`wall_seconds` then holds the time taken. A run not yet opened is opened
        first (:meth:`open`): :meth:`close` it afterwards, or play it in a ``with`` block.

        :param on_progress: called with each row played now (not the kept ones), e.g. to move a
            progress bar of :attr:`remaining` steps.
        :returns: the summary of every row, kept or played now.
        :raises PluginError: when a plugin's code fails (one line naming it); the rows before
            are kept in ``FILE.partial``.
        :raises PatienceError: when ``output`` cannot be written (the rows are kept in
            ``FILE.partial``).
        """
        self.open()
        kept_by_deal = {row.deal: row for row in self.kept}
        missing = [deal for deal in self._numbers if str(deal) not in kept_by_deal]
        spared: list[SimRow] = []  # rows played by workers, held behind a deal when Ctrl-C came
        rows = run_deals(self.host, self.spec, missing, self.jobs, on_spare=spared.append)
        summary = Summary(self.game.name, self.spec.strategy, self.game.max_score)
        started = time.perf_counter()
        with self._writer() as writer:
            try:
                for deal in self.deals:  # every deal in order: a row kept, or one played now
                    row = kept_by_deal.get(deal)
                    if row is None:
                        row = next(rows)
                        if writer is not None:
                            writer.write(row)
                        if on_progress is not None:
                            on_progress(row)
                    summary.add(row)
            except KeyboardInterrupt:
                if writer is not None and self.partial is not None:
                    # Played, out of deal order: the partial file takes them (a resumed run
                    # reads rows in any order), so that they are not played again.
                    with ctrl_c_ignored():
                        for row in spared:
                            writer.write(row)
                raise
        if self.partial is not None and self.output is not None and self.kind is not None:
            in_order = [row.deal for row in self.kept] == self.deals[: len(self.kept)]
            order = None if in_order else self.deals
            finish(self.partial, output_target(self.output), self.kind, order)
        self.wall_seconds = time.perf_counter() - started
        self.summary = summary
        return summary

    def summary_lines(self) -> list[str]:
        """The summary as ``patience simulate`` prints it
        (:func:`~patience_core.simulate.summary_lines`), once :meth:`play` has ended.

        :raises PatienceError: before that.
        """
        summary, kept_in = self._played(), str(self.partial or "the partial file")
        return summary_lines(
            summary, self.game.title, self.workers, self.wall_seconds, self.remaining, kept_in
        )

    def as_dict(self) -> dict[str, Any]:
        """The summary as ``patience simulate --json`` prints it, once :meth:`play` has ended:
        :meth:`Summary.as_dict <patience_core.simulate.Summary.as_dict>` of this run, with the
        game's ``options`` in force, the ``jobs`` (worker processes), ``max_moves``, and, when
        the run has a search budget, ``budget`` (seconds) and ``nodes``.

        :raises PatienceError: before that.
        """
        data = self._played().as_dict(self.wall_seconds, self.remaining)
        data["options"] = dict(sorted(self.game.option_values.items()))
        data["jobs"] = self.workers
        data["max_moves"] = self.spec.max_moves
        if self.spec.seconds is not None or self.spec.nodes is not None:
            data["budget"] = self.spec.seconds
            data["nodes"] = self.spec.nodes
        return data

    def _played(self) -> Summary:
        if self.summary is None:
            raise PatienceError("the run has not been played yet")
        return self.summary

    @contextlib.contextmanager
    def _writer(self) -> Iterator[RowWriter | None]:
        """The writer of the rows played now: to ``stream``, to ``FILE.partial`` (after the
        kept rows, or after a new run header), or none."""
        if self.stream is not None:
            yield RowWriter(self.stream, "csv")
            return
        partial, kind = self.partial, self.kind
        if partial is None or kind is None:
            yield None
            return
        try:
            if self.kept:
                with partial.open("a", encoding="utf-8", newline="") as stream:
                    yield RowWriter(stream, kind, header=False)
            else:
                with partial.open("w", encoding="utf-8", newline="") as stream:
                    stream.write(self._header)
                    yield RowWriter(stream, kind)
        finally:
            # A run that ends before its first row leaves only its run header: removed, so
            # that no .old file is made of it later. A file that cannot be removed is left.
            if holds_no_rows(partial, kind):
                with contextlib.suppress(OSError):
                    partial.unlink()


def run_to_file(
    host: PluginHost,
    spec: BatchSpec,
    first: DealNumber,
    n: int,
    output: str | os.PathLike[str],
    *,
    jobs: int = 1,
    on_progress: Callable[[SimRow], None] | None = None,
    on_note: Callable[[str], None] | None = None,
) -> Summary:
    """Play deals ``first .. first+n-1`` of ``spec`` to the rows file ``output``, resuming what a
    stopped run of the same parameters left in ``FILE.partial``: :class:`Run` in one call.

    :returns: the summary of every row.
    :raises UnknownGame, BadOption, BadDeal, PatienceError, PluginError: as :class:`Run` and
        :meth:`Run.play`.
    """
    with Run(host, spec, first, n, output=output, jobs=jobs, on_note=on_note) as run:
        return run.play(on_progress)
