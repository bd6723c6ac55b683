"""Latency of the full-screen player: from a key press to the redrawn board, and from start-up to
the first frame, for every installed game.

Key presses: the app runs headless at 80x24 on deals 1..N; each deal plays its first legal
moves through the keys a player uses (the source pile's name, which picks the card up, then the
target's name, which plays the move; ``d`` to deal), then undoes and redoes each (``u``, ``U``).
A press is timed from the key event sent (as the terminal driver sends it) to the next frame the
screen composes: the board and status redrawn (the headless app composes every frame and only
leaves out writing it to a terminal). Textual's pilot is not used for the timing: its presses
wait for the process to be idle (20 ms slices at least). Keys that change nothing on the screen
(the first letter of a pile name) are sent untimed. Targets: median under 50 ms, the slowest
under 150 ms.

Start-up: ``python benchmarks/tui_latency.py --first-frame GAME`` in a new process, timed from
its start to the first frame shown (Python's start, the imports, loading the plugins and laying
out the board), wall and CPU seconds. Target: under 1 s.

Usage: ``python benchmarks/tui_latency.py [--games G ...] [--deals 3] [--moves 8] [--runs 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from textual import events
from textual.app import App
from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.model import MoveKind, PileKind
from patience_core.play import PlayController, Session
from patience_core.plugins import PluginHost
from patience_core.tui import PatienceApp


class FrameClock:
    """The times (``time.perf_counter``) at which the app composed a frame: a spy on its
    display call (private to Textual: a benchmark may look inside)."""

    def __init__(self, app: PatienceApp) -> None:
        self.frames: list[float] = []
        shown = app._display

        def spy(screen: object, renderable: object) -> None:
            if renderable is not None:
                self.frames.append(time.perf_counter())
            shown(screen, renderable)  # type: ignore[arg-type]

        app._display = spy  # type: ignore[method-assign]


async def _send(app: App[int], key: str) -> None:
    event = events.Key(key, key if len(key) == 1 else None)
    event.set_sender(app)
    assert app._driver is not None
    app._driver.send_message(event)


async def _press(pilot: Pilot[int], clock: FrameClock, keys: list[str], times: list[float]) -> None:
    """Send ``keys``; time the last one, from sending it to the next frame composed."""
    app = pilot.app
    for key in keys[:-1]:
        await _send(app, key)
        await pilot.pause()
    seen = len(clock.frames)
    started = time.perf_counter()
    await _send(app, keys[-1])
    waited = 0.0
    while len(clock.frames) == seen and waited < 5.0:
        await asyncio.sleep(0.0005)
        waited = time.perf_counter() - started
    if len(clock.frames) > seen:
        times.append(clock.frames[seen] - started)
    await pilot.pause()


def _keys_of_moves(controller: PlayController, moves: int) -> list[list[str]]:
    """The keys of the first ``moves`` legal moves from the deal: ``["d"]`` for a deal, the
    source's and the target's names for a move of one card (``[]``: a move left untimed), found
    by playing them on a copy of the game."""
    session = Session(controller.session.game, controller.session.deal)
    game = session.game
    keys: list[list[str]] = []
    while len(keys) < moves:
        legal = session.legal_moves()
        chosen = next(
            (
                m
                for m in legal
                if m.kind is MoveKind.DEAL
                or (m.count == 1 and game.piles[m.source].kind is not PileKind.STOCK)
            ),
            None,
        )
        if chosen is None:
            break
        if chosen.kind is MoveKind.DEAL:
            keys.append(["d"])
        else:
            assert chosen.target is not None
            names = [game.piles[chosen.source].name, game.piles[chosen.target].name]
            if any(
                other.name != n and other.name.startswith(n) for n in names for other in game.piles
            ):
                # A name another begins with (p2 beside p21) ends with a pause: not a fair
                # latency figure; play it but do not time it.
                session.play(chosen)
                keys.append([])
                continue
            keys.append(names)
        session.play(chosen)
    return keys


def key_latency(host: PluginHost, name: str, deals: int, moves: int, folder: Path) -> list[float]:
    """Seconds from each key press to the redrawn board, over deals 1..``deals``."""
    times: list[float] = []
    for deal in range(1, deals + 1):
        game = host.game(name)
        session = Session(game, DealNumber(deal))
        controller = PlayController(
            session, folder / f"{name}.json", host.version_of(name), search=host.search(game)
        )
        plan = _keys_of_moves(controller, moves)
        app = PatienceApp(controller)

        async def run(app: PatienceApp = app, plan: list[list[str]] = plan) -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                clock = FrameClock(app)
                played = 0
                for keys in plan:
                    if not keys:
                        break
                    # "d"; or the source's name (picks up), the target's (plays the move)
                    for name in keys:
                        await _press(pilot, clock, list(name), times)
                    played += 1
                for _ in range(played):
                    await _press(pilot, clock, ["u"], times)
                for _ in range(played):
                    await _press(pilot, clock, ["U"], times)

        asyncio.run(run())
    return times


def first_frame(game: str) -> None:
    """Start the app on deal 1 of ``game``, headless, and end it once the first frame is shown
    (the child process of :func:`startup_seconds`)."""
    host = PluginHost().load()
    the_game = host.game(game)
    with tempfile.TemporaryDirectory() as folder:
        controller = PlayController(
            Session(the_game, DealNumber(1)), Path(folder) / "start.json", "0"
        )
        app = PatienceApp(controller)

        async def run() -> None:
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()

        asyncio.run(run())


def startup_seconds(game: str, runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds (user + system, ``os.wait4``) of new processes from their start
    to the first frame. On a machine shared with other work the wall time is the longer."""
    walls, cpus = [], []
    for _ in range(runs):
        started = time.perf_counter()
        child = subprocess.Popen([sys.executable, __file__, "--first-frame", game])
        _pid, status, usage = os.wait4(child.pid, 0)
        walls.append(time.perf_counter() - started)
        cpus.append(usage.ru_utime + usage.ru_stime)
        assert status == 0, f"the start-up of {game} failed"
    return walls, cpus


def main() -> None:
    parser = argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split()))
    parser.add_argument("--games", nargs="*", help="games to time (default: every installed one)")
    parser.add_argument("--deals", type=int, default=3, help="deals 1..N (3)")
    parser.add_argument("--moves", type=int, default=8, help="moves played per deal (8)")
    parser.add_argument("--runs", type=int, default=3, help="start-ups per game (3)")
    parser.add_argument("--first-frame", metavar="GAME", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.first_frame:
        first_frame(args.first_frame)
        return
    host = PluginHost().load()
    names = args.games or sorted(host.games.names())
    print(f"80x24, deals 1..{args.deals}, up to {args.moves} moves, then undo and redo each")
    print(
        f"{'game':<14} {'presses':>7} {'median ms':>9} {'max ms':>7} "
        f"{'start-up s':>10} {'start CPU s':>11}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            presses = key_latency(host, name, args.deals, args.moves, Path(folder))
            walls, cpus = startup_seconds(name, args.runs)
            print(
                f"{name:<14} {len(presses):>7} {statistics.median(presses) * 1000:>9.1f} "
                f"{max(presses) * 1000:>7.1f} {statistics.median(walls):>10.2f} "
                f"{statistics.median(cpus):>11.2f}"
            )


if __name__ == "__main__":
    main()
