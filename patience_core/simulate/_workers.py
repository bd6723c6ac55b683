"""Worker processes: run a function over tasks in other processes, answers in task order.

Layer 2. :func:`ordered_items` is what ``simulate --jobs N`` plays its deals with. It is a small
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
import os
import pickle
import signal
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Sequence
from multiprocessing import resource_tracker
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, cast

from patience_core.errors import PatienceError, PluginError, ctrl_c_ignored, one_line

__all__ = ["WorkerDied", "WorkerTraceback", "ordered_items"]

T = TypeVar("T")
R = TypeVar("R")

#: A worker's answer for one task: the items it gave, the error that ended it (``None`` when
#: none did), and the worker's traceback of that error (``""`` when there is none to show).
_Answer = tuple[list[Any], BaseException | None, str]

#: The variable that keeps the current folder off a new Python's import path (Python 3.11).
_SAFE_PATH = "PYTHONSAFEPATH"

#: How many tasks per worker may be given out past the one whose items come next: answers
#: wait in memory until their turn, so a slow task holds up at most this many (memory stays
#: bounded, and a run stopped then loses no more).
_AHEAD = 8

#: Seconds a worker gets to end by itself after its last task before it is stopped.
_GRACE = 5.0


class WorkerTraceback(Exception):
    """The traceback of an exception raised in a worker, as text: the cause of the exception
    :func:`ordered_items` raises again, so that ``PATIENCE_DEBUG`` shows where it happened."""

    def __str__(self) -> str:
        return f'\n"""\n{self.args[0]}"""'


class WorkerDied(PatienceError):
    """A worker process ended without answering (killed, out of memory, a crash in C code)."""


def ordered_items(
    function: Callable[[T], Iterable[R]],
    tasks: Sequence[T],
    workers: int,
    spare: Callable[[int, list[R]], None] | None = None,
) -> Iterator[R]:
    """Yield every item of ``function(task)`` for each of ``tasks``, in task order, computed
    in up to ``workers`` processes started with the ``spawn`` method.

    A task's items are those ``function(task)`` gives (a list, a generator); they come when
    the task is done. Each worker takes the next task as soon as it has answered one, so a
    slow task holds up only the items after it, not the work, up to 8 tasks a worker past it
    (their answers wait in memory). ``function`` must be a module-level function, and
    tasks and items picklable. The workers are stopped when the iterator ends,
    is closed early, or an exception (``KeyboardInterrupt`` too) leaves it; none is left
    running, and none outlives this process, even killed.

    A failure comes where it happened, as with one process: when a task fails, the items it
    gave before come, then its exception is raised, and nothing of the tasks after it.

    :param workers: processes to start, at least 1 (never more than there are tasks).
    :param spare: called as ``spare(index, items)`` for each task answered in full but held
        back behind one still worked on (in task order), when a Ctrl-C (``KeyboardInterrupt``)
        stops the wait for answers, before the exception goes on: what the caller may keep of
        the work done. Never called otherwise, so a failure leaves the same items as with one
        process.
    :raises Exception: the exception of the first task (in task order) that failed
        (:func:`_portable`: one that cannot be pickled arrives as a ``RuntimeError`` with
        its line, a ``PatienceError`` as one with its message; a ``KeyboardInterrupt`` as
        ``KeyboardInterrupt``), with the worker's traceback as its cause
        (:class:`WorkerTraceback`).
    :raises WorkerDied: a worker ended without answering its task (in task order too).
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    if not tasks:
        return
    context = multiprocessing.get_context("spawn")
    started: list[tuple[BaseProcess, Connection]] = []
    finished = False
    users_safe_path = _SAFE_PATH in os.environ
    try:
        with _worker_birth():
            for _ in range(min(workers, len(tasks))):
                mine, theirs = context.Pipe()
                process = context.Process(
                    target=_serve,
                    args=(theirs, function, users_safe_path),
                    daemon=True,
                )
                process.start()
                theirs.close()  # the worker holds its end: when it dies, ours reads end of file
                started.append((process, mine))
        process_of = {conn: process for process, conn in started}
        busy: dict[Connection, int] = {}
        idle = list(reversed(process_of))
        answers: dict[int, _Answer] = {}
        sent = 0  # tasks given out
        following = 0  # the task whose items come next
        ahead = _AHEAD * len(started)

        def give() -> None:
            """A task to each idle worker, up to ``ahead`` tasks past the following one."""
            nonlocal sent
            while idle and sent < min(len(tasks), following + ahead):
                conn = idle.pop()
                try:
                    conn.send((sent, tasks[sent]))
                except OSError:  # it died since its last answer (not our output's broken pipe)
                    answers[sent] = [], _died(process_of[conn]), ""
                else:
                    busy[conn] = sent
                sent += 1

        while following < len(tasks):
            give()
            if following in answers:
                items, error, where = answers.pop(following)
                yield from items
                if error is not None:
                    raise error from (WorkerTraceback(where) if where else None)
                following += 1
                continue
            assert busy, "a task not answered is one being worked on"
            try:
                ready_ones = wait(list(busy))
            except KeyboardInterrupt:
                if spare is not None:
                    with ctrl_c_ignored():  # the work is kept whole, not cut by a second Ctrl-C
                        for index in sorted(answers):
                            items, error, _where = answers[index]
                            if error is None:
                                spare(index, items)
                raise
            for ready in ready_ones:
                conn = cast(Connection, ready)
                index = busy.pop(conn)
                answers[index] = _received(conn, process_of[conn])
                if answers[index][1] is None:
                    idle.append(conn)
        finished = True
    finally:
        if finished:
            _stop(started, politely=True)
        else:  # already ending on an error or a Ctrl-C: a second one must not cut this short
            with ctrl_c_ignored():
                _stop(started, politely=False)


