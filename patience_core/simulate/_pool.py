"""Local worker processes: chunks of deals played on the standard library's process pool.

Layer 4. :func:`local_chunks` plays chunks (:func:`~patience_core.simulate.play_chunk`) in up to
``jobs`` processes of a :class:`concurrent.futures.ProcessPoolExecutor` (``spawn``: safe with
threads and the same on every platform) and yields each chunk's rows as it completes, in any
order; the run puts them in deal order. :func:`run_batch` and :func:`run_deals` give the rows of a
batch in deal order, for a script.

What the standard pool does not do is done here, in a few lines: the workers ignore Ctrl-C (the
driver stops them, so none prints a traceback), each ends when the driver is gone (even killed),
and a pool broken by a worker that died is started again for the chunks not yet done.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool

from patience_core.engine import DealNumber, counted
from patience_core.errors import BadDeal, PatienceError, ctrl_c_ignored
from patience_core.plugins import PluginHost
from patience_core.simulate._batch import (
    BatchSpec,
    Chunk,
    chunk_size_for,
    deal_range,
    play_chunk,
    play_one,
    prepare,
    workers_for,
)
from patience_core.simulate._rows import SimRow

__all__ = [
    "MAIN_GUARD",
    "WorkerDied",
    "chunks_of",
    "deaf_and_safe",
    "local_chunks",
    "run_batch",
    "run_deals",
]

#: The variable that keeps the current folder off a new Python's import path: a ``signal.py``
#: of the user's would be imported in place of Python's.
_SAFE_PATH = "PYTHONSAFEPATH"
#: Times in a row the pool may break without a chunk done before the run stops.
_DEATHS = 3
#: The exit status of a worker that, while starting, re-ran the main script up to a run: a
#: script without ``if __name__ == "__main__":`` (spawn imports the main module again).
_MAIN_RERUN = 86
#: What the driver says then.
MAIN_GUARD = (
    "worker processes could not start: each re-ran the main script, which starts the run "
    'again; put the script\'s run under if __name__ == "__main__": (workers are started with '
    "spawn, which imports the main module)"
)


class WorkerDied(PatienceError):
    """Worker processes kept dying (killed, out of memory, a crash in C code) before their
    deals were done."""


def chunks_of(spec: BatchSpec, deals: Sequence[DealNumber], size: int) -> list[Chunk]:
    """``deals`` (of one numbering scheme) cut into chunks of ``size`` for :func:`play_chunk`."""
    scheme = deals[0].scheme if deals else ""
    return [
        (spec, scheme, tuple(deal.number for deal in deals[start : start + size]))
        for start in range(0, len(deals), size)
    ]


def _worker_start(parent: int, users_safe_path: bool) -> None:
    """A worker's first act: Ctrl-C is the driver's (it stops the workers), and the worker ends
    as soon as the driver is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if not users_safe_path:  # set only to start this process: not for what it starts
        os.environ.pop(_SAFE_PATH, None)
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


@contextlib.contextmanager
def deaf_and_safe() -> Iterator[None]:
    """While worker processes start (here, or a local Dask cluster's): SIGINT ignored and
    blocked, so that they are born deaf to Ctrl-C (the driver stops them; a Ctrl-C then is held
    for the driver, not delivered to a worker still importing), and ``PYTHONSAFEPATH`` set (a
    ``signal.py`` in the current folder is not imported in place of Python's)."""
    blocking = hasattr(signal, "pthread_sigmask")
    safe_path = os.environ.get(_SAFE_PATH)
    os.environ[_SAFE_PATH] = "1"
    try:
        if blocking:
            from multiprocessing import resource_tracker

            # Its first start unblocks SIGINT: start it before.
            resource_tracker.ensure_running()
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            with ctrl_c_ignored():
                yield
        finally:
            if blocking:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    finally:
        if safe_path is None:
            del os.environ[_SAFE_PATH]
        else:
            os.environ[_SAFE_PATH] = safe_path


def _in_worker_start() -> None:
    """In a worker still starting (spawn re-running the main script, which has no guard), end
    it quietly with :data:`_MAIN_RERUN`: its driver says why in one line, instead of every
    worker printing multiprocessing's traceback."""
    if getattr(multiprocessing.current_process(), "_inheriting", False):
        os._exit(_MAIN_RERUN)


