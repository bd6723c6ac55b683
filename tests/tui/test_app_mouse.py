"""The full-screen player's mouse against the fake game, clicking where the board draws the
cards: click to pick up and click to drop, drag and drop, double-click to a foundation, click
the stock to deal (docs/play.md, "The mouse")."""

from __future__ import annotations

from collections.abc import Callable

from textual.pilot import Pilot

from patience_core.play import PlayController
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import click_card, run_scenario

# Fake Patience, deal 2: t1 6♥, t2 5♣# 2♣, t3 3♥# 2♥# A♥; six cards face down in the stock.
STOCK, WASTE, F1, F2, T1, T2, T3 = range(7)

Make = Callable[..., PlayController]


def test_click_a_card_then_a_pile(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await click_card(pilot, app, T3, 2)
        assert app.board.selection == (T3, 2)
        await pilot.pause(0.6)  # not a double-click
        await click_card(pilot, app, F1, -1)
        assert len(controller.session.position.piles[F1]) == 1

    run_scenario(PatienceApp(controller), scenario)


def test_clicking_the_picked_up_pile_again_puts_the_cards_back(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await click_card(pilot, app, T1, 0)
        assert app.board.selection == (T1, 0)
        await pilot.pause(0.6)
        await click_card(pilot, app, T1, 0)
        assert app.board.selection is None
        assert controller.session.moves == ()

    run_scenario(PatienceApp(controller), scenario)


def test_drag_and_drop(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        start = app.board.card_region(T3, 2)
        end = app.board.card_region(F1, -1)
        await pilot.mouse_down(app.board, offset=(start.x + 1, start.y))
        await pilot.hover(app.board, offset=(end.x + 1, end.y))
        await pilot.mouse_up(app.board, offset=(end.x + 1, end.y))
        await pilot.pause()
        assert len(controller.session.position.piles[F1]) == 1
        assert app.board.selection is None

    run_scenario(PatienceApp(controller), scenario)


def test_a_double_click_sends_the_card_to_a_foundation(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await click_card(pilot, app, T3, 2, times=2)
        assert len(controller.session.position.piles[F1]) == 1
        assert app.board.selection is None

    run_scenario(PatienceApp(controller), scenario)


def test_a_double_click_on_a_card_no_foundation_takes_says_why(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await click_card(pilot, app, T1, 0, times=2)
        assert controller.session.moves == ()
        assert app.message

    run_scenario(PatienceApp(controller), scenario)


def test_clicking_the_stock_deals(fake_controller: Make) -> None:
    controller = fake_controller()

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        await click_card(pilot, app, STOCK, -1)
        assert len(controller.session.position.piles[WASTE]) == 1

    run_scenario(PatienceApp(controller), scenario)
