"""A scripted player for the kill -9 test: ``python stats_updater.py DB NAME``.

It records games of NAME, ten moves each (even games won, odd ones lost), one
``record.update`` a move, 100 updates in all, and prints ``ok`` (flushed) after each update that
was stored, ``failed: WARNING`` after one that was not.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from patience_core.stats import Statistics, _db

MOVES_A_GAME = 10
UPDATES = 100


def main() -> None:
    path, name = Path(sys.argv[1]), sys.argv[2]
    # On a loaded machine the other player may hold the lock longer than a player waits; this
    # test is about kills, not about waiting, so it waits as long as it takes.
    _db.BUSY_TIMEOUT = 60.0
    warnings: list[str] = []
    stats = Statistics.open(path, warn=warnings.append)
    if stats is None:
        print(f"failed: {warnings}", flush=True)
        return
    record = None
    for update in range(UPDATES):
        game, move = divmod(update, MOVES_A_GAME)
        if move == 0:
            record = stats.record(
                game=name, options={}, deal=str(game), patience_version="0", plugin_version="0"
            )
        assert record is not None
        last = move == MOVES_A_GAME - 1
        outcome = ("won" if game % 2 == 0 else "lost") if last else "in progress"
        record.update(
            moves=move + 1,
            undos=0,
            hints=0,
            restarts=0,
            score=game,
            seconds=move + 1.0,
            outcome=outcome,
        )
        print(f"failed: {warnings}" if warnings else "ok", flush=True)
        time.sleep(0.002)  # so that a kill may land anywhere in the run
    stats.close()


if __name__ == "__main__":
    main()
