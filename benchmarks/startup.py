"""Start-up cost of the ``patience`` command: median CPU time (user + system) of a child process.

Runs ``python -c "import click"`` (the floor of any click program: the interpreter and click),
``patience --help`` and ``patience list`` as subprocesses, using the ``patience`` script next to
``sys.executable`` (the same environment), and prints the median, fastest and slowest CPU time
of each in milliseconds, and each command's median as a multiple of the floor's. CPU time, not
wall time: it depends far less on what else the machine is doing.

Targets (issue 17): ``--help`` within 1.5x of the floor, ``list`` within 2.5x.

Usage: ``python benchmarks/startup.py [--runs 15]``
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
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


def cpu_seconds(command: list[str]) -> float:
    """The user + system CPU seconds one run of ``command`` took (``os.wait4``'s usage of
    that child alone).

    :raises subprocess.CalledProcessError: when the command fails.
    """
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, command)
    return usage.ru_utime + usage.ru_stime


def time_runs(command: list[str], runs: int) -> list[float]:
    """CPU seconds of ``runs`` runs of ``command`` (after one untimed warm-up run)."""
    cpu_seconds(command)
    return [cpu_seconds(command) for _ in range(runs)]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="timed runs per command (15)")
    args = parser.parse_args()
    script = patience_script()
    commands = {
        "import click": [sys.executable, "-c", "import click"],
        "patience --help": [script, "--help"],
        "patience list": [script, "list"],
    }
    runs = f"{args.runs} run{'' if args.runs == 1 else 's'}"
    header = f"{'command':<18} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'x floor':>8}"
    print(f"{header}   ({runs})")
    floor = None
    for label, command in commands.items():
        times = time_runs(command, args.runs)
        median = statistics.median(times)
        floor = floor or median
        print(
            f"{label:<18} {median * 1000:>10.1f} {min(times) * 1000:>8.1f} "
            f"{max(times) * 1000:>8.1f} {median / floor:>8.2f}"
        )


if __name__ == "__main__":
    main()
