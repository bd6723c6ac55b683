"""Worker processes: run a function over tasks in other processes, answers in task order.

Layer 2. :func:`ordered_map` is what ``simulate --jobs N`` plays its deals with. It is a small
pool on the standard library's processes and pipes, not :class:`multiprocessing.pool.Pool`, for
one reason: ``Pool.terminate()`` can wait for ever when a worker is stopped while it holds one of
the locks the workers share (CPython issues 78178 and 96995, open), and a batch stopped early by
an error or by Ctrl-C stops its workers. Here each worker has a pipe of its own, so stopping one
cannot block anything else, and a worker that dies is seen at once (its pipe ends) instead of
being waited for.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import pickle
import traceback
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, cast

from patience_core.errors import PatienceError, PluginError, one_line

__all__ = ["WorkerDied", "WorkerTraceback", "ordered_map"]

T = TypeVar("T")
R = TypeVar("R")

#: The kinds of a worker's answer.
_DONE, _FAILED, _INTERRUPTED = "done", "failed", "interrupted"

#: Seconds a worker gets to end by itself after its last task before it is stopped.
_GRACE = 5.0


class WorkerTraceback(Exception):
    """The traceback of an exception raised in a worker, as text: the cause of the exception
    :func:`ordered_map` raises again, so that ``PATIENCE_DEBUG`` shows where it happened."""

    def __str__(self) -> str:
        return f'\n"""\n{self.args[0]}"""'


class WorkerDied(PatienceError):
    """A worker process ended without answering (killed, out of memory, a crash in C code)."""


def ordered_map(
    function: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    initializer: Callable[[], None] | None = None,
) -> Iterator[R]:
    """Yield ``function(task)`` for each of ``tasks``, in their order, computed in up to
    ``workers`` processes started with the ``spawn`` method (each runs ``initializer()`` first).

    Each worker takes the next task as soon as it has answered one, so a slow task holds up
    only the answers after it, not the work. ``function`` and ``initializer`` must be
    module-level functions, and tasks and answers picklable. The workers are stopped when the
    iterator ends, is closed early, or an exception (``KeyboardInterrupt`` too) leaves it; none
    is left running.

    :param workers: processes to start, at least 1 (never more than there are tasks).
    :raises Exception: the exception ``function`` raised for the first task (in task order)
        that failed, as with one process (:func:`_portable`: one that cannot be pickled
        arrives as a ``RuntimeError`` with its line; a ``KeyboardInterrupt`` as
        ``KeyboardInterrupt``).
    :raises WorkerDied: a worker ended without answering its task (in task order too: the
        answers before that task all come first).
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if not tasks:
        return
    context = multiprocessing.get_context("spawn")
    started: list[tuple[BaseProcess, Connection]] = []
    finished = False
    try:
        for _ in range(min(workers, len(tasks))):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=_serve, args=(theirs, function, initializer), daemon=True
            )
            process.start()
            theirs.close()  # the worker holds its end: when it dies, ours reads end of file
            started.append((process, mine))
        process_of = {conn: process for process, conn in started}
        queue = iter(enumerate(tasks))
        busy: dict[Connection, int] = {}

        def give(conn: Connection) -> None:
            for index, task in queue:
                try:
                    conn.send((index, task))
                except OSError:  # it died since its last answer (not our output's broken pipe)
                    answers[index] = _FAILED, (_died(process_of[conn]), "")
                else:
                    busy[conn] = index
                return

        answers: dict[int, tuple[str, Any]] = {}
        for conn in process_of:
            give(conn)
        following = 0
        while following < len(tasks):
            if following in answers:
                kind, answer = answers.pop(following)
                if kind == _INTERRUPTED:
                    raise KeyboardInterrupt
                if kind == _FAILED:
                    error, where = answer
                    raise error from (WorkerTraceback(where) if where else None)
                yield answer
                following += 1
                continue
            assert busy, "every task before the following one was answered"
            for ready in wait(list(busy)):
                conn = cast(Connection, ready)
                index = busy.pop(conn)
                answers[index] = _received(conn, process_of[conn])
                if answers[index][0] == _DONE:
                    give(conn)
        finished = True
    finally:
        _stop(started, politely=finished)


def _received(conn: Connection, process: BaseProcess) -> tuple[str, Any]:
    """A worker's answer: ``(_DONE, result)``, ``(_FAILED, (exception, traceback text))``,
    ``(_INTERRUPTED, None)``, or ``(_FAILED, (WorkerDied(...), ""))`` when its pipe ended (the
    process died) or held something that cannot be read here."""
    try:
        kind, answer = conn.recv()
    except (EOFError, OSError):
        return _FAILED, (_died(process), "")
    except Exception as exc:  # an answer that cannot be rebuilt here
        unread = WorkerDied(f"a worker process sent an answer that cannot be read: {one_line(exc)}")
        return _FAILED, (unread, "")
    return kind, answer


def _died(process: BaseProcess) -> WorkerDied:
    """The error for ``process``, which ended without answering its task."""
    process.join(1.0)
    code = process.exitcode
    how = "was killed" if code is not None and code < 0 else f"ended (exit code {code})"
    return WorkerDied(f"a worker process {how} without finishing its task (out of memory?)")


def _stop(started: list[tuple[BaseProcess, Connection]], *, politely: bool) -> None:
    """End every worker: after the last task, ask them to end and wait a little; otherwise
    (an error, an early close) stop them at once. No shared lock can hold this up."""
    if politely:
        for _, conn in started:
            with contextlib.suppress(OSError):
                conn.send(None)
        for process, _ in started:
            process.join(_GRACE)
    for process, _ in started:
        if process.is_alive():
            process.terminate()
    for process, conn in started:
        process.join(_GRACE)
        if process.is_alive():
            process.kill()
            process.join()
        conn.close()


def _serve(
    conn: Connection, function: Callable[[object], object], initializer: Callable[[], None] | None
) -> None:
    """A worker's loop: answer ``(index, task)`` messages until ``None`` or the parent's end."""
    if initializer is not None:
        initializer()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if message is None:
            return
        _, task = message
        try:
            answer: tuple[str, object] = (_DONE, function(task))
        except KeyboardInterrupt:  # raised by code: Ctrl-C itself is the parent's to handle
            answer = (_INTERRUPTED, None)
        except BaseException as exc:  # every failure goes back: none may end the worker
            answer = (_FAILED, (_portable(exc), traceback.format_exc()))
        try:
            conn.send(answer)
        except Exception as exc:  # a result that cannot be pickled
            error = RuntimeError(f"an answer that cannot be sent: {one_line(exc)}")
            conn.send((_FAILED, (error, traceback.format_exc())))


def _portable(exc: BaseException) -> Exception:
    """``exc``, or, when it cannot cross back to the parent, an exception that can, with its
    line: a :class:`~patience_core.errors.PatienceError` (or ``PluginError``) with its message,
    anything else as a ``RuntimeError``. An exception class whose ``__init__`` takes other
    arguments than its message cannot be rebuilt in the parent, nor one holding something that
    does not pickle; a ``SystemExit`` raised again there would end it without a word."""
    if isinstance(exc, Exception):
        try:
            pickle.loads(pickle.dumps(exc))
        except Exception:
            pass
        else:
            return exc
    if isinstance(exc, PatienceError):
        return (PluginError if isinstance(exc, PluginError) else PatienceError)(str(exc))
    return RuntimeError(one_line(exc))
