"""Faults around a run said in one line, without tracebacks, within the time allowed: a
--scheduler address where nothing answers or something else answers, a scheduler lost mid-run,
a script without the main guard; and nothing recorded when nothing could start."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from patience_core.simulate import MAIN_GUARD

MAIN = "import sys; from patience_core.cli import main; main(sys.argv[1:])"


def patience(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``patience ARGS`` in a new process (Dask's threads and sockets stay out of pytest's)."""
    return subprocess.run(
        [sys.executable, "-c", MAIN, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PATIENCE_DASK_TIMEOUT": "2", **(env or {})},
        timeout=120,
        check=False,
    )


def _server(answer: bytes | None) -> Iterator[str]:
    """A TCP server on 127.0.0.1 that sends ``answer`` to every connection (an HTTP 400 page)
    and keeps it open, or says nothing (``None``); yields its address."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    held: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except OSError:
                continue
            held.append(conn)
            if answer is not None:
                conn.sendall(answer)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(5)
        for conn in held:
            conn.close()
        listener.close()


@pytest.fixture
def silent() -> Iterator[str]:
    yield from _server(None)


@pytest.fixture
def junk() -> Iterator[str]:
    yield from _server(b"HTTP/1.0 400 Bad request\r\nContent-Type: text/html\r\n\r\n" * 40)


def _no_run_in(store: Path) -> None:
    listed = patience("runs", "--store", str(store))
    assert listed.returncode == 1 or listed.stdout.startswith("No runs in"), listed


@pytest.mark.parametrize(
    ("server", "says"),
    [
        ("silent", "no answer within 2 s (PATIENCE_DASK_TIMEOUT)"),
        ("junk", "it is not a Dask scheduler"),
    ],
)
def test_an_address_that_is_not_a_dask_scheduler_is_one_line_in_time(
    request: pytest.FixtureRequest, tmp_path: Path, server: str, says: str
) -> None:
    pytest.importorskip("distributed", reason="the dask extra")
    address = request.getfixturevalue(server)
    store = tmp_path / "s.db"
    started = time.monotonic()
    done = patience("simulate", "escalator", "-n", "10", "--scheduler", address,
                    "--store", str(store))  # fmt: skip
    assert time.monotonic() - started < 60
    assert done.returncode == 1, done.stderr
    assert done.stderr == f"patience: error: cannot use the Dask scheduler {address}: {says}\n"
    assert "plugin" not in done.stderr
    _no_run_in(store)


@pytest.mark.slow
def test_a_scheduler_lost_mid_run_is_one_line_and_the_run_resumes(tmp_path: Path) -> None:
    pytest.importorskip("distributed", reason="the dask extra")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "cwd": tmp_path}
    scheduler = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
         "--port", str(port), "--no-dashboard"], **quiet,  # type: ignore[call-overload]
    )  # fmt: skip
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
         "--no-nanny", "--no-dashboard", "--host", "127.0.0.1"], **quiet,  # type: ignore[call-overload]
    )  # fmt: skip
    try:
        store = tmp_path / "s.db"
        args = ["simulate", "bakers-game", "--strategy", "solver", "--nodes", "20000",
                "-n", "300", "--store", str(store), "--scheduler", address]  # fmt: skip
        env = {**os.environ, "PATIENCE_DASK_TIMEOUT": "30"}
        driver = subprocess.Popen([sys.executable, "-c", MAIN, *args], env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        _wait_for_rows(store, driver)
        scheduler.kill()
        _, err = driver.communicate(timeout=120)
        assert driver.returncode == 1, err
        assert err.startswith(
            f"patience: error: lost the connection to the Dask scheduler {address}; "
        )
        assert err.endswith(" rows kept; run the same command again to resume\n"), err
        assert err.count("\n") == 1 and "Traceback" not in err
    finally:
        for process in (scheduler, worker):
            process.kill()
            process.wait(10)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_rows(store: Path, driver: subprocess.Popen[str]) -> None:
    import sqlite3

    deadline = time.monotonic() + 90
    while time.monotonic() < deadline and driver.poll() is None:
        time.sleep(0.3)
        try:
            with sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True) as db:
                if db.execute("SELECT count(*) FROM rows").fetchone()[0] >= 10:
                    return
        except sqlite3.Error:
            continue
    pytest.fail("no rows stored in time")


def test_a_script_without_the_main_guard_is_told_so(tmp_path: Path) -> None:
    script = tmp_path / "study.py"
    script.write_text(
        "from patience_core.api import DealNumber\n"
        "from patience_core.plugins import PluginHost\n"
        "from patience_core.simulate import BatchSpec, Run, WorkerDied\n"
        "spec = BatchSpec.of('escalator', 'greedy')\n"
        "try:\n"
        "    with Run(PluginHost(), spec, DealNumber(1), 300, store='s.db', jobs=2) as run:\n"
        "        run.play()\n"
        "except WorkerDied as exc:\n"
        "    print(exc)\n"
    )
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, check=False)  # fmt: skip
    assert done.stdout == MAIN_GUARD + "\n", done.stderr
    assert "Traceback" not in done.stderr, done.stderr


@pytest.mark.skipif(not hasattr(os, "fork"), reason="a pseudo-terminal")
def test_ctrl_c_at_the_progress_line_on_a_dumb_terminal(tmp_path: Path) -> None:
    """TERM=dumb: no escape codes; the ^C the terminal shows ends the bar's line and the
    message follows on the next, with no empty line between."""
    import pty
    import select

    pid, fd = pty.fork()
    if pid == 0:  # the child: patience on the pseudo-terminal
        os.environ["TERM"] = "dumb"
        os.execv(sys.executable, [sys.executable, "-c", MAIN, "simulate", "bakers-game",
                 "--strategy", "solver", "--nodes", "50000", "-n", "500",
                 "--store", str(tmp_path / "s.db")])  # fmt: skip
    out, sent = b"", False
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                data = os.read(fd, 4096)
            except OSError:
                break
            if not data:
                break
            out += data
        if not sent and out.count(b"/500") >= 2:
            os.write(fd, b"\x03")
            sent = True
    os.waitpid(pid, 0)
    assert sent, out
    assert b"\x1b" not in out, out
    assert out.endswith(b"\r\npatience: interrupted\r\n"), out[-200:]
    assert b"\r\n\r\n" not in out, out[-200:]
