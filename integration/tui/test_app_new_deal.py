"""The new-deal dialog with the shipped games: a deal number the game cannot deal is said in the
dialog, and the unfinished game replaced is kept aside, the message line saying where
(docs/play.md, "Keys")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from patience_core.engine import DealNumber
from patience_core.play import PlayController
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import run_scenario, screen_text
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
        # The text refused stays in the field, the cursor after it, to be corrected.
        await pilot.press("n", *"ms:5", "enter")
        assert app.screen.query_one("#deal", Input).value == "ms:5"
        await pilot.press("backspace", "backspace", "backspace", "backspace", "7", "enter")
        await pilot.pause()
        assert controller.session.deal == DealNumber(7)

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


#: What a player may type that the new-deal dialog refuses, each kind of refusal once: out of
#: range (both schemes, and below), not a number, too many digits, an unknown scheme, and a
#: scheme the game does not take (golf has no Microsoft numbers).
REFUSED = ("99999999999", "ms:0", "ms 2147483648", "-1", "12x", "9" * 25, "foo:5", "ms:5")

#: 80x24, the documented narrow terminal, and the smallest terminal golf's board fits in.
SIZES = ((80, 24), (60, 20), (20, 10))


def _words(lines: list[str]) -> str:
    return " ".join(" ".join(lines).split())


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_every_refusal_of_the_new_deal_dialog_is_readable_whole_and_keeps_the_text(
    size: tuple[int, int], shipped_controller: Make
) -> None:
    controller = shipped_controller("golf")
    seen: list[str] = []

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n")
        for typed in REFUSED:
            field = app.screen.query_one("#deal", Input)
            field.value = ""
            await pilot.press(*typed, "enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, NewDealScreen), typed
            field = screen.query_one("#deal", Input)
            assert field.value == typed  # kept, to be corrected
            problem = str(screen.query_one("#problem", Static).render())
            assert problem, typed
            dialog = screen_text(app, screen.query_one("#dialog").region)
            assert " ".join(problem.split()) in _words(dialog), (typed, dialog)
            seen.append(problem)
        await pilot.press("escape")
        assert controller.session.deal == DealNumber(1)

    run_scenario(PatienceApp(controller), scenario, size)
    assert any("does not take ms" in problem for problem in seen)
    assert any("out of range" in problem for problem in seen)


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_the_new_deal_dialog_is_readable_whole(
    size: tuple[int, int], shipped_controller: Make
) -> None:
    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await pilot.press("n")
        screen = app.screen
        dialog = _words(screen_text(app, screen.query_one("#dialog").region))
        intro = " ".join(str(screen.query_one("#intro", Static).render()).split())
        assert intro in dialog
        assert "r " in intro and "w " in intro and "Esc" in intro

    run_scenario(PatienceApp(shipped_controller("golf")), scenario, size)
