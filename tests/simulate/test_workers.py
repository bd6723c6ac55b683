"""The worker pool of ``simulate --jobs N`` (patience_core.simulate): items in task order,
failures where they happened as with one process, and workers that are always stopped,
whatever happens to them or to their parent."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from patience_core.errors import PatienceError
from patience_core.simulate import WorkerDied, WorkerTraceback, ordered_items

# Task functions run in spawned workers, which import this module by name.


def squares(n: int) -> list[int]:
    time.sleep(0.05 * (n % 3))  # answers arrive out of order
    return [n * n]


def counted(n: int) -> Iterator[int]:
    """n, then n+100 and n+200: a task gives several items."""
    for k in range(3):
        yield n + 100 * k


def fails_at(n: int) -> Iterator[int]:
    """Task 2 fails late, after one item; task 5 at once. The failure one process meets
    first is task 2's."""
    yield n
    if n == 2:
        time.sleep(0.5)
        raise ValueError("task 2")
    if n == 5:
        raise KeyError("task 5")


def dies(n: int) -> list[int]:
    if n == 3:
        os.kill(os.getpid(), signal.SIGKILL)
    time.sleep(0.3 if n == 2 else 0)  # the death is seen before task 2's answer comes
    return [n]


def exits_hard(n: int) -> list[int]:
    os._exit(3)


class Odd(Exception):
    def __init__(self, a: int, b: int) -> None:
        super().__init__(f"odd {a} {b}")


def raises_odd(n: int) -> list[int]:
    raise Odd(1, 2)


def exits(n: int) -> list[int]:
    raise SystemExit(3)


def interrupts(n: int) -> list[int]:
    raise KeyboardInterrupt


def unpicklable_answer(n: int) -> list[object]:
    return [lambda: n]


def refuses(n: int) -> list[int]:
    raise PatienceError("a clear line")


def big_or_fails(n: int) -> list[bytes]:
    """Workers busy sending large answers while the batch stops on a failure."""
    if n == 0:
        time.sleep(0.2)
        raise RuntimeError("first")
    return [b"x" * 5_000_000]


def when(n: int) -> list[float]:
    """Task 0 takes a second; the others none. The time each started, task 0's end."""
    start = time.time()
    if n == 0:
        time.sleep(1.0)
        return [time.time()]
    return [start]


CHILD = (
    "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler); "
    "status = open('/proc/self/status').read().split('SigBlk:')[1].split()[0]; "
    "print(int(status, 16) & (1 << (signal.SIGINT - 1)) == 0)"
)


def what_a_child_gets(n: int) -> list[str]:
    """Whether a program a task starts gets Ctrl-C as usual: not ignored, not blocked."""
    done = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True)
    return done.stdout.split()


def _no_workers_left() -> bool:
    deadline = time.monotonic() + 10
    while multiprocessing.active_children() and time.monotonic() < deadline:
        time.sleep(0.05)
    return not multiprocessing.active_children()


def test_items_come_in_task_order() -> None:
    assert list(ordered_items(squares, list(range(12)), 3)) == [n * n for n in range(12)]
    assert list(ordered_items(counted, [1, 2], 2)) == [1, 101, 201, 2, 102, 202]
    assert _no_workers_left()


def test_a_slow_task_holds_up_at_most_8_tasks_a_worker_past_it() -> None:
    """Their answers wait in memory until the slow one is done: a bounded number of them."""
    times = list(ordered_items(when, list(range(100)), 2))
    slow_end = times[0]
    started_meanwhile = sum(started < slow_end for started in times[1:])
    assert 8 <= started_meanwhile <= 16, started_meanwhile


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc")
def test_what_a_task_starts_gets_ctrl_c_as_usual() -> None:
    assert list(ordered_items(what_a_child_gets, [1, 2], 2)) == ["True", "True"] * 2


def test_more_workers_than_tasks_and_no_tasks() -> None:
    assert list(ordered_items(squares, [4], 8)) == [16]
    assert list(ordered_items(squares, [], 8)) == []
    with pytest.raises(ValueError, match="at least 1"):
        list(ordered_items(squares, [1], 0))


def test_a_failure_comes_where_it_happened_with_its_traceback() -> None:
    items = []
    spared: list[tuple[int, list[int]]] = []
    with pytest.raises(ValueError, match="task 2") as caught:
        for item in ordered_items(
            fails_at, list(range(8)), 2, lambda i, got: spared.append((i, got))
        ):
            items.append(item)
    assert items == [0, 1, 2]  # task 2's item before its failure too; task 5's failure unseen
    assert spared == []  # tasks 3, 4 (answered while task 2 slept) are kept on Ctrl-C only
    cause = caught.value.__cause__
    assert isinstance(cause, WorkerTraceback)
    assert 'raise ValueError("task 2")' in str(cause)
    assert _no_workers_left()


def test_a_worker_that_dies_is_reported_not_waited_for() -> None:
    start = time.monotonic()
    items = []
    killed = r"^a worker process was killed without finishing its task \(out of memory\?\)$"
    with pytest.raises(WorkerDied, match=killed):
        for item in ordered_items(dies, list(range(6)), 2):
            items.append(item)
    assert items == [0, 1, 2]  # every item before the lost task, none after it
    assert time.monotonic() - start < 30  # (the old pool could wait for ever)
    assert _no_workers_left()


def test_a_worker_that_exits_is_named_with_its_exit_code() -> None:
    with pytest.raises(WorkerDied, match=r"^a worker process ended with exit code 3 without"):
        list(ordered_items(exits_hard, [1, 2], 2))
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
        list(ordered_items(function, [1, 2, 3], 2))  # type: ignore[call-overload]
    assert _no_workers_left()


