"""Runs that outgrow one process: the same rows for --jobs 1, --jobs 2, a local Dask cluster and
a real one (a scheduler and two workers started here as processes); a worker killed mid-run; a
worker without the game's plugin; the driver killed at random moments and run again."""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from patience_core.simulate import RunStore

pytest.importorskip("distributed", reason="the dask extra")

GAMES = ["escalator", "bristol", "bakers-game", "diamond-mine", "spiderette", "golf"]
MAIN = "import sys; from patience_core.cli import main; main(sys.argv[1:])"


def patience(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``patience ARGS`` in a new process (Dask's threads and sockets stay out of pytest's)."""
    return subprocess.run(
        [sys.executable, "-c", MAIN, *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=300,
        check=False,
    )


def rows(path: Path) -> list[list[str]]:
    """The rows of a CSV file, every column but seconds."""
    return [line.split(",")[:-1] for line in path.read_text().splitlines()]


class Cluster:
    """A ``dask scheduler`` on 127.0.0.1 and its ``dask worker`` processes."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.workers: list[subprocess.Popen[bytes]] = []
        info = folder / "scheduler.json"
        self.scheduler = self._start(
            "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
            "--scheduler-file", str(info),
        )  # fmt: skip
        deadline = time.monotonic() + 60
        while not info.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        import json

        time.sleep(0.2)  # the file is written whole before it is read
        self.address = json.loads(info.read_text())["address"]

    def _start(self, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-m", "distributed.cli.dask_" + args[0], *args[1:]],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env={**os.environ, **(env or {})},
            cwd=self.folder,
        )

    def add_worker(self, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
        worker = self._start(
            "worker", self.address, "--nthreads", "1", "--no-nanny", "--no-dashboard",
            "--host", "127.0.0.1", env=env,
        )  # fmt: skip
        self.workers.append(worker)
        return worker

    def wait_for(self, count: int) -> None:
        import distributed

        with distributed.Client(self.address, timeout=60) as client:
            client.wait_for_workers(count, timeout=60)

    def close(self) -> None:
        for process in [*self.workers, self.scheduler]:
            process.kill()
            process.wait(30)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    started = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        started.add_worker()
        started.add_worker()
        started.wait_for(2)
        yield started
    finally:
        started.close()


@pytest.fixture
def lone_cluster(tmp_path: Path) -> Iterator[Cluster]:
    started = Cluster(tmp_path)
    try:
        yield started
    finally:
        started.close()


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_rows_are_the_same_on_one_process_two_a_local_cluster_and_a_real_one(
    game: str, tmp_path: Path, cluster: Cluster
) -> None:
    strategy = "greedy" if game == "escalator" else "random"
    base = ["simulate", game, "-n", "12", "--strategy", strategy]
    got = {}
    for name, how in [
        ("jobs1", ["-j", "1"]),
        ("jobs2", ["-j", "2"]),
        ("local2", ["--scheduler", "local:2"]),
        ("cluster", ["--scheduler", cluster.address]),
    ]:
        out = tmp_path / f"{name}.csv"
        # a store each: a run of the same parameters would otherwise be resumed, not played
        done = patience(*base, *how, "-O", str(out), "--store", str(tmp_path / f"{name}.db"))
        assert done.returncode == 0, (name, done.stderr)
        got[name] = rows(out)
    assert len(got["jobs1"]) == 13
    assert got["jobs2"] == got["jobs1"] and got["local2"] == got["jobs1"]
    assert got["cluster"] == got["jobs1"]


def test_a_real_cluster_gives_the_rows_of_one_process(tmp_path: Path, cluster: Cluster) -> None:
    base = ["simulate", "escalator", "-n", "40", "--strategy", "greedy"]
    one, far = tmp_path / "one.csv", tmp_path / "far.csv"
    assert patience(*base, "-O", str(one), "--store", str(tmp_path / "1.db")).returncode == 0
    done = patience(*base, "--scheduler", cluster.address, "-O", str(far))
    assert done.returncode == 0, done.stderr
    assert rows(far) == rows(one)


@pytest.mark.slow
def test_a_worker_killed_mid_run_leaves_the_rows_the_same(
    tmp_path: Path, lone_cluster: Cluster
) -> None:
    """SIGKILL of one of two workers while the run plays: Dask plays its chunks on the other,
    and the rows are those of one process."""
    base = ["simulate", "escalator", "-n", "4000", "--strategy", "greedy"]
    one = tmp_path / "one.csv"
    assert patience(*base, "-O", str(one), "--store", str(tmp_path / "1.db")).returncode == 0
    doomed = lone_cluster.add_worker()
    lone_cluster.add_worker()
    lone_cluster.wait_for(2)
    store, far = tmp_path / "far.db", tmp_path / "far.csv"
    args = [*base, "--scheduler", lone_cluster.address, "-O", str(far), "--store", str(store)]
    run = subprocess.Popen([sys.executable, "-c", MAIN, *args], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        stored = 0
        while stored < 100 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.1)
            if store.exists():
                with sqlite3.connect(store) as db:
                    try:
                        stored = db.execute("SELECT count(*) FROM rows").fetchone()[0]
                    except sqlite3.OperationalError:  # the tables are not there yet
                        continue
        assert 100 <= stored < 4000, stored  # killed mid-run
        doomed.send_signal(signal.SIGKILL)
        _, err = run.communicate(timeout=240)
    finally:
        run.kill()
    assert run.returncode == 0, err
    assert rows(far) == rows(one)


def test_a_worker_without_the_game_s_plugin_is_refused_in_one_line(
    tmp_path: Path, lone_cluster: Cluster
) -> None:
    lone_cluster.add_worker()
    lone_cluster.add_worker(env={"PATIENCE_DISABLE_PLUGINS": "escalator"})
    lone_cluster.wait_for(2)
    done = patience("simulate", "escalator", "-n", "4", "--scheduler", lone_cluster.address)
    assert done.returncode == 1
    line = done.stderr.strip()
    assert line.count("\n") == 0, done.stderr
    assert line.startswith("patience: error: Dask worker tcp://127.0.0.1:")
    assert "cannot play the run: unknown game 'escalator'" in line, line


def test_a_bad_scheduler_is_one_line(tmp_path: Path) -> None:
    for value, says in [
        ("local:0", "local:N takes 1 to 64 worker processes, not '0'"),
        ("local:99999", "local:N takes 1 to 64 worker processes, not '99999'"),
        ("nowhere", "is neither local:N"),
        ("tcp://127.0.0.1:9", "cannot use the Dask scheduler tcp://127.0.0.1:9"),
    ]:
        done = patience(
            "simulate", "escalator", "-n", "2", "--scheduler", value,
            env={"PATIENCE_DASK_TIMEOUT": "2"},
        )  # fmt: skip
        assert done.returncode == 1 and says in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1, done.stderr


@pytest.mark.slow
def test_the_driver_killed_at_random_moments_then_run_again_gives_the_rows_once(
    tmp_path: Path,
) -> None:
    """kill -9 of the driver, 20 times at random moments, each time the same command again;
    then once to the end: the rows of an uninterrupted run, no deal twice."""
    base = ["simulate", "bristol", "-n", "300", "--strategy", "random", "--max-moves", "400"]
    whole = tmp_path / "whole.csv"
    assert patience(*base, "-O", str(whole), "--store", str(tmp_path / "w.db")).returncode == 0
    store, out = tmp_path / "runs.db", tmp_path / "out.csv"
    args = [sys.executable, "-c", MAIN, *base, "-O", str(out), "--store", str(store)]
    moments = random.Random(20).uniform  # the same moments in every test run
    for _ in range(20):
        run = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            run.wait(timeout=moments(0.2, 1.2))
        except subprocess.TimeoutExpired:
            run.send_signal(signal.SIGKILL)
            run.wait()
    done = patience(*base, "-O", str(out), "--store", str(store))
    assert done.returncode == 0, done.stderr
    assert rows(out) == rows(whole)
    with RunStore(store) as opened:
        (run_info,) = opened.runs()
        assert run_info.rows == 300 and len(opened.stored_deals(run_info.id)) == 300


def test_two_runs_at_once_on_one_store_both_complete(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", MAIN, "simulate", game, "-n", "300", "--store", str(store)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for game in ("escalator", "golf")
    ]
    for run in runs:
        _, err = run.communicate(timeout=240)
        assert (run.returncode, err) == (0, "")
    with RunStore(store) as opened:
        assert sorted((run.params["game"], run.rows) for run in opened.runs()) == [
            ("escalator", 300),
            ("golf", 300),
        ]


def test_a_locked_store_is_one_line_after_the_wait(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    RunStore(store).close()
    holder = sqlite3.connect(store, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        done = patience(
            "simulate", "escalator", "-n", "3", "--store", str(store),
            env={"PATIENCE_STORE_TIMEOUT": "0.5"},
        )  # fmt: skip
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == (
        f"patience: error: cannot write the run store {str(store)!r}: another process has held "
        "it locked for 0.5 s; try again when it is done\n"
    )


@pytest.mark.slow
def test_ctrl_c_on_a_local_cluster_prints_the_one_line_and_keeps_the_rows(tmp_path: Path) -> None:
    store = tmp_path / "runs.db"
    args = ["simulate", "bakers-game", "-n", "60", "--strategy", "solver", "--nodes", "500000"]
    run = subprocess.Popen(
        [sys.executable, "-c", MAIN, *args, "--scheduler", "local:2", "--store", str(store)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell's job
    )
    try:
        deadline, stored = time.monotonic() + 120, 0
        while stored < 2 and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.2)
            if store.exists():
                with RunStore(store) as opened:
                    stored = sum(info.rows for info in opened.runs())
        os.killpg(run.pid, signal.SIGINT)  # as a terminal's Ctrl-C: the whole group
        _, err = run.communicate(timeout=120)
    finally:
        run.kill()
    assert (run.returncode, err) == (130, "patience: interrupted\n")
    with RunStore(store) as opened:
        assert sum(info.rows for info in opened.runs()) >= stored >= 2
