"""The worker pool of ``simulate --jobs N`` (patience_core.workers): answers in task order,
failures as with one process, and workers that are always stopped, whatever happens to them."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time

import pytest

from patience_core.errors import PatienceError
from patience_core.workers import WorkerDied, WorkerTraceback, ordered_map

# Task functions run in spawned workers, which import this module by name.


def slow_square(n: int) -> int:
    time.sleep(0.05 * (n % 3))  # answers arrive out of order
    return n * n


def fails_at(n: int) -> int:
    """Task 2 fails late, task 5 at once: the one a single process meets first is task 2."""
    if n == 2:
        time.sleep(0.5)
        raise ValueError("task 2")
    if n == 5:
        raise KeyError("task 5")
    return n


def dies(n: int) -> int:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.3 if n == 2 else 0)  # the death is seen before task 2's answer comes
    return n


class Odd(Exception):
    def __init__(self, a: int, b: int) -> None:
        super().__init__(f"odd {a} {b}")


def raises_odd(n: int) -> int:
    raise Odd(1, 2)


def exits(n: int) -> int:
    raise SystemExit(3)


def interrupts(n: int) -> int:
    raise KeyboardInterrupt


def unpicklable_answer(n: int) -> object:
    return lambda: n


def refuses(n: int) -> int:
    raise PatienceError("a clear line")


def big_or_fails(n: int) -> bytes:
    """Workers busy sending large answers while the batch stops on a failure."""
    if n == 0:
        time.sleep(0.2)
        raise RuntimeError("first")
    return b"x" * 5_000_000


def _no_workers_left() -> bool:
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not multiprocessing.active_children()


def test_answers_come_in_task_order() -> None:
    assert list(ordered_map(slow_square, list(range(12)), 3)) == [n * n for n in range(12)]
    assert _no_workers_left()


def test_more_workers_than_tasks_and_no_tasks() -> None:
    assert list(ordered_map(slow_square, [4], 8)) == [16]
    assert list(ordered_map(slow_square, [], 8)) == []
    with pytest.raises(ValueError, match="at least 1"):
        list(ordered_map(slow_square, [1], 0))


def test_the_first_failure_in_task_order_is_raised_with_its_traceback() -> None:
    answers = []
    with pytest.raises(ValueError, match="task 2") as caught:
        for answer in ordered_map(fails_at, list(range(8)), 2):
            answers.append(answer)
    assert answers == [0, 1]  # the answers before it all came
    cause = caught.value.__cause__
    assert isinstance(cause, WorkerTraceback)
    assert 'raise ValueError("task 2")' in str(cause)
    assert _no_workers_left()


def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    start = time.monotonic()
    answers = []
    with pytest.raises(WorkerDied, match="was killed without finishing its task"):
        for answer in ordered_map(dies, list(range(6)), 2):
            answers.append(answer)
    assert answers == [0, 1, 2]  # every answer before the lost task, none after it
    assert time.monotonic() - start < 30  # (the old pool could wait for ever)
    assert _no_workers_left()


@pytest.mark.parametrize(
    ("function", "kind", "text"),
    [
        (raises_odd, RuntimeError, "Odd: odd 1 2"),  # its class cannot be rebuilt from args
        (exits, RuntimeError, "SystemExit: 3"),  # would end the parent without a word
        (unpicklable_answer, RuntimeError, "an answer that cannot be sent"),
        (refuses, PatienceError, "a clear line"),
    ],
)
def test_failures_that_cannot_cross_come_as_one_line(
    function: object, kind: type[BaseException], text: str
) -> None:
    with pytest.raises(kind, match=text):
        list(ordered_map(function, [1, 2, 3], 2))  # type: ignore[arg-type]
    assert _no_workers_left()


def test_an_interrupt_raised_in_a_task_is_an_interrupt_here() -> None:
    with pytest.raises(KeyboardInterrupt):
        list(ordered_map(interrupts, [1, 2], 2))
    assert _no_workers_left()


def test_closing_early_stops_the_workers() -> None:
    answers = ordered_map(slow_square, list(range(50)), 2)
    assert next(answers) == 0
    answers.close()
    assert _no_workers_left()


def test_stopping_on_a_failure_while_workers_send_large_answers_never_hangs() -> None:
    """The case that could hang multiprocessing.Pool.terminate(): workers stopped while busy
    writing answers. Repeated, as the hang came only sometimes."""
    for _ in range(5):
        with pytest.raises(RuntimeError, match="first"):
            list(ordered_map(big_or_fails, list(range(8)), 2))
        assert _no_workers_left()
