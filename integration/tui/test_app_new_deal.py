"""The new-deal dialog with the shipped games: a deal number the game cannot deal is said in the
dialog, and the unfinished game replaced is kept aside, the message line saying where
(docs/play.md, "Keys")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from patience_core.engine import DealNumber
from patience_core.play import PlayController
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import run_scenario
from patience_core.tui._screens import NewDealScreen

Make = Callable[..., PlayController]


@pytest.mark.parametrize("game", ["diamond-mine", "spiderette"])
def test_an_ms_deal_in_a_game_without_ms_numbers_is_said_in_the_dialog(
    game: str, shipped_controller: Make
) -> None:
    controller = shipped_controller(game)

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", *"ms:5", "enter")
        assert isinstance(app.screen, NewDealScreen)
        problem = str(app.screen.query_one("#problem").render())
        assert "ms" in problem and "\n" not in problem
        await pilot.press("escape")
        assert controller.session.deal == DealNumber(1)

    assert run_scenario(PatienceApp(controller), scenario) is None  # no crash: still running


def test_a_new_deal_says_where_the_unfinished_game_was_kept(shipped_controller: Make) -> None:
    controller = shipped_controller("golf", deal="7")

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("d", "n", "1", "2", "enter")
        await pilot.pause()
        assert controller.session.deal == DealNumber(12)
        assert app.message.startswith("Deal 12.")
        assert controller.kept_line is not None
        assert controller.kept_line in app.message
        assert app.kept == [controller.kept_line]  # printed again once the screen is restored
        assert "golf-" in app.message

    run_scenario(PatienceApp(controller), scenario)
