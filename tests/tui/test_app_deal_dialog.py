"""The new-deal dialog against the fake game: the refusal of a deal the game does not take,
even under the longest game name, is readable whole in the dialog at 80x24, at 60 columns and
at 20x10, and keeps the text typed (docs/play.md, "Keys")."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from patience_core.engine import DealNumber
from patience_core.play import PlayController, Session
from patience_core.testing import FakeGame
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import run_scenario, screen_text
from patience_core.tui._screens import NewDealScreen


class LongNamed(FakeGame):
    """The fake game under the longest name a game may have (64 characters)."""

    name = "a-game-with-the-longest-name-a-game-may-have-sixty-four-letters-"[:63] + "x"


@pytest.mark.parametrize("size", [(80, 24), (60, 20), (20, 10)], ids=str)
def test_a_deal_the_game_refuses_is_said_whole_and_the_text_stays(
    size: tuple[int, int], tmp_path: Path
) -> None:
    assert len(LongNamed.name) == 64
    session = Session(LongNamed(), DealNumber(2))
    controller = PlayController(session, tmp_path / "long.json", "1.0")

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", *"ms 5", "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewDealScreen)
        assert screen.query_one("#deal", Input).value == "ms 5"
        problem = str(screen.query_one("#problem", Static).render())
        assert problem == f"{LongNamed.name} does not take ms deal numbers"
        # Every character, in order (a name longer than the dialog is folded inside itself).
        shown = "".join("".join(screen_text(app, screen.query_one("#dialog").region)).split())
        assert "".join(problem.split()) in shown

    run_scenario(PatienceApp(controller), scenario, size)
    assert controller.session.deal == DealNumber(2)


@pytest.mark.parametrize("typed", ["ms:99999999999", "ms:0", "ms:-1", "ms:" + "9" * 40])
def test_an_ms_number_out_of_range_is_refused_as_not_taken(typed: str, tmp_path: Path) -> None:
    # The game takes no ms numbers whatever the number: that is said, not the ms range.
    controller = PlayController(Session(FakeGame(), DealNumber(2)), tmp_path / "f.json", "1.0")

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n", *typed, "enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewDealScreen)
        problem = str(screen.query_one("#problem", Static).render())
        assert problem == f"{FakeGame.name} does not take ms deal numbers"

    run_scenario(PatienceApp(controller), scenario)
