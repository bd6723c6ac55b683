"""Write docs/screenshots/<game>.svg: the full-screen player on deal 1 of every installed game, as
an 80x24 terminal shows it (``--size 120x40`` for another size; ``--board-only`` draws the board
alone, without the status line and the keys).

Run it with the project's Python after a change to the board or the app, look at the pictures
(a browser, or ``rsvg-convert FILE.svg -o FILE.png``), and commit them.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Static

from patience_core.engine import DealNumber
from patience_core.games import Game
from patience_core.play import PlayController, Session
from patience_core.plugins import PluginHost
from patience_core.tui import Board, PatienceApp, board_svg

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"


class BoardApp(App[None]):
    """The board alone, over three blank lines where the player has its status and keys."""

    CSS = "#chrome { height: 3; }"

    def __init__(self, board: Board) -> None:
        super().__init__()
        self.board = board

    def compose(self) -> ComposeResult:
        yield self.board
        yield Static(id="chrome")


async def picture(game: Game, size: tuple[int, int], board_only: bool, folder: Path) -> str:
    """The SVG picture of deal 1 of ``game`` at ``size`` (columns, rows)."""
    title = f"patience play {game.name} --deal 1"
    if board_only:
        board = Board(game, game.deal(DealNumber(1)))
        async with BoardApp(board).run_test(size=size) as pilot:
            await pilot.pause()
            return board_svg(board, title)
    controller = PlayController(Session(game, DealNumber(1)), folder / f"{game.name}.json", "1.0")
    app = PatienceApp(controller)
    async with app.run_test(size=size) as pilot:
        await pilot.pause(0.2)
        return app.export_screenshot(title=title)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="80x24", help="COLUMNSxROWS (default 80x24)")
    parser.add_argument("--board-only", action="store_true", help="the board without the app")
    parser.add_argument("--games", nargs="*", help="only these games (default: every one)")
    args = parser.parse_args()
    columns, rows = (int(n) for n in args.size.split("x"))
    host = PluginHost().load()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        for name in args.games or host.games.names():
            svg = asyncio.run(
                picture(host.game(name), (columns, rows), args.board_only, Path(folder))
            )
            path = OUT / f"{name}.svg"
            path.write_text(svg, encoding="utf-8")
            print(f"wrote {path} ({len(svg) // 1024} KiB)")


if __name__ == "__main__":
    main()
