"""Two players recording at once, each killed (SIGKILL) at a random moment: the database is
sound, and holds exactly what the stored updates imply (at most the update in flight more)."""

from __future__ import annotations

import math
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from stats_updater import MOVES_A_GAME, UPDATES

from patience_core.stats import Statistics

UPDATER = Path(__file__).with_name("stats_updater.py")


def implied(updates: int) -> list[tuple[str, int, str, int]]:
    """The rows (deal, moves, outcome, score) that ``updates`` scripted updates leave."""
    rows = []
    for game in range(math.ceil(updates / MOVES_A_GAME)):
        moves = min(MOVES_A_GAME, updates - game * MOVES_A_GAME)
        done = moves == MOVES_A_GAME
        outcome = ("won" if game % 2 == 0 else "lost") if done else "in progress"
        rows.append((str(game), moves, outcome, game))
    return rows


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL on this system")
@pytest.mark.parametrize("seed", [1, 2])
def test_kill_9_loses_at_most_the_update_in_flight(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    db = tmp_path / "stats.db"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for round_ in range(2):  # the second round opens what the first killed players left
        names = [f"p{round_}{n}" for n in range(2)]
        players = [
            subprocess.Popen(
                [sys.executable, str(UPDATER), str(db), name],
                stdout=subprocess.PIPE,
                text=True,
                env=env,
            )
            for name in names
        ]
        stops = [rng.randrange(1, UPDATES) for _ in players]
        read: list[list[str]] = []
        for player, stop in zip(players, stops, strict=True):
            assert player.stdout is not None
            lines: list[str] = []
            while len(lines) < stop and (line := player.stdout.readline()):
                lines.append(line.rstrip("\n"))
            read.append(lines)
        for player in players:
            player.send_signal(signal.SIGKILL)
        said = []
        for player in players:
            player.wait(timeout=60)
            assert player.stdout is not None
            said.append(player.stdout.read())  # what it printed before the kill, buffered too
            player.stdout.close()
        with sqlite3.connect(db) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            for name, before, out in zip(names, read, said, strict=True):
                lines = before + out.splitlines()
                assert all(line == "ok" for line in lines), lines
                rows = conn.execute(
                    "SELECT deal, moves, outcome, score FROM games WHERE game = ?"
                    " ORDER BY started_at",
                    (name,),
                ).fetchall()
                stored = len(lines)
                assert rows in (implied(stored), implied(min(stored + 1, UPDATES))), (stored, rows)
        conn.close()
        stats = Statistics.open(db, warn=pytest.fail)
        assert stats is not None
        for name in names:
            rows = stats.history(game=name, limit=None)
            summary = stats.summary(name)
            assert summary.played == len(rows)
            assert summary.won == sum(row.outcome == "won" for row in rows)
        stats.close()