def test_an_interrupt_raised_in_a_task_is_an_interrupt_here() -> None:
    with pytest.raises(KeyboardInterrupt):
        list(ordered_items(interrupts, [1, 2], 2))
    assert _no_workers_left()


def test_closing_early_stops_the_workers() -> None:
    items = ordered_items(squares, list(range(50)), 2)
    assert next(items) == 0
    items.close()
    assert _no_workers_left()


def test_stopping_on_a_failure_while_workers_send_large_answers_never_hangs() -> None:
    """The case that could hang multiprocessing.Pool.terminate(): workers stopped while busy
    writing answers. Repeated, as the hang came only sometimes."""
    for _ in range(5):
        with pytest.raises(RuntimeError, match="first"):
            list(ordered_items(big_or_fails, list(range(8)), 2))
        assert _no_workers_left()


# -- in a process of its own: its parent killed, Ctrl-C, the current folder -------------------

SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    sys.path.insert(0, sys.argv[1])
    from patience_core.simulate import ordered_items
    from test_workers import sleeps

    if __name__ == "__main__":
        print("starting", flush=True)
        for item in ordered_items(sleeps, [30, 30], 2):
            print(item, flush=True)
    """
)


def sleeps(seconds: float) -> Iterator[int]:
    yield os.getpid()
    time.sleep(seconds)


def _start(tmp_path: Path) -> subprocess.Popen[str]:
    """``SCRIPT`` in a process (and a process group) of its own, from the moment it starts its
    workers."""
    script = tmp_path / "pool.py"
    script.write_text(SCRIPT)
    parent = subprocess.Popen(
        [sys.executable, str(script), str(Path(__file__).parent)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert parent.stdout is not None
    assert parent.stdout.readline() == "starting\n"
    return parent


def _children(pid: int) -> list[int]:
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True)
    return [int(word) for word in found.stdout.split()]


def _running(pid: int) -> bool:
    found = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return bool(found.stdout.strip()) and not found.stdout.strip().startswith("Z")


@pytest.mark.skipif(sys.platform != "linux", reason="uses ps --ppid")
def test_workers_end_when_their_parent_is_killed(tmp_path: Path) -> None:
    parent = _start(tmp_path)
    deadline = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline:  # the workers at their tasks
        time.sleep(0.1)
        workers = [pid for pid in _children(parent.pid) if _running(pid)]
        workers = workers if len(workers) >= 2 else []
    assert len(workers) >= 2
    os.kill(parent.pid, signal.SIGKILL)
    parent.wait(timeout=60)  # (not communicate: the workers hold its output pipes too)
    deadline = time.monotonic() + 10
    while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_running(pid) for pid in workers)  # long before their 30-second tasks end
    parent.communicate(timeout=60)


def test_ctrl_c_while_workers_start_prints_no_worker_tracebacks(tmp_path: Path) -> None:
    for step in range(12):  # workers import for about 0.1 to 0.3 s: try across that window
        delay = 0.03 * step
        parent = _start(tmp_path)
        time.sleep(delay)
        os.killpg(parent.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, err = parent.communicate(timeout=60)
        assert parent.returncode != 0  # the parent was interrupted ...
        # ... and its traceback is the only one (a Ctrl-C landing while the parent handles
        # another exception chains the two: still the parent's one traceback)
        chained = err.count("During handling of the above exception")
        assert err.count("Traceback") - chained == 1, err
        assert "spawn_main" not in err, err


def test_a_module_in_the_current_folder_does_not_shadow_the_workers(tmp_path: Path) -> None:
    """A ``signal.py`` or ``pickle.py`` in the folder a program is run from (as ``patience``
    is, from a script elsewhere) is not imported by its workers in place of Python's: they
    start as ``python -c``, whose import path begins with the current folder."""
    here = tmp_path / "work"
    here.mkdir()
    for name in ("signal", "pickle"):
        (here / f"{name}.py").write_text("raise SystemExit('shadowed')\n")
    script = tmp_path / "script.py"
    script.write_text(
        f"import sys; sys.path.insert(1, {str(Path(__file__).parent)!r})\n"
        "from patience_core.simulate import ordered_items\nfrom test_workers import squares\n"
        "if __name__ == '__main__':\n    print(list(ordered_items(squares, [1, 2, 3], 2)))\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], cwd=here, capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "[1, 4, 9]\n", "")


def test_workers_start_when_the_current_folder_has_been_removed(tmp_path: Path) -> None:
    """Run from a folder that has been removed since (``multiprocessing`` reads the current
    folder to start a worker), the workers still start, and the caller is back in its folder
    afterwards."""
    here = tmp_path / "gone"
    here.mkdir()
    script = tmp_path / "script.py"
    script.write_text(
        f"import os, sys; sys.path.insert(1, {str(Path(__file__).parent)!r})\n"
        "from patience_core.simulate import ordered_items\nfrom test_workers import squares\n"
        "if __name__ == '__main__':\n"
        "    before = os.stat(os.curdir).st_ino\n"
        "    os.rmdir(os.getcwd())\n"
        "    print(list(ordered_items(squares, [1, 2, 3], 2)))\n"
        "    print(os.stat(os.curdir).st_ino == before)\n"
    )
    done = subprocess.run(
        [sys.executable, str(script)], cwd=here, capture_output=True, text=True, timeout=120
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "[1, 4, 9]\nTrue\n", "")
