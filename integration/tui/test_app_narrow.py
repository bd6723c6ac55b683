"""The full-screen player's lines and labels on narrow terminals with the shipped games: pile
names never run together, the status bar keeps whole fields and the dead-check indicator, the
footer keeps help and quit (docs/play.md, "Small terminals")."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.play import PlayController, Session
from patience_core.plugins import PluginHost
from patience_core.tui import PatienceApp, board_geometry
from patience_core.tui._lines import KeyBar
from patience_core.tui._pilot import run_scenario

GAMES = ["escalator", "bristol", "bakers-game", "diamond-mine", "spiderette", "golf"]

Make = Callable[..., PlayController]


@pytest.mark.parametrize("game", GAMES)
def test_pile_names_never_run_together(game: str, patience_host: PluginHost) -> None:
    the_game = patience_host.game(game, {})
    position = Session.replay(the_game, DealNumber(1), ()).position
    for columns, rows in ((40, 15), (50, 18), (60, 20), (80, 24), (120, 40)):
        geometry = board_geometry(the_game, position, columns, rows - 5)
        names = sorted((p.y, p.x, p.width, p.text) for p in geometry.placed if p.what == "name")
        for (y, x, width, text), (y2, x2, _w, text2) in itertools.pairwise(names):
            if y == y2:
                assert x + width < x2, f"{game} at {columns}x{rows}: {text!r} touches {text2!r}"


@pytest.mark.parametrize(("game", "size"), [("bakers-game", (80, 24)), ("diamond-mine", (60, 20))])
def test_the_status_bar_keeps_whole_fields_and_the_dead_check(
    game: str, size: tuple[int, int], shipped_controller: Make
) -> None:
    controller = shipped_controller(game)
    controller.dead_seconds = 0.5
    controller.dead_check_on = True

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.pause(0.2)
        status = str(app.query_one("#status").render()).rstrip()
        assert len(status) <= size[0]
        assert status.endswith(("dead check on", "NO WINNING LINE"))
        assert status.split("  ")[0].startswith(("Deal", "#"))  # the title goes first
        keys = app.query_one(KeyBar).shown()
        assert "? help" in keys and "q quit" in keys

    run_scenario(PatienceApp(controller), scenario, size)
