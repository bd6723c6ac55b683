"""Start-up time of the ``patience`` command: median wall time over repeated runs.

Runs ``python -c pass`` (the interpreter alone), ``patience --help`` and ``patience list`` as
subprocesses, using the ``patience`` script next to ``sys.executable`` (the same environment), and
prints a table of median, fastest and slowest wall times in milliseconds.

Usage: ``python benchmarks/startup.py [--runs 15]``
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path


def patience_script() -> str:
    """The ``patience`` console script of this interpreter's environment."""
    exe = Path(sys.executable).with_name("patience")
    if exe.exists():
        return str(exe)
    found = shutil.which("patience")
    if found is None:
        sys.exit("benchmarks/startup.py: no patience script next to python or on PATH")
    return found


def time_runs(command: list[str], runs: int) -> list[float]:
    """Wall seconds of ``runs`` runs of ``command`` (after one untimed warm-up run)."""
    subprocess.run(command, check=True, capture_output=True)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs per command (15)")
    args = parser.parse_args()
    script = patience_script()
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "patience --help": [script, "--help"],
        "patience list": [script, "list"],
    }
    runs = f"{args.runs} run{'' if args.runs == 1 else 's'}"
    print(f"{'command':<18} {'median ms':>10} {'min ms':>8} {'max ms':>8}   ({runs})")
    for label, command in commands.items():
        times = time_runs(command, args.runs)
        print(
            f"{label:<18} {statistics.median(times) * 1000:>10.1f} "
            f"{min(times) * 1000:>8.1f} {max(times) * 1000:>8.1f}"
        )


if __name__ == "__main__":
    main()
