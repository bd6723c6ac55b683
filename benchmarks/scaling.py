"""Scaling of ``patience simulate``: deals per second with 1 and 2 workers, on the local process
pool (``--jobs``) and on Dask (``--scheduler local:N``), for a fast strategy (Escalator greedy,
about a millisecond a deal) and a slow one (Baker's Game solver with a node budget, a tenth of a
second and more a deal).

Each cell is one :class:`~patience_core.simulate.Run` into a fresh run store, timed by its wall
clock, and a run of one deal a worker before it, whose wall time is the start-up (worker
processes or the Dask cluster, the plugins loaded). Printed: both, deals a second over the wall
time less the start-up, the speed-up from 1 to 2 workers (the efficiency is half of it), Dask's
speed beside the pool's with the same workers, Dask's overhead per deal (its seconds a deal less
the pool's), and the load average (other work on the machine makes every figure worse).
Targets on a 2-core machine: a speed-up of at least 1.8 on the solver strategy, Dask within 10%
of the pool. The rows of every cell are checked to be the same.

Usage: ``python benchmarks/scaling.py [--greedy-deals 4000] [--solver-deals 60] [--nodes 20000]``
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from patience_core.engine import DealNumber
from patience_core.plugins import PluginHost
from patience_core.simulate import BatchSpec, Run, RunStore, dask_available


def timed(spec: BatchSpec, n: int, folder: Path, **how: object) -> tuple[float, list[object]]:
    """Wall seconds of a run of deals 1..n of ``spec`` (a fresh store), and its rows' keys."""
    store = folder / f"{time.monotonic_ns()}.db"
    start = time.perf_counter()
    with Run(PluginHost(), spec, DealNumber(1), n, store=store, **how) as run:  # type: ignore[arg-type]
        run.play()
        wall = time.perf_counter() - start
    with RunStore(store) as opened:
        keys: list[object] = [row.key() for row in opened.rows(run.run_id or 0)]
    return wall, keys


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--greedy-deals", type=int, default=4000, help="Escalator greedy deals")
    parser.add_argument("--solver-deals", type=int, default=60, help="Baker's Game solver deals")
    parser.add_argument("--nodes", type=int, default=20000, help="solver node budget a deal")
    args = parser.parse_args()
    cases = [
        ("escalator greedy", BatchSpec.of("escalator", "greedy"), args.greedy_deals),
        (
            "bakers-game solver",
            BatchSpec.of("bakers-game", "solver", nodes=args.nodes),
            args.solver_deals,
        ),
    ]
    try:
        dask_available()
        with_dask = True
    except Exception as exc:
        print(f"(no Dask: {exc})")
        with_dask = False
    print(f"{os.cpu_count()} CPUs")
    print(
        f"{'case':<19} {'how':<4} {'wkrs':>4} {'deals':>5} {'wall s':>7} {'start s':>7} "
        f"{'deals/s':>8} {'speed-up':>8} {'vs pool':>7} {'Dask ms/deal':>12} {'load':>5}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, spec, n in cases:
            steady: dict[tuple[str, int], float] = {}
            reference: list[object] | None = None
            hows: list[tuple[str, int, dict[str, object]]] = [
                ("pool", 1, {"jobs": 1}),
                ("pool", 2, {"jobs": 2}),
            ]
            if with_dask:
                hows += [("dask", k, {"scheduler": f"local:{k}"}) for k in (1, 2)]
            for how, workers, options in hows:
                # The start-up (workers, a cluster, plugins loaded) is a run of one deal a
                # worker; the steady speed is over the rest of the wall time.
                start, _ = timed(spec, workers, folder, **options)
                wall, keys = timed(spec, n, folder, **options)
                if reference is None:
                    reference = keys
                assert keys == reference, f"{name} {how} {workers}: other rows"
                steady[how, workers] = max(wall - start, 1e-9) / n  # seconds a deal
                speed_up = steady[how, 1] / steady[how, workers]
                versus = steady["pool", workers] / steady[how, workers]
                overhead = (steady[how, workers] - steady["pool", workers]) * 1000
                print(
                    f"{name:<19} {how:<4} {workers:>4} {n:>5} {wall:>7.2f} {start:>7.2f} "
                    f"{1 / steady[how, workers]:>8.1f} {speed_up:>8.2f} {versus:>7.2f} "
                    f"{overhead if how == 'dask' else 0.0:>12.2f} {os.getloadavg()[0]:>5.1f}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
