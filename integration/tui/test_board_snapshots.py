"""Snapshots of every shipped game's opening board (deal 1): at 80x24 and 120x40, with and
without colour (NO_COLOR), and at 60 columns. The pictures are SVG files under
``__snapshots__/test_board_snapshots/``; after a wanted change of the board, look at them and
rewrite them with ``pytest integration/tui/test_board_snapshots.py --snapshot-update``.

The board fills the terminal less three lines, as in the full-screen player (status, message,
footer). ``benchmarks/board_screenshots.py`` makes the pictures of docs/screenshots/."""

from __future__ import annotations

import asyncio

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from textual.app import App, ComposeResult
from textual.widgets import Static

from patience_core.engine import DealNumber
from patience_core.plugins import PluginHost
from patience_core.tui import Board, board_svg

GAMES = ("escalator", "bristol", "bakers-game", "diamond-mine", "spiderette", "golf")


class SVGSnapshot(SingleFileSnapshotExtension):
    """One SVG text file per snapshot."""

    _write_mode = WriteMode.TEXT
    file_extension = "svg"


class BoardApp(App[None]):
    CSS = "#chrome { height: 3; }"

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board

    def compose(self) -> ComposeResult:
        yield self.board
        yield Static(id="chrome")


def picture(host: PluginHost, name: str, size: tuple[int, int]) -> str:
    game = host.game(name)
    board = Board(game, game.deal(DealNumber(1)))
    app = BoardApp(board)
    svg = ""

    async def main() -> None:
        nonlocal svg
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            assert board.too_small is None
            svg = board_svg(board, f"{game.title}, deal 1, {size[0]}x{size[1]}")

    asyncio.run(main())
    return svg


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize(
    ("size", "colour"),
    [((80, 24), True), ((80, 24), False), ((120, 40), True), ((120, 40), False), ((60, 24), True)],
    ids=["80x24", "80x24-no-colour", "120x40", "120x40-no-colour", "60x24"],
)
def test_opening_board(
    patience_host: PluginHost,
    snapshot: SnapshotAssertion,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    size: tuple[int, int],
    colour: bool,
) -> None:
    if colour:
        monkeypatch.delenv("NO_COLOR", raising=False)
    else:
        monkeypatch.setenv("NO_COLOR", "1")
    assert picture(patience_host, name, size) == snapshot.use_extension(SVGSnapshot)
