"""The local worker processes of ``simulate --jobs N``: they end with the driver, even killed;
a Ctrl-C while they start prints no traceback of theirs; a ``signal.py`` in the current folder
does not replace Python's in them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

#: The ``patience`` script beside this Python (not ``python -c``, whose import path begins with
#: the current folder for the driver itself).
PATIENCE = str(Path(sys.executable).with_name("patience"))
SLOW = ["simulate", "bakers-game", "-n", "40", "--strategy", "solver", "--nodes", "500000"]


def _start(tmp_path: Path, *more: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [PATIENCE, *SLOW, "-j", "2", "--store", str(tmp_path / "runs.db"), *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=cwd,
        start_new_session=True,  # its own process group, as a shell's job
    )


def _children(pid: int) -> list[int]:
    found = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True)
    return [int(word) for word in found.stdout.split()]


def _running(pid: int) -> bool:
    found = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True)
    return bool(found.stdout.strip()) and not found.stdout.strip().startswith("Z")


@pytest.mark.skipif(sys.platform != "linux", reason="uses ps --ppid")
def test_workers_end_when_the_driver_is_killed(tmp_path: Path) -> None:
    driver = _start(tmp_path)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
            # the pool's workers, and multiprocessing's resource tracker
            workers = [pid for pid in _children(driver.pid) if _running(pid)]
        assert len(workers) >= 2
        os.kill(driver.pid, signal.SIGKILL)
        driver.wait(timeout=60)
        deadline = time.monotonic() + 10
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_running(pid) for pid in workers)  # long before their deals end
    finally:
        driver.kill()
        driver.communicate(timeout=60)


def test_ctrl_c_while_workers_start_prints_only_the_one_line(tmp_path: Path) -> None:
    for step in range(8):  # workers import for about 0.1 to 0.5 s: try across that window
        # A store each: a row a step before stored would make this run a resumed one.
        folder = tmp_path / str(step)
        folder.mkdir()
        driver = _start(folder)
        time.sleep(0.3 + 0.08 * step)
        os.killpg(driver.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, err = driver.communicate(timeout=60)
        assert driver.returncode == 130, err
        assert err == "patience: interrupted\n", err


def test_a_module_in_the_current_folder_does_not_shadow_the_workers(tmp_path: Path) -> None:
    """A ``signal.py`` or ``pickle.py`` in the folder ``patience`` is run from is not imported by
    its worker processes (nor multiprocessing's resource tracker) in place of Python's."""
    here = tmp_path / "work"
    here.mkdir()
    for name in ("signal", "pickle"):
        (here / f"{name}.py").write_text("raise SystemExit('shadowed')\n")
    args = ["simulate", "escalator", "-n", "300", "-j", "2", "--store", str(tmp_path / "r.db")]
    done = subprocess.run([PATIENCE, *args], cwd=here, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, ""), done.stderr
    assert "(300 games)" in done.stdout