def _stop(executor: ProcessPoolExecutor) -> list[int | None]:
    """End the pool's workers at once (a Ctrl-C, an error, a run done): killed, not asked,
    so that no worker finishes a chunk for no one.

    :returns: the workers' exit statuses."""
    processes = list((getattr(executor, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.kill()
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError):
            process.join(5)
    return [process.exitcode for process in processes]


def local_chunks(
    chunks: Sequence[Chunk], jobs: int, on_note: Callable[[str], None] | None = None
) -> Generator[tuple[int, list[SimRow]]]:
    """Play ``chunks`` in up to ``jobs`` worker processes and yield ``(index, rows)`` for each
    chunk as it completes (any order). Closing the iterator, or an exception leaving it (a
    ``KeyboardInterrupt`` too), ends the workers at once.

    A worker that dies breaks the pool: ``on_note`` is told, and the chunks that may have been
    in play then (the ``jobs + 1`` oldest not done: a pool runs its chunks in order and queues
    one ahead) are played again one at a time, each in a pool of its own, so that a chunk that
    kills its worker is told from the chunks that only shared the pool with it; then the rest
    in parallel again.

    :raises PluginError: when a plugin's code fails in a worker (the line it gives), once the
        chunks before the failing one are done (their rows yielded).
    :raises WorkerDied: when the same chunk, played alone, kills its worker three times in a
        row, or at once when the workers could not start (:data:`MAIN_GUARD`).
    """
    _in_worker_start()
    pending = dict(enumerate(chunks))
    deaths, suspect = 0, -1
    alone: set[int] = set()  # chunks to play one at a time, after a worker died
    context = multiprocessing.get_context("spawn")
    users_safe_path = _SAFE_PATH in os.environ
    while pending:
        alone &= pending.keys()
        batch = {min(alone): pending[min(alone)]} if alone else pending
        # The pool's queues start multiprocessing's resource tracker, and its first chunks the
        # workers: all of them born deaf to Ctrl-C and safe from a signal.py of the user's.
        with deaf_and_safe():
            executor = ProcessPoolExecutor(
                min(jobs, len(batch)),
                context,
                initializer=_worker_start,
                initargs=(os.getpid(), users_safe_path),
            )
        try:
            with deaf_and_safe():
                futures: dict[Future[tuple[list[SimRow], PatienceError | None]], int] = {
                    executor.submit(play_chunk, chunk): index for index, chunk in batch.items()
                }
            broken = False
            failed: tuple[int, PatienceError] | None = None
            while futures and not broken:
                done, _ = wait(futures, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=futures.__getitem__):
                    index = futures.pop(future)
                    try:
                        rows, error = future.result()
                    except BrokenProcessPool:
                        broken = True
                        continue
                    del pending[index]
                    yield index, rows
                    if error is not None and (failed is None or index < failed[0]):
                        failed = (index, error)
                if failed is not None:
                    # The chunks before the failing deal are finished first, so that the
                    # rows before it are kept whatever the number of workers.
                    for future, index in list(futures.items()):
                        if index > failed[0]:
                            future.cancel()
                            del futures[future]
                    if not futures or broken:
                        raise failed[1]
            if broken and _MAIN_RERUN in _stop(executor):
                raise WorkerDied(MAIN_GUARD)
            if broken:
                if len(batch) == 1:
                    # Played alone, the chunk killed its worker itself: after _DEATHS in a
                    # row the run stops instead of looping.
                    (culprit,) = batch
                    deaths = deaths + 1 if culprit == suspect else 1
                    suspect = culprit
                else:
                    alone = set(sorted(pending)[: jobs + 1])
                left = sum(len(pending[index][2]) for index in pending)
                if deaths >= _DEATHS:
                    raise WorkerDied(
                        f"worker processes died {deaths} times (killed, or out of memory?) "
                        f"in deal {chunks[suspect][2][0]}"
                        f"{'' if len(chunks[suspect][2]) == 1 else ' or the deals after it'}, "
                        "played alone; the rows stored stay, and the same command plays the rest"
                    )
                if on_note is not None:
                    on_note(
                        f"a worker process died (killed, or out of memory?); "
                        f"{counted(left, 'deal')} not yet stored "
                        f"{'is' if left == 1 else 'are'} played again"
                    )
        finally:
            _stop(executor)


def run_batch(
    host: PluginHost,
    spec: BatchSpec,
    first: DealNumber,
    n: int,
    jobs: int = 1,
    chunk_size: int | None = None,
) -> Iterator[SimRow]:
    """Play deals ``first .. first+n-1`` and yield one :class:`SimRow` per deal, in deal order,
    without a store (a script's own loop; ``patience simulate`` is :class:`Run`).

    With ``jobs == 1`` the games are played in this process with ``host``. With ``jobs > 1``
    they are played in worker processes (:func:`local_chunks`); each loads the installed plugins
    itself (and obeys ``PATIENCE_PLUGINS`` / ``PATIENCE_DISABLE_PLUGINS``), so a game or strategy
    registered by hand in ``host`` is not available there. A script doing so must put the call
    under ``if __name__ == "__main__":`` (``spawn``). The rows are the same for every ``jobs``
    and ``chunk_size`` except the ``seconds`` column. The input is checked before any game.

    :raises UnknownGame, BadOption, BadDeal, PatienceError: for bad input, before any game.
    :raises PluginError: when a plugin's code fails.
    """
    return run_deals(host, spec, deal_range(first, n), jobs, chunk_size)


def run_deals(
    host: PluginHost,
    spec: BatchSpec,
    deals: Sequence[DealNumber],
    jobs: int = 1,
    chunk_size: int | None = None,
) -> Iterator[SimRow]:
    """Play ``deals`` (any deals of one numbering scheme) and yield one row per deal, in the
    order given; otherwise as :func:`run_batch`.

    :raises UnknownGame, BadOption, BadDeal, PatienceError: for bad input, before any game.
    """
    if jobs < 1:
        raise PatienceError(f"jobs must be at least 1, not {jobs}")
    setup = prepare(host, spec)
    if not deals:
        return iter(())
    if len({deal.scheme for deal in deals}) > 1:
        raise BadDeal("the deals of one batch must all be numbered in one scheme")
    setup[0].deal(deals[0])  # the game refuses a scheme it does not take (BadDeal) here
    size = chunk_size or chunk_size_for(len(deals), jobs)
    if workers_for(len(deals), jobs, size) == 1:
        return (play_one(setup, spec, deal) for deal in deals)
    return _in_order(local_chunks(chunks_of(spec, deals, size), jobs))


def _in_order(results: Generator[tuple[int, list[SimRow]]]) -> Iterator[SimRow]:
    """The rows of ``results`` in chunk order; a failure comes where it happened, after the
    rows before it (as in one process)."""
    waiting: dict[int, list[SimRow]] = {}
    following = 0
    failure: PatienceError | None = None
    with contextlib.closing(results):
        try:
            for index, rows in results:
                waiting[index] = rows
                while following in waiting:
                    yield from waiting.pop(following)
                    following += 1
        except PatienceError as exc:
            failure = exc
    if failure is not None:
        while following in waiting:
            yield from waiting.pop(following)
            following += 1
        raise failure
