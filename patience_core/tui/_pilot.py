"""Driving the full-screen player without a terminal, with Textual's pilot: for the tests of
the app and ``benchmarks/tui_latency.py``.

Textual's pilot is asynchronous; :func:`run_scenario` runs one scenario to its end from plain
synchronous code (a test, a script).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable

from rich.console import Console
from textual.geometry import Region
from textual.pilot import Pilot

from patience_core.tui._app import PatienceApp

__all__ = ["Scenario", "click_card", "run_scenario", "screen_text", "settle"]

#: What to do with the app once it runs: ``scenario(pilot, app)``.
Scenario = Callable[[Pilot[int], PatienceApp], Awaitable[None]]


def run_scenario(
    app: PatienceApp, scenario: Scenario, size: tuple[int, int] = (80, 24)
) -> int | None:
    """Run ``app`` headless in a terminal of ``size`` (columns, rows), play ``scenario`` with
    the pilot, and end it.

    :returns: the app's exit code (:data:`~patience_core.tui._core.QUIT`, ...), ``None`` when
        the scenario did not end the app.
    """

    async def main() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot, app)
            await pilot.pause()

    asyncio.run(main())
    return app.return_code


async def click_card(
    pilot: Pilot[int], app: PatienceApp, pile: int, card: int, times: int = 1
) -> None:
    """Click (``times`` 2: double-click) card ``card`` of ``pile`` where the board draws it
    (``-1``: the pile's top card or empty outline).

    :raises KeyError: when the board does not draw that pile.
    """
    region = app.board.card_region(pile, card)
    offset = (region.x + region.width // 2, region.y)
    if times == 2:
        await pilot.double_click(app.board, offset=offset)
    else:
        await pilot.click(app.board, offset=offset)
    await pilot.pause()


async def settle(pilot: Pilot[int], done: Callable[[], bool], seconds: float = 30.0) -> None:
    """Let the app run until ``done()`` (a worker's answer, the end of an animation), at most
    ``seconds``.

    :raises AssertionError: when it is not done by then.
    """
    waited = 0.0
    while not done() and waited < seconds:
        await pilot.pause(0.05)
        waited += 0.05
    assert done(), f"not done after {seconds} s"


#: The characters Textual draws borders, fields and scroll bars with (Unicode's block
#: elements), left out by :func:`screen_text`.
_FRAME = str.maketrans("", "", "".join(map(chr, range(0x2580, 0x25A0))))


def screen_text(app: PatienceApp, region: Region | None = None) -> list[str]:
    """The text the terminal shows now, one string a line: the whole screen, or only
    ``region`` (screen cells), the frame characters of borders and fields left out.

    For tests of what a player can read: text a widget cuts off is not there.
    """
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), force_terminal=True, record=True
    )
    update = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(update)
    lines = console.export_text(styles=False).split("\n")[:height]
    area = region or Region(0, 0, width, height)
    return [line[area.x : area.right].translate(_FRAME) for line in lines[area.y : area.bottom]]
