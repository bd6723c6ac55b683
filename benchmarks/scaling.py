"""Scaling of ``patience simulate``: deals per second with 1 and 2 workers, on the local process
pool (``--jobs``) and on Dask (``--scheduler local:N``), for a fast strategy (Escalator greedy,
about a millisecond a deal) and a slow one (Baker's Game solver with a node budget, a tenth of a
second and more a deal).

Each cell is one :class:`~patience_core.simulate.Run` into a fresh run store, timed by its wall
clock (start-up of the workers or of the Dask cluster included, as a user waits for it). Printed:
deals a second, the efficiency from 1 to 2 workers (speed-up / 2), Dask's speed beside the pool's
with the same workers, and Dask's overhead per deal ((Dask's wall - the pool's wall) / deals).
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
    print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    print(
        f"{'case':<20} {'how':<10} {'workers':>7} {'deals':>6} {'wall s':>8} {'deals/s':>9} "
        f"{'speed-up':>9} {'vs pool':>8} {'Dask ms/deal':>12}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, spec, n in cases:
            walls: dict[tuple[str, int], float] = {}
            reference: list[object] | None = None
            hows = [("pool", 1, {"jobs": 1}), ("pool", 2, {"jobs": 2})]
            if with_dask:
                hows += [
                    ("dask", 1, {"scheduler": "local:1"}),
                    ("dask", 2, {"scheduler": "local:2"}),
                ]
            for how, workers, options in hows:
                wall, keys = timed(spec, n, folder, **options)
                if reference is None:
                    reference = keys
                assert keys == reference, f"{name} {how} {workers}: other rows"
                walls[how, workers] = wall
                speed_up = walls[how, 1] / wall
                versus = walls["pool", workers] / wall
                overhead = (wall - walls["pool", workers]) / n * 1000
                print(
                    f"{name:<20} {how:<10} {workers:>7} {n:>6} {wall:>8.2f} {n / wall:>9.1f} "
                    f"{speed_up:>9.2f} {versus:>8.2f} "
                    f"{overhead if how == 'dask' else 0.0:>12.2f}"
                )


if __name__ == "__main__":
    main()
