"""Picking up more cards or fewer with the arrows (or ``k`` ``j``) in the full-screen player,
with Baker's Game (every card face up): the count follows the keys wherever the cursor went
between them, and putting the cards back or dropping them starts the next pick-up from the top
card again (docs/play.md, "Keys")."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual.pilot import Pilot

from patience_core.play import PlayController
from patience_core.tui import PatienceApp
from patience_core.tui._pilot import run_scenario

Make = Callable[..., PlayController]

#: The arrows, and the same keys as in vi.
KEYS = {
    "arrows": {"up": "up", "down": "down", "left": "left", "right": "right"},
    "hjkl": {"up": "k", "down": "j", "left": "h", "right": "l"},
}


def _picked(app: PatienceApp) -> int:
    """How many cards are picked up (0: none)."""
    if app.board.selection is None:
        return 0
    pile, card = app.board.selection
    return len(app.controller.session.position.piles[pile]) - card


@pytest.mark.parametrize("keys", KEYS.values(), ids=KEYS.keys())
def test_the_count_picked_up_follows_up_and_down_after_the_cursor_left_the_pile(
    keys: dict[str, str], shipped_controller: Make
) -> None:
    controller = shipped_controller("bakers-game")
    up, down, left, right = keys["up"], keys["down"], keys["left"], keys["right"]

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        assert app.board.cursor is not None
        first = app.board.cursor[0]
        top = len(controller.session.position.piles[first]) - 1
        await pilot.press("enter", up, up)
        assert _picked(app) == 3
        await pilot.press(right)  # the cards go with the cursor
        assert app.board.cursor is not None and app.board.cursor[0] != first
        assert _picked(app) == 3
        await pilot.press(left)  # back on their pile: at the first card picked up
        assert app.board.cursor == app.board.selection == (first, top - 2)
        await pilot.press(up)
        assert _picked(app) == 4
        await pilot.press(right, left, down)
        assert _picked(app) == 3
        await pilot.press(right, left, down, down)
        assert _picked(app) == 1
        assert app.message.startswith("Picked up the top card of t")

    run_scenario(PatienceApp(controller), scenario)


@pytest.mark.parametrize("keys", KEYS.values(), ids=KEYS.keys())
def test_putting_the_cards_back_or_dropping_them_starts_again_from_the_top_card(
    keys: dict[str, str], shipped_controller: Make
) -> None:
    controller = shipped_controller("bakers-game")
    up, left, right = keys["up"], keys["left"], keys["right"]

    async def scenario(pilot: Pilot[int], app: PatienceApp) -> None:
        assert app.board.cursor is not None
        first = app.board.cursor[0]
        await pilot.press("enter", up, up, "escape")  # put back
        assert _picked(app) == 0
        await pilot.press("enter")
        assert _picked(app) == 1
        await pilot.press(up, "enter")  # the same pile: put back
        assert _picked(app) == 0
        await pilot.press("enter")
        assert _picked(app) == 1
        await pilot.press(up, right, "escape", left)  # put back from another pile
        assert _picked(app) == 0
        await pilot.press("enter")
        assert _picked(app) == 1
        moves = len(controller.session.moves)
        await pilot.press(up, right, "enter")  # dropped: played or refused
        assert _picked(app) == 0
        await pilot.press(*([left] if len(controller.session.moves) == moves else []))
        await pilot.press("enter")
        assert app.board.cursor is not None
        assert _picked(app) == 1, (first, app.board.cursor)

    run_scenario(PatienceApp(controller), scenario)
