"""What the statistics cost: the time ``record.update`` adds to a move, and ``patience stats``
(and ``history``) on a database of many recorded games.

Usage: ``python benchmarks/stats_overhead.py [--updates 500] [--games 100000] [--runs 5]``.
Targets (issue 19): update median under 5 ms; ``patience stats`` on 100,000 games under 0.5 s.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from patience_core.stats import COLUMNS, Statistics


def time_updates(folder: Path, updates: int) -> list[float]:
    """Seconds of each of ``updates`` ``record.update`` calls, one game per 50 moves."""
    stats = Statistics.open(folder / "updates.db", warn=print)
    assert stats is not None
    times = []
    record = None
    for n in range(updates):
        if n % 50 == 0:
            record = stats.record(
                game="escalator", options={}, deal=str(n), patience_version="0", plugin_version="0"
            )
        assert record is not None
        start = time.perf_counter()
        record.update(
            moves=n % 50 + 1,
            undos=0,
            hints=0,
            restarts=0,
            score=n,
            seconds=n / 10,
            outcome="won" if n % 50 == 49 else "in progress",
        )
        times.append(time.perf_counter() - start)
    stats.close()
    return times


def fill(path: Path, games: int) -> float:
    """Write ``games`` recorded games (5 games, 3 option sets, random outcomes) with one
    ``executemany``; returns the seconds it took."""
    start = time.perf_counter()
    stats = Statistics.open(path, warn=print)
    assert stats is not None
    stats.close()
    rng = random.Random(1)
    names = ["escalator", "bristol", "bakers-game", "diamond-mine", "spiderette"]
    options = ["{}", '{"variant":"a"}', '{"variant":"b"}']
    outcomes = ["won", "lost", "lost", "abandoned", "dead", "in progress"]
    rows = []
    for n in range(games):
        when = f"2026-{1 + n * 12 // games:02}-{1 + n % 28:02}T12:00:{n % 60:02}.{n:06}+00:00"
        outcome = rng.choice(outcomes)
        ended = None if outcome == "in progress" else when
        rows.append(
            (
                f"{n:032x}",
                rng.choice(names),
                rng.choice(options),
                str(rng.randrange(10**6)),
                "0.1.0",
                "1.0",
                when,
                when,
                ended,
                rng.uniform(30, 900),
                rng.randrange(10, 200),
                0,
                0,
                0,
                rng.randrange(0, 100),
                outcome,
            )
        )
    import sqlite3

    with sqlite3.connect(path) as conn:
        marks = ", ".join("?" * len(COLUMNS))
        conn.executemany(f"INSERT INTO games ({', '.join(COLUMNS)}) VALUES ({marks})", rows)
    conn.close()
    return time.perf_counter() - start


def time_command(folder: Path, args: list[str], runs: int) -> list[float]:
    """Wall seconds of ``patience ARGS`` run as a subprocess (one warm-up run first)."""
    script = shutil.which("patience", path=str(Path(sys.executable).parent)) or "patience"
    env = {**os.environ, "PATIENCE_DATA_DIR": str(folder)}
    times = []
    for run in range(runs + 1):
        start = time.perf_counter()
        subprocess.run([script, *args], env=env, check=True, stdout=subprocess.DEVNULL)
        if run:
            times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=500)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        times = sorted(time_updates(folder, args.updates))
        print(
            f"record.update, {args.updates} calls: median {statistics.median(times) * 1000:.3f} ms,"
            f" 95th percentile {times[int(len(times) * 0.95)] * 1000:.3f} ms,"
            f" max {times[-1] * 1000:.3f} ms (target: median under 5 ms)"
        )
        seconds = fill(folder / "stats.db", args.games)
        size = (folder / "stats.db").stat().st_size / 2**20
        print(f"{args.games:,} games written in {seconds:.2f} s ({size:.1f} MiB)")
        stats = Statistics.open(folder / "stats.db", warn=print)
        assert stats is not None
        start = time.perf_counter()
        stats.report()
        print(f"Statistics.report() in-process: {(time.perf_counter() - start) * 1000:.0f} ms")
        stats.close()
        print(f"command (wall seconds, {args.runs} runs)    median     min     max")
        for command in (["stats"], ["stats", "--json"], ["stats", "escalator"], ["history"]):
            runs = time_command(folder, command, args.runs)
            print(
                f"patience {' '.join(command):<28} {statistics.median(runs):7.3f} "
                f"{min(runs):7.3f} {max(runs):7.3f}"
            )
        print(f"floor: {sys.executable} -c pass, as above")
        runs = []
        for _ in range(args.runs):
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", "pass"], check=True)
            runs.append(time.perf_counter() - start)
        print(f"python -c pass                        {statistics.median(runs):7.3f}")


if __name__ == "__main__":
    main()
