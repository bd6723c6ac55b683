"""A whole winning line entered through the full-screen player's keys wins, and the end
screen says so (docs/play.md): the solver's line for Baker's Game (runs of several cards picked
up with the up key) and Bristol, each move typed as the pile names (hot keys)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.model import MoveKind, Position
from patience_core.play import FINISHED_WON, PlayController, read_save
from patience_core.plugins import PluginHost
from patience_core.solve import Verdict, solve
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import run_scenario, settle
from patience_core.tui._screens import EndScreen

Make = Callable[..., PlayController]


async def _name(pilot: Pilot[int], app: PatienceApp, name: str) -> None:
    await pilot.press(*name)
    # A name others begin with ends with a pause.
    await settle(pilot, lambda: not app.hot_keys.pending)
    await pilot.pause()


@pytest.mark.slow
# Bristol deal 14: the shortest solver's line of deals 1..30 (63 moves; deal 1 took 77).
@pytest.mark.parametrize(("game", "deal"), [("bakers-game", "ms:2"), ("bristol", "14")])
def test_the_solvers_line_typed_as_keys_wins(
    game: str, deal: str, shipped_controller: Make, patience_host: PluginHost
) -> None:
    controller = shipped_controller(game, deal)
    the_game = controller.session.game
    start = the_game.deal(DealNumber.parse(deal))
    solution = solve(the_game, start, search=patience_host.search(the_game))
    assert solution.verdict is Verdict.WON
    # The line's positions, each move applied without its follow-ups: play() makes those by
    # itself, so a move already played by a follow-up is skipped.
    line: list[Position] = [start]
    for move in solution.moves:
        line.append(the_game.apply(line[-1], move))

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        for _ in range(len(solution.moves)):
            now = controller.session.position
            if now not in line or controller.session.finished is not None:
                break
            move = solution.moves[line.index(now)]
            if move.kind is MoveKind.DEAL:
                await pilot.press("d")
                continue
            assert move.target is not None
            await _name(pilot, app, the_game.piles[move.source].name)
            for _up in range(move.count - 1):
                await pilot.press("up")
            await _name(pilot, app, the_game.piles[move.target].name)
            assert controller.session.position != now, app.message
        await settle(pilot, lambda: isinstance(app.screen, EndScreen))
        assert controller.session.finished == FINISHED_WON
        text = "\n".join(str(w.render()) for w in app.screen.query("Static"))
        assert "You won!" in text and f"{the_game.max_score}/{the_game.max_score}" in text
        await pilot.press("q")

    assert run_scenario(PatienceApp(controller), scenario) == 0
    assert read_save(controller.path).finished == FINISHED_WON