def _received(conn: Connection, process: BaseProcess) -> _Answer:
    """A worker's answer: its items, and the error that ended its task (``None`` when none
    did) with the worker's traceback of it; :class:`WorkerDied` when the worker's pipe ended
    (the process died) or held something that cannot be read here."""
    try:
        answer: _Answer = conn.recv()
    except (EOFError, OSError):
        return [], _died(process), ""
    except Exception as exc:  # an answer that cannot be rebuilt here
        text = f"a worker process sent an answer that cannot be read: {one_line(exc)}"
        return [], WorkerDied(text), ""
    return answer


def _died(process: BaseProcess) -> WorkerDied:
    """The error for ``process``, which ended without answering its task."""
    process.join(1.0)
    code = process.exitcode
    if code == -signal.SIGKILL:
        how, hint = "was killed", " (out of memory?)"
    elif code is not None and code < 0:
        how, hint = f"was stopped by signal {-code}", ""
    else:
        how, hint = f"ended with exit code {code}", ""
    return WorkerDied(f"a worker process {how} without finishing its task{hint}")


@contextlib.contextmanager
def _worker_birth() -> Iterator[None]:
    """Start workers as they must be from their first instruction on, whatever happens
    while they import: deaf to Ctrl-C (the parent stops them; a worker interrupted while
    importing printed its traceback), and with no unsafe folder (the current one) put first on
    their import path, where a ``signal.py`` of the user's would be imported in place of
    Python's.

    Meanwhile SIGINT is ignored, which a new process keeps through ``exec`` (and Python then
    leaves it so), and blocked, so that a Ctrl-C in this moment is held, not lost: on Linux a
    blocked signal is kept even while ignored, and delivered once the handler is back.
    ``PYTHONSAFEPATH`` is set for the workers (each removes it again, see :func:`_serve`).

    When the current folder has been removed, workers start in the root folder instead
    (``multiprocessing`` reads the current folder to start one), and this process goes back to
    its own afterwards.
    """
    with _in_a_folder_that_exists(), _deaf_and_safe():
        yield


@contextlib.contextmanager
def _in_a_folder_that_exists() -> Iterator[None]:
    """Stay in the current folder if it still exists; else move to the root folder meanwhile,
    and back into the removed one (held open) afterwards."""
    try:
        os.getcwd()
    except FileNotFoundError:
        here = os.open(os.curdir, os.O_RDONLY)
    else:
        yield
        return
    try:
        os.chdir(os.path.abspath(os.sep))
        yield
    finally:
        with contextlib.suppress(OSError):
            os.fchdir(here)
        os.close(here)


@contextlib.contextmanager
def _deaf_and_safe() -> Iterator[None]:
    """SIGINT ignored and blocked, ``PYTHONSAFEPATH`` set, as :func:`_worker_birth` says."""
    blocking = hasattr(signal, "pthread_sigmask")
    safe_path = os.environ.get(_SAFE_PATH)
    os.environ[_SAFE_PATH] = "1"
    try:
        if blocking:
            # Its first start unblocks SIGINT (multiprocessing.resource_tracker), which would
            # deliver a held Ctrl-C while it is ignored: start it before.
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
    conn: Connection,
    function: Callable[[object], Iterable[object]],
    users_safe_path: bool,
) -> None:
    """A worker's loop: answer ``(index, task)`` messages until ``None`` or the parent's end.

    A thread watches the parent: when it is gone (killed, even by ``SIGKILL``), the worker
    ends at once instead of finishing its task for no one."""
    # Ctrl-C is the parent's to handle: caught here and dropped (born ignored and blocked, see
    # _worker_birth). Caught, not ignored, so that what a plugin starts gets it as usual.
    signal.signal(signal.SIGINT, _dropped)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if not users_safe_path:  # set only to start this process: not for what it starts
        os.environ.pop(_SAFE_PATH, None)
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_end_with, args=(parent.sentinel,), daemon=True).start()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if message is None:
            return
        _, task = message
        items: list[object] = []
        answer: _Answer = (items, None, "")
        try:
            for item in function(task):
                items.append(item)
        except KeyboardInterrupt:  # raised by code: Ctrl-C itself is the parent's to handle
            answer = (items, KeyboardInterrupt(), "")
        except BaseException as exc:  # every failure goes back: none may end the worker
            answer = (items, _portable(exc), traceback.format_exc())
        try:
            conn.send(answer)
        except OSError:  # the parent is gone
            return
        except Exception as exc:  # an item that cannot be pickled
            error = RuntimeError(f"an answer that cannot be sent: {one_line(exc)}")
            try:
                conn.send(([], error, traceback.format_exc()))
            except OSError:
                return


def _dropped(signum: int, frame: object) -> None:
    """A worker's SIGINT handler: nothing (the parent stops the workers)."""


def _end_with(sentinel: int) -> None:
    """End this worker process as soon as ``sentinel`` (its parent's) is ready: the parent
    is gone."""
    wait([sentinel])
    os._exit(1)


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
